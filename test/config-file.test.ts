/**
 * The config file (check-endpoint.config.json, or --config FILE): used, overridden by the flags
 * given, refused with a did-you-mean for an unknown key, never holding a secret; and its JSON
 * Schema in spec/, the same as the one written from the option table.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { CONFIG_FLAGS, configKey, configValues } from '../src/cli/config.js';
import { configSchema } from '../src/cli/config-schema.js';
import { OPTION_NAMES, isActionFlag, optionSpec } from '../src/cli/options.js';
import { parseCommandLine } from '../src/cli/parse.js';
import { createAjv } from '../src/contract/ajv.js';
import { UsageError } from '../src/core/usage-error.js';
import { ROOT, runCli } from './helpers.js';

const ENV = { FLOW_FRAMEWORK_AGENT_TOKEN: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined };
const SHIPPED = JSON.parse(readFileSync(join(ROOT, 'spec/config.schema.json'), 'utf8')) as {
  properties: Record<string, unknown>;
};

let folder: string;
let agent: RunningAgent;
/** Answers only when the x-api-key header holds the key: for headerEnv in the config file. */
let gated: RunningAgent;

before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'check-endpoint-config-'));
  agent = await startReferenceAgent();
  gated = await serveAgent((_, raw) =>
    raw.headers['x-api-key'] === 'key-from-env' ? { replies: [{ type: 'message', text: 'Open 9 to 5.' }] } : { replies: 'locked' },
  );
});
after(async () => {
  await Promise.all([agent.close(), gated.close()]);
  rmSync(folder, { recursive: true, force: true });
});

function inFolder(name: string, config: unknown): string {
  const dir = join(folder, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'check-endpoint.config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return dir;
}

type Played = { channels: { name: string }[]; cases: { id: string; channel: string }[]; target: string };

describe('the config file, through the command', () => {
  test('used: the URL, channels and cases come from it', async () => {
    const dir = inFolder('used', {
      $schema: './node_modules/check-endpoint/spec/config.schema.json',
      url: agent.url,
      channel: ['sms', 'web'],
      case: 'typed',
    });
    const result = await runCli(['--json'], { cwd: dir, env: ENV });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as Played;
    assert.equal(report.target, agent.url);
    assert.deepEqual(
      report.cases.map((played) => `${played.channel}/${played.id}`),
      ['sms/typed', 'web/typed'],
    );
    assert.match(result.stderr, /^config: check-endpoint\.config\.json$/m, 'the run says which config it read');
  });

  test('overridden: a flag given wins, a list flag replacing the whole list; a URL given wins', async () => {
    const dir = inFolder('overridden', {
      url: 'http://127.0.0.1:1/nowhere',
      channel: ['sms', 'web'],
      case: ['typed', 'photo'],
      concurrency: 2,
    });
    const result = await runCli([agent.url, '--channel', 'telegram', '--json'], { cwd: dir, env: ENV });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as Played;
    assert.equal(report.target, agent.url);
    assert.deepEqual(
      report.cases.map((played) => `${played.channel}/${played.id}`),
      ['telegram/typed', 'telegram/photo'],
    );
  });

  test('--config FILE reads another file; --no-config reads none', async () => {
    const dir = inFolder('named', { url: 'http://127.0.0.1:1/nowhere' });
    writeFileSync(join(dir, 'ci.json'), JSON.stringify({ url: agent.url, case: ['no-reply'] }));
    const named = await runCli(['--config', 'ci.json', '--json'], { cwd: dir, env: ENV });
    assert.equal(named.code, 0, named.stderr);
    assert.deepEqual(
      (JSON.parse(named.stdout) as Played).cases.map((played) => played.id),
      ['no-reply'],
    );
    const none = await runCli(['--no-config'], { cwd: dir, env: ENV });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /give the URL of your agent/);
    const missing = await runCli(['--config', 'nope.json'], { cwd: dir, env: ENV });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read the config file nope\.json: it does not exist/);
  });

  test('a config found in the current folder that starts a command or writes files says so first, on stderr, even under --quiet, its secrets redacted', async () => {
    const token = 'sk-live-notice-123';
    const config = {
      url: agent.url,
      case: ['typed'],
      quiet: true,
      // Something already answers at the URL: the command is not run, but the notice names it all the same.
      start: `node agent.mjs ${token}`,
      reuseExisting: true,
      junit: '../outside.xml',
    };
    const dir = inFolder('notice', config);
    const found = await runCli([], { cwd: dir, env: { ...ENV, FLOW_FRAMEWORK_AGENT_TOKEN: token } });
    assert.equal(found.code, 0, found.stderr);
    assert.deepEqual(found.stderr.split('\n').slice(0, 3), [
      `config: ${join(dir, 'check-endpoint.config.json')} (found in the current folder) makes this run:`,
      '  start: node agent.mjs <redacted>',
      `  write: --junit ${join(dir, '..', 'outside.xml')}`,
    ]);
    assert.ok(!found.stderr.includes(token) && !found.stdout.includes(token));
    // Named by --config, the file is the user's choice: nothing more is said.
    writeFileSync(join(dir, 'named.json'), JSON.stringify(config));
    const named = await runCli(['--config', 'named.json'], { cwd: dir, env: { ...ENV, FLOW_FRAMEWORK_AGENT_TOKEN: token } });
    assert.equal(named.code, 0, named.stderr);
    assert.doesNotMatch(named.stderr, /found in the current folder/);
  });

  test('a found config that writes files: one `config:` line, the notice, not two that overlap', async () => {
    const dir = inFolder('one-line', { url: agent.url, case: ['typed'], junit: 'junit.xml' });
    const found = await runCli([], { cwd: dir, env: ENV });
    assert.equal(found.code, 0, found.stderr);
    const lines = `${found.stdout}\n${found.stderr}`.split('\n').filter((line) => line.startsWith('config: '));
    assert.deepEqual(lines, [`config: ${join(dir, 'check-endpoint.config.json')} (found in the current folder) makes this run:`]);
  });

  test('secrets only by variable name: headerEnv in the file, its value from the environment, never written', async () => {
    const dir = inFolder('secret', { url: gated.url, case: ['typed'], headerEnv: ['x-api-key=GATE_KEY'] });
    const result = await runCli(['--json'], { cwd: dir, env: { ...ENV, GATE_KEY: 'key-from-env' } });
    assert.equal(result.code, 0, result.stdout);
    assert.ok(!result.stdout.includes('key-from-env'));
    const token = inFolder('token', { url: agent.url, token: 'abc' });
    const refused = await runCli([], { cwd: token, env: ENV });
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /check-endpoint\.config\.json: "token": a config file holds no secret; name the variable that holds it: "tokenEnv"/,
    );
    assert.ok(!refused.stderr.includes('abc'));
  });

  test('an unknown key, a wrong type and a file that is not JSON are exit 2, naming the file and the key', async () => {
    const cases: [unknown, RegExp][] = [
      [{ url: agent.url, chanel: 'sms' }, /check-endpoint\.config\.json: unknown key "chanel"; did you mean "channel"\?/],
      [{ url: agent.url, 'agent-timeout': 5 }, /unknown key "agent-timeout"; did you mean "agentTimeout"\?/],
      [{ url: agent.url, agentTimeout: '5' }, /"agentTimeout" takes a number \(SECONDS\) \(as --agent-timeout does\); got "5"/],
      [{ url: agent.url, case: ['typd'] }, /"case": "typd" is not one of typed, .*; did you mean typed\?/],
      [{ url: agent.url, strict: 'yes' }, /"strict" takes true or false/],
      // "cases" holds the cases' settings; a list of case ids there is the natural guess for "case".
      [
        { url: agent.url, cases: ['typed'] },
        /"cases" takes the cases' own settings by case id, not the cases to play; to choose cases, write "case": \["typed"\]/,
      ],
      [['sms'], /must hold one JSON object/],
      ['{"url": ', /check-endpoint\.config\.json is not JSON: /],
    ];
    for (const [config, message] of cases) {
      const result = await runCli(['--json'], { cwd: inFolder('bad', config), env: ENV });
      assert.equal(result.code, 2, JSON.stringify(config));
      assert.match(result.stderr, message);
      assert.equal((JSON.parse(result.stdout) as { outcome: string }).outcome, 'error', '--json still prints one document');
    }
  });
});

