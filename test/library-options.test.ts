/**
 * The library's options, as a library user meets them: a key that is no option, or a value of the
 * wrong type, is a TypeError naming it; a value the check cannot run with is an error naming the
 * option's field (the command line says the same naming the flag); nothing is read from the
 * environment unless `env` is given.
 */
import assert from 'node:assert/strict';
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { flagDescription } from '../src/cli/help.js';
import { FLAG_NAMES, OPTION_NAMES, optionSpec } from '../src/cli/options.js';
import { parseCommandLine } from '../src/cli/parse.js';
import { checkOptionsOf } from '../src/commands/check.js';
import { OptionError } from '../src/core/option-error.js';
import { UsageError, checkEndpoint } from '../src/index.js';
import { optionFields } from '../src/run/options.js';
import { ROOT, runCli, runCommand } from './helpers.js';

const UNREACHABLE = 'http://127.0.0.1:1/agent';

/** The error checkEndpoint rejects with for these options (it must reject before sending anything). */
async function refusal(options: unknown): Promise<Error> {
  try {
    // On purpose: options a TypeScript user could not write, as a JavaScript user can.
    await checkEndpoint(UNREACHABLE, options as Parameters<typeof checkEndpoint>[1]);
  } catch (cause) {
    assert.ok(cause instanceof Error, String(cause));
    return cause;
  }
  assert.fail(`${JSON.stringify(options)} was taken`);
}

describe('an options object checkEndpoint does not know is refused, naming the key', () => {
  test('case (for cases): a TypeError with a did-you-mean; nothing is run', async () => {
    const cause = await refusal({ case: ['typed'] });
    assert.ok(cause instanceof TypeError);
    assert.match(cause.message, /^"case" is not an option of checkEndpoint; did you mean cases\?/);
  });

  for (const [key, meant] of [
    ['channel', 'channels'],
    ['timeout', undefined],
    ['latencyBudget', 'latencyBudgetSeconds'],
    ['tokenENV', 'tokenEnv'],
  ] as const) {
    test(`${key}${meant ? ` → ${meant}` : ': no option is close'}`, async () => {
      const cause = await refusal({ [key]: 1 });
      assert.ok(cause instanceof TypeError);
      assert.ok(
        cause.message.startsWith(`"${key}" is not an option of checkEndpoint${meant ? `; did you mean ${meant}?` : '. The options:'}`),
      );
    });
  }

  test('a value of the wrong type: a TypeError naming the field and what it takes', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ channels: 'whatsapp' }, 'channels must be a list of strings; got a string ("whatsapp")'],
      [{ cases: [1] }, 'cases must be a list of strings; got a list'],
      [{ concurrency: '4' }, 'concurrency must be a number; got a string ("4")'],
      [{ strict: 'yes' }, 'strict must be true or false; got a string ("yes")'],
      [{ env: { TOKEN: 5 } }, 'env must be an object of strings, such as process.env; got an object'],
      [{ onCase: true }, 'onCase must be a function; got boolean true'],
      [{ latencyBudgetSeconds: '10' }, 'latencyBudgetSeconds must be a number; got a string ("10")'],
    ];
    for (const [options, message] of cases) {
      const cause = await refusal(options);
      assert.ok(cause instanceof TypeError, message);
      assert.equal(cause.message, message);
    }
  });

  test('a key left undefined counts as left out', async () => {
    const report = await checkEndpoint(UNREACHABLE, { channels: undefined, cases: ['typed'] });
    assert.equal(report.outcome, 'error');
  });
});

describe("the library's errors name its option fields, never a flag", () => {
  const cases: [Record<string, unknown>, string, string][] = [
    [
      { channels: ['whatsap'] },
      'channels: "whatsap" is not a channel; did you mean whatsapp?',
      '--channel whatsap: no platform is called that; did you mean whatsapp?',
    ],
    [{ runs: 0 }, 'runs must be a whole number from 1 to 100; got 0', '--runs must be a whole number from 1 to 100; got 0'],
    [{ waitSeconds: -1 }, 'waitSeconds must be a number of seconds, 0 or more; got -1', '--wait must be a number of seconds'],
    [{ agentTimeoutSeconds: 0 }, 'agentTimeoutSeconds must be a positive number; got 0', '--agent-timeout must be a positive number'],
    [{ qualityConversations: 2.5 }, 'qualityConversations must be a positive whole number; got 2.5', '--quality-conversations must'],
    [{ latencyBudgetSeconds: 0 }, 'latencyBudgetSeconds must be a positive number; got 0', '--latency-budget must be a positive'],
    [
      { tokenEnv: 'NOT_SET_ANYWHERE' },
      'tokenEnv names NOT_SET_ANYWHERE, but that environment variable is not set (no env was given: pass env: process.env to read the environment)',
      '--token-env names NOT_SET_ANYWHERE',
    ],
    [{ secretHeaders: { 'x-key': 'KEY_VAR' }, env: {} }, 'secretHeaders x-key=KEY_VAR: KEY_VAR is not set', '--header-env x-key=KEY_VAR'],
    [{ dotenv: '/no/such/.env' }, 'dotenv /no/such/.env: no such file', '--dotenv /no/such/.env: no such file'],
  ];
  for (const [options, library, command] of cases) {
    test(`${Object.keys(options)[0]}: ${library.slice(0, 50)}…`, async () => {
      const cause = await refusal(options);
      assert.ok(cause instanceof OptionError && cause instanceof UsageError, String(cause));
      assert.ok(cause.message.startsWith(library), cause.message);
      assert.doesNotMatch(cause.message, /(^|\s)--[a-z]/);
      assert.ok(cause.messageFor(FLAG_NAMES).startsWith(command), cause.messageFor(FLAG_NAMES));
    });
  }

  test('the command line says them naming the flags', async () => {
    const runs = await runCli([UNREACHABLE, '--runs', '0']);
    assert.equal(runs.code, 2);
    assert.match(runs.stderr, /^check-endpoint: --runs must be a whole number from 1 to 100; got 0\n/);
    const budget = await runCli([UNREACHABLE, '--latency-budget', '0', '--json']);
    assert.equal(budget.code, 2);
    assert.match(budget.stderr, /^check-endpoint: --latency-budget must be a positive number; got 0\n/);
    assert.equal(JSON.parse(budget.stdout).error.message, '--latency-budget must be a positive number; got 0');
  });
});

