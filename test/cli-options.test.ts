import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { COMMANDS, type CommandName, NAMED_COMMANDS } from '../src/cli/commands.js';
import { flagDescription, helpWidth, renderHelp } from '../src/cli/help.js';
import { wrap } from '../src/core/wrap.js';
import { OPTION_NAMES, type OptionName, argumentKey, flagUsage, isActionFlag, optionSpec, optionsOf } from '../src/cli/options.js';
import { type CommandLine, parseCommandLine } from '../src/cli/parse.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { UsageError } from '../src/core/usage-error.js';
import { TOOL_VERSION } from '../src/core/version.js';
import { runCli } from './helpers.js';

/** The commands that take flags, each with a command line that runs it and the key its word is given as. */
const COMMAND_LINES: Record<Exclude<CommandName, 'help'>, { argv: string[]; word?: [string, unknown] }> = {
  check: { argv: ['http://127.0.0.1:1/agent'], word: ['url', 'http://127.0.0.1:1/agent'] },
  validate: { argv: ['validate', 'answer.json'], word: ['file', 'answer.json'] },
  'serve-example': { argv: ['serve-example'] },
  demo: { argv: ['demo'] },
  chat: { argv: ['chat', 'http://127.0.0.1:1/agent'], word: ['url', 'http://127.0.0.1:1/agent'] },
  limits: { argv: ['limits', 'whatsapp', 'sms'], word: ['channels', ['whatsapp', 'sms']] },
  show: { argv: ['show'] },
  spec: { argv: ['spec', 'request'], word: ['name', 'request'] },
  scenarios: { argv: ['scenarios', 'tests/scenarios'], word: ['folder', 'tests/scenarios'] },
};
const ARGUMENT_COMMANDS = Object.keys(COMMAND_LINES) as (keyof typeof COMMAND_LINES)[];

/** The arguments a command line gives its command. */
function argsOf(argv: string[]): Record<string, unknown> {
  const line: CommandLine = parseCommandLine(argv);
  assert.ok('args' in line, `${argv.join(' ')} gave ${line.command}`);
  return { ...line.args };
}

function parsedOn(command: keyof typeof COMMAND_LINES, flags: string[]): Record<string, unknown> {
  return argsOf([...COMMAND_LINES[command].argv, ...flags]);
}

/** The UsageError's message for a command line. */
function usageError(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return error.message;
  }
  assert.fail(`${argv.join(' ')} was accepted`);
}

/** Two values a flag takes, as typed and as the command gets them. */
function samples(name: OptionName): [[string, unknown], [string, unknown]] {
  const spec = optionSpec(name);
  if (spec.type === 'number') {
    return [
      ['5', 5],
      ['7', 7],
    ];
  }
  if (spec.type === 'string' && spec.choices) {
    const [first, second] = spec.choices;
    return [
      [first!, first],
      [second!, second],
    ];
  }
  return [
    ['first', 'first'],
    ['second', 'second'],
  ];
}

/** What a command gets when a flag is not given. */
function unset(name: OptionName): unknown {
  const spec = optionSpec(name);
  if (spec.type === 'boolean') return spec.optional ? undefined : false;
  if (spec.type === 'string' && spec.list) return [];
  return spec.default;
}

