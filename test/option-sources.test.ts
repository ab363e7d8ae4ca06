/**
 * Options from the descriptor table, resolved once: an error names where its value came from (the
 * flag, the config file's key, the library's field); keys inherited through the prototype are
 * refused; the cases' own settings of any JSON type (`caseSettings`, `"cases"`, `--case-setting`)
 * and leaving any case out (`skipCases`, `--skip-case`).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FLAG_NAMES } from '../src/cli/options.js';
import { caseSettingsOf } from '../src/commands/case-setting-flag.js';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { OptionError, checkEndpoint, defineCase } from '../src/index.js';
import { runCli } from './helpers.js';

const UNREACHABLE = 'http://127.0.0.1:1/agent';
const ENV = { FLOW_FRAMEWORK_AGENT_TOKEN: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined };

async function refusal(options: unknown): Promise<Error> {
  try {
    await checkEndpoint(UNREACHABLE, options as Parameters<typeof checkEndpoint>[1]);
  } catch (cause) {
    assert.ok(cause instanceof Error, String(cause));
    return cause;
  }
  assert.fail(`${JSON.stringify(options)} was taken`);
}

let dir: string;
let agent: RunningAgent;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'check-endpoint-sources-'));
  agent = await startReferenceAgent();
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await agent.close();
});

function withConfig(name: string, config: unknown): string {
  const folder = join(dir, name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder);
  writeFileSync(join(folder, 'check-endpoint.config.json'), JSON.stringify(config));
  return folder;
}

describe('an error names where the value came from', () => {
  test('the config file: its path and key, not a flag never given', async () => {
    const folder = withConfig('timeout', { url: UNREACHABLE, agentTimeout: -5 });
    const result = await runCli(['--json'], { cwd: folder, env: ENV });
    assert.equal(result.code, 2);
    const said = 'check-endpoint.config.json: "agentTimeout" must be a positive number; got -5';
    assert.match(result.stderr, new RegExp(`^check-endpoint: ${said.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`));
    assert.equal((JSON.parse(result.stdout) as { error: { message: string } }).error.message, said);
    assert.doesNotMatch(result.stderr, /--agent-timeout/);
  });

  test('the flag, when the command line gave it over the config file', async () => {
    const folder = withConfig('both', { url: UNREACHABLE, runs: 500 });
    const result = await runCli(['--runs', '0'], { cwd: folder, env: ENV });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^check-endpoint: --runs must be a whole number from 1 to 100; got 0\n/);
    const fromFile = await runCli([], { cwd: folder, env: ENV });
    assert.match(fromFile.stderr, /^check-endpoint: check-endpoint\.config\.json: "runs" must be a whole number from 1 to 100; got 500\n/);
  });

  test('the library: the option field', async () => {
    const cause = await refusal({ agentTimeoutSeconds: -5 });
    assert.ok(cause instanceof OptionError);
    assert.equal(cause.message, 'agentTimeoutSeconds must be a positive number; got -5');
  });
});

describe('only own keys count', () => {
  test('an option inherited through the prototype is refused like an unknown key', async () => {
    const cause = await refusal(Object.create({ tokenEnv: 'X' }) as unknown);
    assert.ok(cause instanceof TypeError);
    assert.match(cause.message, /^"tokenEnv" is inherited through the options' prototype/);
    const token = await refusal(Object.create({ token: 'x' }) as unknown);
    assert.match(token.message, /^"token" is inherited/);
  });
});

describe("the cases' own settings", () => {
  test('--case-setting ID.NAME=VALUE: VALUE as JSON when it parses, else a string', () => {
    assert.deepEqual(caseSettingsOf(['quality/latency.budgetMs=2000', 'acme/x.words=["a",1]', 'acme/x.name=hello', 'acme/x.flag=true']), {
      'quality/latency': { budgetMs: 2000 },
      'acme/x': { words: ['a', 1], name: 'hello', flag: true },
    });
  });

  test('a value the declaration does not take: an OptionError naming the case and the setting, in the words of each source', async () => {
    const cause = await refusal({ caseSettings: { 'quality/latency': { budgetMs: -1 } } });
    assert.ok(cause instanceof OptionError);
    assert.equal(cause.message, 'caseSettings: quality/latency.budgetMs must be a positive number; got -1');
    assert.equal(cause.messageFor(FLAG_NAMES), '--case-setting: quality/latency.budgetMs must be a positive number; got -1');
    const flag = await runCli([UNREACHABLE, '--case-setting', 'quality/latency.budgetMs="fast"'], { env: ENV });
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /^check-endpoint: --case-setting: quality\/latency\.budgetMs must be a number; got "fast"\n/);
    const folder = withConfig('cases', { url: UNREACHABLE, cases: { 'quality/concurrency': { conversations: 2.5 } } });
    const file = await runCli([], { cwd: folder, env: ENV });
    assert.match(
      file.stderr,
      /^check-endpoint: check-endpoint\.config\.json: "cases": quality\/concurrency\.conversations must be a positive whole number; got 2\.5\n/,
    );
    const form = await runCli([UNREACHABLE, '--case-setting', 'budgetMs=3'], { env: ENV });
    assert.match(form.stderr, /--case-setting needs ID\.NAME=VALUE/);
  });

  test('an unknown case or setting, with the one meant', async () => {
    const id = await refusal({ caseSettings: { 'quality/latncy': { budgetMs: 5 } } });
    assert.match(id.message, /^caseSettings: "quality\/latncy" is not a case; did you mean quality\/latency\?/);
    const name = await refusal({ caseSettings: { 'quality/latency': { budgetMS: 5 } } });
    assert.match(
      name.message,
      /^caseSettings: quality\/latency has no setting "budgetMS"; did you mean budgetMs\? \(its settings: budgetMs\)/,
    );
  });

  test('a setting of any JSON type, declared by a case of your own, read in run', async () => {
    const seen: unknown[] = [];
    const greeter = defineCase({
      id: 'acme/greeter',
      description: 'Says the greetings it is given.',
      settings: { greetings: { description: 'What to say', default: ['hi'] } },
      async run(context) {
        const greetings = context.setting<string[]>('greetings');
        seen.push(greetings);
        for (const text of greetings) await context.send({ text });
      },
    });
    const report = await checkEndpoint(agent.url, {
      scenarios: [greeter],
      cases: ['acme/greeter'],
      caseSettings: { 'acme/greeter': { greetings: ['hello', 'good morning'] } },
    });
    assert.equal(report.outcome, 'passed', JSON.stringify(report.cases[0]?.findings));
    assert.deepEqual(seen, [['hello', 'good morning']]);
    assert.equal(report.cases[0]?.plays[0]?.turns.length, 2);
    const wrong = await refusal({ scenarios: [greeter], caseSettings: { 'acme/greeter': { greetings: 'hi' } } });
    assert.equal(wrong.message, 'caseSettings: acme/greeter.greetings must be a list; got "hi"');
  });
});

describe('any case can be left out', () => {
  test('skipCases leaves out a fixed case and a quality case; --skip-case too', async () => {
    const report = await checkEndpoint(agent.url, { cases: ['typed', 'photo', 'no-reply'], skipCases: ['photo'] });
    assert.deepEqual(
      report.cases.map((played) => played.id),
      ['typed', 'no-reply'],
    );
    const result = await runCli([agent.url, '--skip-case', 'double-text', '--skip-case', 'photo', '--json'], { env: ENV });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      (JSON.parse(result.stdout) as { cases: { id: string }[] }).cases.map((played) => played.id),
      ['typed', 'button-tap', 'no-reply'],
    );
  });

  test('an unknown id, with the did-you-mean', async () => {
    const cause = await refusal({ skipCases: ['phto'] });
    assert.match(cause.message, /^skipCases: "phto" is not a case \(did you mean photo\?\)/);
    const result = await runCli([UNREACHABLE, '--skip-case', 'quality/latncy'], { env: ENV });
    assert.match(result.stderr, /^check-endpoint: --skip-case: "quality\/latncy" is not a case \(did you mean quality\/latency\?\)/);
  });
});
