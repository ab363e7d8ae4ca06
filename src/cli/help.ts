/** The help of each command, written from the command and option tables. */
import { withCommand } from '../core/command-words.js';
import { wrap } from '../core/wrap.js';
import { COMMANDS, type CommandName, NAMED_COMMANDS } from './commands.js';
import { type OptionName, flagUsage, optionSpec, optionsOf } from './options.js';

const INDENT = '  ';
const GAP = '  ';
/** A left column wider than this puts its description on the next line. */
const MAX_LEFT = 30;

/** The width help is written to: the terminal's, at most 100 columns; 80 when stdout is not a terminal. */
export function helpWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY && stream.columns ? Math.max(40, Math.min(100, stream.columns)) : 80;
}

/** Two columns: a name and its wrapped description, aligned. */
function columns(rows: readonly (readonly [string, string])[], width: number): string[] {
  const left = Math.min(MAX_LEFT, Math.max(...rows.map(([name]) => name.length)));
  const descriptionWidth = Math.max(20, width - INDENT.length - left - GAP.length);
  const pad = ' '.repeat(INDENT.length + left + GAP.length);
  return rows.flatMap(([name, description]) => {
    const text = wrap(description, descriptionWidth);
    if (name.length > left) return [`${INDENT}${name}`, ...text.map((line) => `${pad}${line}`)];
    return text.map((line, index) => (index === 0 ? `${INDENT}${name.padEnd(left)}${GAP}${line}` : `${pad}${line}`));
  });
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** A flag's help on one command: what it does, its choices, whether it repeats, and its default. */
export function flagDescription(name: OptionName, command: CommandName): string {
  const spec = optionSpec(name);
  const parts = [sentence(spec.descriptionOn?.[command] ?? spec.description)];
  if (spec.type === 'string' && spec.choices) parts.push(`One of: ${spec.choices.join(', ')}.`);
  if (spec.type === 'string' && spec.list) parts.push('Repeat for several.');
  const defaultText =
    spec.defaultDescriptionOn?.[command] ??
    spec.defaultDescription ??
    (spec.type !== 'boolean' && spec.default !== undefined ? String(spec.default) : undefined);
  if (defaultText !== undefined) parts.push(`Default: ${defaultText}.`);
  return parts.join(' ');
}

/** An example's command line with check-endpoint written as `command` (`echo … | check-endpoint validate -` too). */
function exampleLine(example: string, command: string): string {
  return example.replace(/(^|[ |] *)check-endpoint(?= )/g, (_match, before: string) => `${before}${command}`);
}

/**
 * The help of one command (`check` is the main help, with the list of commands), naming the
 * command as `command` (how this process was started: core/command-name.ts; docs/cli.md: check-endpoint).
 */
export function renderHelp(topic: CommandName, width: number, command = 'check-endpoint'): string {
  const spec = COMMANDS[topic];
  const lines: string[] = [];
  for (const paragraph of spec.about) lines.push(...wrap(withCommand(paragraph, command), width), '');
  lines.push(`Usage: ${command} ${spec.usage}`, '');
  if (topic === 'check') {
    const named = NAMED_COMMANDS.map((name) => [COMMANDS[name].usage.replace(' [flags]', ''), COMMANDS[name].summary] as const);
    lines.push('Commands:', ...columns([[spec.title, spec.summary], ...named], width), '');
  }
  if (spec.positional) lines.push('Arguments:', ...columns([[spec.positional.placeholder, spec.positional.description]], width), '');
  const flags = optionsOf(topic).map((name) => [flagUsage(name), withCommand(flagDescription(name, topic), command)] as const);
  lines.push('Flags:', ...columns(flags, width), '');
  lines.push('Examples:');
  for (const example of spec.examples)
    lines.push(
      ...wrap(`${withCommand(example.description, command)}:`, width - INDENT.length).map((line) => `${INDENT}${line}`),
      `${INDENT}${INDENT}${exampleLine(example.command, command)}`,
    );
  lines.push('');
  if (spec.exitCodes) lines.push(...wrap(spec.exitCodes, width), '');
  if (topic === 'check') lines.push(...wrap(`A command's own help: ${command} help COMMAND.`, width));
  while (lines.at(-1) === '') lines.pop();
  return `${lines.join('\n')}\n`;
}