describe('the flag table and the options agree', () => {
  test("every flag of the check that sets an option names one of checkEndpoint's fields, and sets it", () => {
    const fields = optionFields();
    const checkFlags = OPTION_NAMES.filter((name) => optionSpec(name).commands.includes('check'));
    const withField = checkFlags.filter((name) => optionSpec(name).field !== undefined);
    assert.ok(withField.length >= 20, `${withField.length} flags set options`);
    for (const name of withField) {
      const spec = optionSpec(name);
      assert.ok(fields.includes(spec.field!), `--${name} sets ${spec.field}, an option`);
      const value =
        spec.type === 'boolean'
          ? []
          : spec.type === 'number'
            ? ['3']
            : [name === 'header' ? 'x-a: b' : name === 'header-env' ? 'x-a=B' : name === 'case' ? 'typed' : 'acme'];
      const line = parseCommandLine([UNREACHABLE, `--${name}`, ...value]);
      assert.equal(line.command, 'check');
      const options = new Map<string, unknown>(Object.entries(checkOptionsOf(line.command === 'check' ? line.args : assert.fail())));
      assert.notEqual(options.get(spec.field!), undefined, `--${name} sets ${spec.field}`);
    }
    assert.equal(FLAG_NAMES.name('latencyBudgetSeconds'), '--latency-budget');
    assert.equal(FLAG_NAMES.name('qualityConversations'), '--quality-conversations');
    assert.equal(FLAG_NAMES.name('channels'), '--channel');
  });

  test('--help lists the case settings from the registry, after --quality', async () => {
    const help = (await runCli(['--help'])).stdout;
    const at = ['--quality ', '--quality-conversations N', '--latency-budget SECONDS', '--insecure'].map((flag) => help.indexOf(flag));
    assert.ok(
      at.every((index, place) => index > (at[place - 1] ?? 0)),
      `in that order: ${at.join(', ')}`,
    );
    assert.equal(flagDescription('latency-budget', 'check'), 'A p95 latency above it is a warning in quality/latency. Default: 10.');
    assert.equal(flagDescription('quality-conversations', 'check'), 'Conversations at once in quality/concurrency. Default: 8.');
  });
});

describe('nothing is read from the environment unless env is given', () => {
  const TOKEN = 'tok-from-the-environment-5f3a';
  const authorizations: (string | undefined)[] = [];
  let url = '';
  const server = createServer((request: IncomingMessage, response) => {
    authorizations.push(request.headers.authorization);
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(request.method === 'HEAD' ? undefined : '{"replies":[{"type":"message","text":"open 9 to 5"}]}');
    });
  });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Runs the built library in a process whose environment holds the token; `env: process.env` when `passEnv`. */
  async function checkInChild(passEnv: boolean): Promise<string> {
    const code = `const { checkEndpoint } = await import(process.argv[1]);
      const report = await checkEndpoint(process.argv[2], { cases: ['typed'], ...(process.argv[3] === 'env' ? { env: process.env } : {}) });
      process.stdout.write(report.outcome);`;
    const result = await runCommand(
      process.execPath,
      ['--input-type=module', '-e', code, join(ROOT, 'dist/index.js'), url, passEnv ? 'env' : 'none'],
      { env: { ...process.env, FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN } },
    );
    assert.equal(result.stderr, '');
    return result.stdout;
  }

  test('the token variable set in process.env is not sent by default', async () => {
    authorizations.length = 0;
    assert.equal(await checkInChild(false), 'passed');
    assert.ok(authorizations.length >= 2, 'the HEAD probe and the message came');
    assert.deepEqual(new Set(authorizations), new Set([undefined]));
  });

  test('with env: process.env it is', async () => {
    authorizations.length = 0;
    assert.equal(await checkInChild(true), 'passed');
    assert.ok(authorizations.includes(`Bearer ${TOKEN}`));
  });
});