describe('every flag means the same on every command that takes it', () => {
  for (const command of ARGUMENT_COMMANDS) {
    const flags = optionsOf(command).filter((name) => !isActionFlag(name));

    test(`${command}: a flag not given takes its default, and the command gets nothing else`, () => {
      const args = parsedOn(command, []);
      const expected: Record<string, unknown> = {};
      const word = COMMAND_LINES[command].word;
      if (word) expected[word[0]] = word[1];
      for (const name of flags) if (unset(name) !== undefined) expected[argumentKey(name)] = unset(name);
      assert.deepEqual(args, expected);
    });

    for (const name of flags) {
      const spec = optionSpec(name);
      const key = argumentKey(name);
      test(`${command} --${name}`, () => {
        if (spec.type === 'boolean') {
          assert.equal(parsedOn(command, [`--${name}`])[key], true);
          assert.equal(parsedOn(command, [`--no-${name}`])[key], false);
          assert.equal(parsedOn(command, [`--${name}`, `--no-${name}`])[key], false, 'the last one counts');
          assert.equal(parsedOn(command, [`--no-${name}`, `--${name}`])[key], true, 'the last one counts');
          assert.match(
            usageError([...COMMAND_LINES[command].argv, `--${name}=yes`]),
            new RegExp(`--${name} is an on/off flag and takes no value`),
          );
          return;
        }
        const [[first, firstValue], [second, secondValue]] = samples(name);
        const separate = parsedOn(command, [`--${name}`, first]);
        assert.deepEqual(parsedOn(command, [`--${name}=${first}`]), separate, '--flag=value is --flag value');
        if (spec.type === 'string' && spec.list) {
          assert.deepEqual(separate[key], [firstValue]);
          assert.deepEqual(
            parsedOn(command, [`--${name}`, first, `--${name}=${second}`])[key],
            [firstValue, secondValue],
            'a list collects',
          );
        } else {
          assert.equal(separate[key], firstValue);
          assert.equal(parsedOn(command, [`--${name}`, first, `--${name}`, second])[key], secondValue, 'the last value counts');
        }
        if (spec.type === 'string' && spec.valueWhenBare !== undefined) {
          assert.equal(parsedOn(command, [`--${name}`])[key], spec.valueWhenBare, 'given bare, it takes its value');
          assert.equal(parsedOn(command, [`--${name}`, '--json'])[key], spec.valueWhenBare, 'given before another flag, too');
        } else {
          assert.match(usageError([...COMMAND_LINES[command].argv, `--${name}`]), new RegExp(`^--${name} needs a value: --${name} `));
        }
        if (spec.type === 'string' && spec.negatable) {
          assert.equal(parsedOn(command, [`--no-${name}`])[key], false, 'the --no- form gives false');
          assert.equal(parsedOn(command, [`--${name}`, first, `--no-${name}`])[key], false, 'the last one counts');
          assert.equal(parsedOn(command, [`--no-${name}`, `--${name}`, first])[key], firstValue, 'the last one counts');
          assert.match(usageError([...COMMAND_LINES[command].argv, `--no-${name}=x`]), new RegExp(`^--no-${name} takes no value`));
        } else {
          assert.match(usageError([...COMMAND_LINES[command].argv, `--no-${name}`]), /only on\/off flags have a --no- form/);
        }
        if (spec.type === 'number') {
          assert.equal(
            usageError([...COMMAND_LINES[command].argv, `--${name}`, 'x']),
            `--${name} needs a number (${spec.placeholder}${spec.takes ? `, ${spec.takes}` : ''}); got "x"`,
          );
        }
        if (spec.type === 'string' && spec.choices) {
          assert.equal(
            usageError([...COMMAND_LINES[command].argv, `--${name}`, 'nope']),
            `--${name} nope is not one of ${spec.choices.join(', ')}`,
          );
        }
      });

      test(`${command}: a misspelt --${name} gets a did-you-mean`, () => {
        const typo = `${name}${name.at(-1)}`;
        assert.equal(usageError([...COMMAND_LINES[command].argv, `--${typo}`]), `unknown flag --${typo}; did you mean --${name}?`);
      });
    }

    test(`${command}: the flags of other commands are refused, naming the commands that take them`, () => {
      for (const name of OPTION_NAMES.filter((flag) => !optionSpec(flag).commands.includes(command))) {
        const message = usageError([...COMMAND_LINES[command].argv, `--${name}`, '1']);
        assert.match(message, new RegExp(`^--${name} is not a flag of ${COMMANDS[command].title.replace(/[<>]/g, '.')}; `));
        for (const taker of optionSpec(name).commands) assert.ok(message.includes(COMMANDS[taker].title), `${message} names ${taker}`);
      }
    });
  }
});

