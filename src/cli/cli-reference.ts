/**
 * docs/cli.md, written from the command and option tables as help is (scripts/write-cli-docs.ts
 * writes it in the build; test/docs.test.ts holds the file equal to it). Every flag's words are
 * the table's: `flagRows` is the one place that reads the table, to re-point when the table changes shape.
 */
import { COMMANDS, type CommandName, NAMED_COMMANDS } from './commands.js';
import { flagDescription } from './help.js';
import { flagUsage, isActionFlag, optionsOf } from './options.js';

/** A command's flags as rows: how each is written, and what help says of it on this command. */
export function flagRows(command: CommandName): { usage: string; description: string }[] {
  return optionsOf(command)
    .filter((name) => !isActionFlag(name))
    .map((name) => ({ usage: flagUsage(name), description: flagDescription(name, command) }));
}

/** A table cell: a pipe would end it, a line break too. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function commandSection(command: CommandName): string[] {
  const spec = COMMANDS[command];
  const heading = command === 'check' ? 'The check: `check-endpoint <url>`' : `\`${command}\``;
  const lines = [
    `## ${heading}`,
    '',
    '```',
    `check-endpoint ${spec.usage}`,
    '```',
    '',
    ...spec.about.flatMap((paragraph) => [paragraph, '']),
  ];
  if (spec.positional) lines.push(`Argument \`${spec.positional.placeholder}\`: ${spec.positional.description}.`, '');
  const rows = flagRows(command);
  if (rows.length > 0) {
    lines.push('| flag | meaning |', '| --- | --- |');
    for (const row of rows) lines.push(`| \`${cell(row.usage)}\` | ${cell(row.description)} |`);
    lines.push('');
  }
  // Examples as help gives them, with placeholders (URL, answer.json): listed, not a block of commands to run as written.
  if (spec.examples.length > 0) {
    lines.push('Examples:', '');
    for (const example of spec.examples) lines.push(`- ${example.description}: \`${example.command}\``);
    lines.push('');
  }
  if (spec.exitCodes) lines.push(spec.exitCodes, '');
  return lines;
}

/** docs/cli.md: every command, its arguments, its flags and their defaults, its examples and exit codes. */
export function cliReference(): string {
  const lines = [
    '# Command-line reference',
    '',
    '<!-- Written by scripts/write-cli-docs.ts from src/cli/commands.ts and src/cli/options.ts (npm run build); test/docs.test.ts holds it current. Do not edit by hand. -->',
    '',
    'Every command also takes `-h, --help` (its help) and `--version`. `check-endpoint` stands for the command as you run it:',
    '`npx --yes --package ./check-endpoint-0.1.0.tgz check-endpoint`, `npx check-endpoint` in a project that installed it, or',
    '`node bin/check-endpoint.cjs` in a clone; the command itself prints its lines that way.',
    '',
    ...(['check', ...NAMED_COMMANDS] as const).filter((command) => command !== 'help').flatMap(commandSection),
  ];
  while (lines.at(-1) === '') lines.pop();
  return `${lines.join('\n')}\n`;
}