describe('the config file, read against the option table', () => {
  test('every flag of the check but help, version and --config is a key, in camelCase', () => {
    const flags = OPTION_NAMES.filter((name) => optionSpec(name).commands.includes('check') && !isActionFlag(name) && name !== 'config');
    assert.deepEqual(CONFIG_FLAGS, flags);
    assert.ok(CONFIG_FLAGS.map(configKey).includes('headerEnv') && CONFIG_FLAGS.map(configKey).includes('agentTimeout'));
  });

  test("the values are the flags' as parsed: a list from a string or a list, dotenv false, numbers and booleans", () => {
    const values = configValues({ channel: 'all', header: ['a: b'], dotenv: false, runs: 3, quality: true }, 'c.json');
    const line = parseCommandLine(['http://127.0.0.1:1/agent', '--channel', 'sms'], () => values);
    assert.ok(line.command === 'check');
    assert.deepEqual(
      { channel: line.args.channel, header: line.args.header, dotenv: line.args.dotenv, runs: line.args.runs, quality: line.args.quality },
      { channel: ['sms'], header: ['a: b'], dotenv: false, runs: 3, quality: true },
    );
    assert.throws(() => parseCommandLine([], () => values), UsageError, 'no URL in the file nor on the line');
  });
});

describe('spec/config.schema.json', () => {
  test('is the schema written from the option table (node --import tsx scripts/write-config-schema.ts writes it)', () => {
    assert.deepEqual(SHIPPED, configSchema());
  });

  test('takes a full config, and refuses an unknown key and a wrong type as the command does', () => {
    const validate = createAjv().compile(SHIPPED);
    const full = {
      $schema: './node_modules/check-endpoint/spec/config.schema.json',
      url: 'http://127.0.0.1:8080/agent',
      channel: ['whatsapp', 'sms'],
      case: 'typed',
      agentTimeout: 30,
      headerEnv: ['x-api-key=API_KEY'],
      start: 'npm run start:agent',
      dotenv: false,
      reportDir: 'reports',
      maxFailures: 3,
    };
    assert.ok(validate(full), JSON.stringify(validate.errors));
    assert.doesNotThrow(() => configValues(full, 'c.json'));
    assert.equal(validate({ ...full, chanel: 'sms' }), false);
    assert.equal(validate({ ...full, agentTimeout: '30' }), false);
    assert.equal(validate({ ...full, case: ['typd'] }), false);
    assert.equal(validate({ ...full, token: 'x' }), false);
  });
});