describe('the command line', () => {
  test('flags go before or after the words', () => {
    assert.deepEqual(argsOf(['--json', 'http://x/', '--channel', 'sms']), argsOf(['http://x/', '--channel', 'sms', '--json']));
    assert.deepEqual(argsOf(['--json', 'validate', 'a.json']), argsOf(['validate', 'a.json', '--json']));
  });

  test('a value may start with a dash when written with =, and a number may be negative', () => {
    assert.equal(argsOf(['http://x/', '--spec=-odd.yaml']).spec, '-odd.yaml');
    assert.equal(argsOf(['http://x/', '--agent-timeout', '-5']).agentTimeout, -5);
    assert.equal(
      usageError(['http://x/', '--spec', '--json']),
      '--spec needs a value: --spec FILE; the next word is the flag --json (write --spec=--json if that is the value)',
    );
  });

  test('validate reads standard input with -, or with no FILE; -- ends the flags', () => {
    assert.equal(argsOf(['validate', '-']).file, '-');
    assert.ok(!('file' in argsOf(['validate'])));
    assert.equal(argsOf(['validate', '--', '--odd.json']).file, '--odd.json');
  });

  test('a number is a decimal number', () => {
    for (const good of ['0', '5', '0.5', '.5', '1e9', '+3'])
      assert.equal(argsOf(['http://x/', '--agent-timeout', good]).agentTimeout, Number(good));
    for (const bad of ['', ' ', 'soon', '0x10', 'Infinity', '5s', '1,5'])
      assert.match(usageError(['http://x/', '--agent-timeout', bad]), /--agent-timeout needs a number \(SECONDS\)/);
  });

  test('a missing or extra word is an error naming what the command takes', () => {
    // Parsed here, from the clone's folder: the command is named as it runs from here (src/core/command-name.ts).
    assert.equal(usageError([]), 'give the URL of your agent: node bin/check-endpoint.cjs <url> [flags]');
    assert.equal(usageError(['http://a/', 'http://b/']), 'unexpected argument "http://b/": check-endpoint <url> takes one URL');
    assert.equal(
      usageError(['validate', 'a.json', 'b.json']),
      'unexpected argument "b.json": validate takes one answer FILE (or - for standard input)',
    );
    assert.equal(usageError(['demo', 'http://a/']), 'unexpected argument "http://a/": demo takes flags only');
    assert.equal(usageError(['serve-example', '8080']), 'unexpected argument "8080": serve-example takes flags only');
    assert.equal(usageError(['help', 'validate', 'demo']), 'unexpected argument "demo": help takes one command name');
  });

  test('a misspelt command gets a did-you-mean, a URL-looking word is taken as the URL', () => {
    assert.equal(usageError(['validat', 'a.json']), 'unknown command "validat"; did you mean validate?');
    assert.equal(argsOf(['demo.example.com']).url, 'demo.example.com');
    assert.match(
      usageError(['help', 'valdate']),
      /^help: there is no command "valdate"; did you mean validate\? The commands: validate, serve-example, demo, chat, limits, show, spec, scenarios, help; the check's own help is node bin\/check-endpoint\.cjs --help$/,
    );
  });

  test('an unknown flag with nothing close, a short one, and a misspelt --no- form', () => {
    assert.equal(usageError(['http://x/', '--zzzzzz']), 'unknown flag --zzzzzz');
    assert.equal(usageError(['http://x/', '-x']), 'unknown flag -x');
    assert.equal(usageError(['http://x/', '--no-jsn']), 'unknown flag --no-jsn; did you mean --no-json?');
  });

  test('--help, -h and help ask for help, on the command named; --version for the version', () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['http://x/', '--help'], ['--chanel', '-h']])
      assert.deepEqual(parseCommandLine(argv), { command: 'help', topic: 'check' });
    for (const name of NAMED_COMMANDS) {
      for (const argv of [
        ['help', name],
        [name, '--help'],
        [name, '-h'],
      ])
        assert.deepEqual(parseCommandLine(argv), { command: 'help', topic: name });
    }
    for (const argv of [['--version'], ['validate', '--version'], ['http://x/', '--json', '--version']])
      assert.deepEqual(parseCommandLine(argv), { command: 'version' });
  });
});

describe('help, written from the tables', () => {
  const topics = Object.keys(COMMANDS) as CommandName[];

  test('every flag of the table is in the help of each command that takes it, with its placeholder and description', () => {
    for (const name of OPTION_NAMES) {
      assert.ok(optionSpec(name).commands.length > 0, name);
      for (const topic of optionSpec(name).commands) {
        const help = renderHelp(topic, 1000);
        assert.ok(help.includes(`${flagUsage(name)}  `), `${topic} lists ${name}`);
        assert.ok(help.includes(flagDescription(name, topic)), `${topic} describes ${name}`);
      }
    }
  });

  test('each help has its usage line, examples and exit codes; the main help lists the commands', () => {
    for (const topic of topics) {
      const help = renderHelp(topic, 80);
      assert.ok(help.includes(`Usage: check-endpoint ${COMMANDS[topic].usage}\n`), topic);
      for (const example of COMMANDS[topic].examples) assert.ok(help.includes(`    ${example.command}\n`), `${topic}: ${example.command}`);
      if (COMMANDS[topic].exitCodes) assert.ok(help.replace(/\s+/g, ' ').includes(COMMANDS[topic].exitCodes!), topic);
    }
    const main = renderHelp('check', 80);
    for (const name of NAMED_COMMANDS) assert.match(main, new RegExp(`^  ${name}\\b`, 'm'));
    assert.match(
      main.replace(/\n/g, ' '),
      /Exit codes: 0 every case passed, 1 a case failed \(or was not run: the agent stopped answering, or --max-failures was reached\), 2 the check could not run, or a report file asked for could not be written \(every other is, and the verdict is printed\), 130 \/ 143 interrupted by SIGINT \/ SIGTERM \(after writing what finished\)\./,
    );
  });

  test('the defaults help gives are the ones the check uses', () => {
    assert.match(
      flagDescription('agent-timeout', 'check'),
      new RegExp(`Default: the contract's ${bundledContract().agentTimeoutSeconds}\\.`),
    );
    assert.match(flagDescription('channel', 'check'), /Default: whatsapp\./);
    assert.match(flagDescription('channel', 'demo'), /Default: all\./);
    assert.match(flagDescription('port', 'serve-example'), /Default: 8080\./);
  });

  test('wrapped to the width asked, and to 80 columns, or the terminal up to 100', () => {
    for (const width of [80, 100]) {
      for (const topic of topics) {
        for (const line of renderHelp(topic, width).split('\n')) assert.ok(line.length <= width, `${topic} at ${width}: ${line}`);
      }
    }
    assert.notEqual(renderHelp('check', 80), renderHelp('check', 100));
    assert.deepEqual(wrap('one two three', 7), ['one two', 'three']);
    assert.equal(helpWidth({ isTTY: false, columns: 200 }), 80);
    assert.equal(helpWidth({ isTTY: true, columns: 200 }), 100);
    assert.equal(helpWidth({ isTTY: true, columns: 90 }), 90);
    assert.equal(helpWidth({}), 80);
  });
});

describe('through the command', () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-options-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test('--help, -h and help print the same help; validate --help is help validate', async () => {
    const [long, short, word] = await Promise.all([runCli(['--help']), runCli(['-h']), runCli(['help'])]);
    assert.equal(long.code, 0);
    // Run as node bin/check-endpoint.cjs from the clone, help names the command so.
    assert.equal(long.stdout, renderHelp('check', 80, 'node bin/check-endpoint.cjs'), 'stdout is not a terminal: 80 columns');
    assert.equal(short.stdout, long.stdout);
    assert.equal(word.stdout, long.stdout);
    const [flag, topic] = await Promise.all([runCli(['validate', '--help']), runCli(['help', 'validate'])]);
    assert.equal(flag.code, 0);
    assert.equal(flag.stdout, renderHelp('validate', 80, 'node bin/check-endpoint.cjs'));
    assert.equal(topic.stdout, flag.stdout);
  });

  test('--version, alone or with a command', async () => {
    for (const argv of [['--version'], ['validate', '--version']]) {
      const result = await runCli(argv);
      assert.equal(result.code, 0);
      assert.equal(result.stdout, `${TOOL_VERSION}\n`);
    }
  });

  test('an unknown flag: the message, the pointer to --help, exit 2, nothing on stdout', async () => {
    const result = await runCli(['validate', '-', '--chanel', 'sms']);
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      'check-endpoint: unknown flag --chanel; did you mean --channel?\nRun node bin/check-endpoint.cjs --help for usage.\n',
    );
    assert.equal(result.stdout, '');
  });

  test('a repeated --agent-timeout takes the last value on the check and on demo alike', async () => {
    for (const argv of [['http://127.0.0.1:1/agent'], ['demo']]) {
      const result = await runCli([...argv, '--agent-timeout', '5', '--agent-timeout', '-7']);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /^check-endpoint: --agent-timeout must be a positive number; got -7$/m);
      const bad = await runCli([...argv, '--agent-timeout', 'x']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /^check-endpoint: --agent-timeout needs a number \(SECONDS\); got "x"$/m);
    }
  });

  test('a repeated --spec loads the last file on the check, validate and demo alike', async () => {
    const missing = join(tmp, 'missing-second.yaml');
    for (const argv of [['http://127.0.0.1:1/agent'], ['validate', '-'], ['demo']]) {
      const result = await runCli([...argv, '--spec', join(tmp, 'missing-first.yaml'), `--spec=${missing}`], { input: '{"replies":[]}' });
      assert.equal(result.code, 2, result.stderr);
      assert.ok(result.stderr.includes(`check-endpoint: ${missing}: `), result.stderr);
      assert.ok(!result.stderr.includes('missing-first'), result.stderr);
    }
  });

  test('a repeated --channel collects on validate as on the check', async () => {
    const answer = join(tmp, 'answer.json');
    writeFileSync(answer, JSON.stringify({ replies: [{ type: 'message', text: 'hi' }] }));
    const result = await runCli(['validate', answer, '--channel', 'sms', '--channel=web', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { results: { channel: string }[] };
    assert.deepEqual(
      report.results.map((entry) => entry.channel),
      ['sms', 'web'],
    );
  });
});
