/**
 * The last run's record (.check-endpoint/last-run.json), `--failed`, `check-endpoint show` and
 * `--max-failures`, through the built command, each in a folder of its own, against real agents
 * on loopback.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { RawResponse, type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { checkEndpoint } from '../src/run/check-endpoint.js';
import { recordedNote } from '../src/commands/record-run.js';
import { createAjv } from '../src/contract/ajv.js';
import type { AgentRequest } from '../src/core/request.js';
import { VALID_AGENTS } from '../fixtures/agents/catalogue.js';
import { CLI, ROOT, freePort, runCli } from './helpers.js';

const RECORD = '.check-endpoint/last-run.json';
const folders: string[] = [];

function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-last-run-'));
  folders.push(folder);
  return folder;
}

after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const ENV = { FLOW_FRAMEWORK_AGENT_TOKEN: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined };

function readRecord(folder: string): {
  outcome: string;
  cases: { case: string; channel: string; status: string; rules: string[] }[];
  stopped: { reason: string } | null;
} {
  return JSON.parse(readFileSync(join(folder, RECORD), 'utf8'));
}

const validateRecord = createAjv().compile(JSON.parse(readFileSync(join(ROOT, 'spec/last-run.schema.json'), 'utf8')));

const reference = VALID_AGENTS.find((candidate) => candidate.name === 'reference')!.handler;

/** An agent that answers as the reference agent does, but with status 500 to the messages `fails` picks; it keeps every message it got. */
async function agentFailing(fails: (request: AgentRequest) => boolean): Promise<RunningAgent & { received: AgentRequest[] }> {
  const received: AgentRequest[] = [];
  const running = await serveAgent((request, raw) => {
    received.push(request);
    if (fails(request)) return new RawResponse(500, '{"error":"broken"}', { 'content-type': 'application/json' });
    return reference(request, raw);
  });
  return { ...running, received };
}

describe('the last run record and --failed', () => {
  let agent: RunningAgent & { received: AgentRequest[] };
  let failPhotoOnSms = true;
  before(async () => {
    agent = await agentFailing((request) => failPhotoOnSms && request.channel === 'sms' && (request.message.attachments ?? []).length > 0);
  });
  after(() => agent.close());

  test('a run records every case and channel with its verdict, and says so once on stderr; nothing secret is in it', async () => {
    const folder = newFolder();
    const result = await runCli([agent.url, '--channel', 'whatsapp', '--channel', 'sms', '--header-env', 'x-api-key=API_KEY'], {
      cwd: folder,
      env: { ...ENV, API_KEY: 'sekrit-value-123' },
    });
    assert.equal(result.code, 1, result.stdout);
    const lines = result.stderr.split('\n').filter(Boolean);
    // Run as `node <path>/bin/check-endpoint.cjs` from another folder, the command names itself so.
    assert.deepEqual(lines, [`recorded in ${RECORD}: node ${CLI} show prints it, --failed plays again what did not pass`]);
    const text = readFileSync(join(folder, RECORD), 'utf8');
    assert.ok(validateRecord(JSON.parse(text)), JSON.stringify(validateRecord.errors));
    assert.ok(!text.includes('sekrit-value-123'), 'no secret header value');
    assert.ok(!text.includes('"request"') && !text.includes('"answer"') && !text.includes('curl'), 'no body, no reproduce line');
    const record = readRecord(folder);
    assert.equal(record.cases.length, 10);
    const failed = record.cases.filter((recorded) => recorded.status !== 'passed');
    assert.deepEqual(
      failed.map((recorded) => [recorded.channel, recorded.case, recorded.rules]),
      [['sms', 'photo', ['status']]],
    );
    assert.equal(readFileSync(join(folder, '.check-endpoint/.gitignore'), 'utf8'), '*\n');
    assert.deepEqual(
      readdirSync(join(folder, '.check-endpoint')).filter((name) => name.endsWith('.tmp')),
      [],
      'no temporary file is left',
    );

    // --failed plays exactly that pair: one message, the photo on sms.
    const before = agent.received.length;
    // The record's --header-env is given again (a record never chooses the secrets sent), its variable set as the first time.
    const withKey = { ...ENV, API_KEY: 'sekrit-value-123' };
    const headerEnv = ['--header-env', 'x-api-key=API_KEY'];
    const again = await runCli([agent.url, '--failed', '--json', ...headerEnv], { cwd: folder, env: withKey });
    assert.equal(again.code, 1);
    const report = JSON.parse(again.stdout) as { cases: { id: string; channel: string; status: string }[] };
    assert.deepEqual(
      report.cases.map((played) => [played.channel, played.id, played.status]),
      [['sms', 'photo', 'failed']],
    );
    assert.deepEqual(
      agent.received.slice(before).map((request) => [request.channel, request.conversationId.split('.')[1]]),
      [['sms', 'photo']],
    );
    assert.match(again.stderr, /--failed: playing 1 of 10 cases of the last run \(.*\): sms\/photo/);
    // The record keeps the whole run: the 9 cases --failed did not play, as the first run left them (pytest merges its lastfailed so).
    assert.match(
      again.stderr,
      /^recorded in \.check-endpoint\/last-run\.json \(with the 9 cases this run did not play, as played \d{4}-[^)]+ UTC\): /m,
    );
    const merged = JSON.parse(readFileSync(join(folder, RECORD), 'utf8')) as {
      finishedAt: string;
      counts: { cases: number; passed: number; failed: number };
      channels: { name: string }[];
      cases: { case: string; channel: string; status: string; playedAt: string }[];
    };
    assert.ok(validateRecord(merged), JSON.stringify(validateRecord.errors));
    assert.equal(merged.cases.length, 10);
    assert.deepEqual(merged.counts, { ...merged.counts, cases: 10, passed: 9, failed: 1 });
    assert.deepEqual(
      merged.channels.map((channel) => channel.name),
      ['whatsapp', 'sms'],
    );
    assert.deepEqual(
      merged.cases.filter((recorded) => recorded.playedAt === merged.finishedAt).map((recorded) => `${recorded.channel}/${recorded.case}`),
      ['sms/photo'],
    );

    // show prints the whole run, the failure and the case played again marked, without sending anything.
    const sent = agent.received.length;
    const shown = await runCli(['show'], { cwd: folder, env: ENV });
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(agent.received.length, sent, 'show sends nothing');
    assert.match(shown.stdout, /^last run: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC · http:\/\/127\.0\.0\.1:\d+\/agent/);
    assert.match(shown.stdout, /\nchannels: whatsapp, sms\n/);
    assert.match(
      shown.stdout,
      /\nplayed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: 1 of 10 cases \(marked "played again" below\); the other 9 as played \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\n/,
    );
    // The digest first, each problem once with its fix, then the case naming it by number.
    assert.match(shown.stdout, /\n1 problem fails 1 of 10 cases\.\n\nproblem 1 {2}✗ status {2}\(body\) {2}expected status 200, got 500/);
    assert.match(shown.stdout, /\n {6}hint: The agent failed while answering[^\n]*\n {6}in 1 case: photo on sms\n/);
    assert.match(shown.stdout, /\nFAIL {2}photo {2}sms {2}problem 1 {2}\(played again\)\n/);
    assert.match(shown.stdout, /\n9 of 10 cases passed\.\n/);
    assert.match(shown.stdout, /--failed plays the case that did not pass again\./);
    const shownJson = await runCli(['show', '--json'], { cwd: folder, env: ENV });
    assert.deepEqual(JSON.parse(shownJson.stdout), JSON.parse(readFileSync(join(folder, RECORD), 'utf8')));

    // Fixed: --failed passes, and the next --failed has nothing to rerun: it says so, sends nothing, exits 0.
    failPhotoOnSms = false;
    try {
      const fixed = await runCli([agent.url, '--failed', ...headerEnv], { cwd: folder, env: withKey });
      assert.equal(fixed.code, 0, fixed.stdout);
      assert.match(fixed.stdout, /\n1 of 1 case passed\.\n/);
      const after = await runCli(['show'], { cwd: folder, env: ENV });
      assert.match(after.stdout, /\nPASS {2}sms\/photo {2}\(played again\)\n/);
      assert.match(after.stdout, /\n10 of 10 cases passed\.\n/);
      const nothing = agent.received.length;
      const none = await runCli([agent.url, '--failed', ...headerEnv], { cwd: folder, env: withKey });
      assert.equal(none.code, 0);
      assert.match(none.stdout, /^--failed: nothing to rerun: every case of the last run \(.*\) passed\n$/);
      assert.equal(agent.received.length, nothing, 'nothing is sent');
    } finally {
      failPhotoOnSms = true;
    }
  });

  test('--failed replays the cases not run too, narrowed by the --channel given', async () => {
    const folder = newFolder();
    const first = await runCli([agent.url, '--channel', 'sms', '--channel', 'web', '--max-failures', '1', '--concurrency', '1'], {
      cwd: folder,
      env: ENV,
    });
    assert.equal(first.code, 1, first.stdout);
    const record = readRecord(folder);
    assert.deepEqual(
      record.cases.map((recorded) => `${recorded.channel}/${recorded.case}:${recorded.status}`),
      [
        'sms/typed:passed',
        'sms/double-text:passed',
        'sms/photo:failed',
        'sms/button-tap:not-run',
        'sms/no-reply:not-run',
        'web/typed:not-run',
        'web/double-text:not-run',
        'web/photo:not-run',
        'web/button-tap:not-run',
        'web/no-reply:not-run',
      ],
    );
    const web = await runCli([agent.url, '--failed', '--channel', 'web', '--json'], { cwd: folder, env: ENV });
    assert.equal(web.code, 0, web.stderr);
    const report = JSON.parse(web.stdout) as { cases: { id: string; channel: string; status: string }[] };
    assert.deepEqual(
      report.cases.map((played) => `${played.channel}/${played.id}:${played.status}`),
      ['web/typed:passed', 'web/double-text:passed', 'web/photo:passed', 'web/button-tap:passed', 'web/no-reply:passed'],
    );
  });

  test('--failed while the agent is down keeps the record of the failing run, says so, and the next --failed still plays what failed', async () => {
    const folder = newFolder();
    const failing = await runCli([agent.url, '--channel', 'sms'], { cwd: folder, env: ENV });
    assert.equal(failing.code, 1, failing.stdout);
    const before = readFileSync(join(folder, RECORD), 'utf8');
    const down = `http://127.0.0.1:${await freePort()}/agent`;
    const unreached = await runCli([down, '--failed', '--other-target'], { cwd: folder, env: ENV });
    assert.equal(unreached.code, 2, unreached.stdout + unreached.stderr);
    assert.match(
      unreached.stderr,
      /not recorded: this run played no case, so \.check-endpoint\/last-run\.json keeps the run of \S+ \(5 cases\)/,
    );
    assert.equal(readFileSync(join(folder, RECORD), 'utf8'), before);
    const again = await runCli([agent.url, '--failed', '--json'], { cwd: folder, env: ENV });
    const report = JSON.parse(again.stdout) as { cases: { id: string; channel: string }[] };
    assert.deepEqual(
      report.cases.map((played) => `${played.channel}/${played.id}`),
      ['sms/photo'],
    );
  });

  test('--failed with no record, or an unreadable one, is exit 2 naming the file', async () => {
    const folder = newFolder();
    const none = await runCli([agent.url, '--failed'], { cwd: folder, env: ENV });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no run is recorded in this folder \(\.check-endpoint\/last-run\.json does not exist\)/);
    assert.equal(existsSync(join(folder, RECORD)), false, 'a run that did not get past its flags records nothing');
    const show = await runCli(['show'], { cwd: folder, env: ENV });
    assert.equal(show.code, 2);
    assert.match(show.stderr, /no run is recorded in this folder/);
    mkdirSync(join(folder, '.check-endpoint'));
    writeFileSync(join(folder, RECORD), '{"version":1,"cases":"cut');
    const cut = await runCli(['show'], { cwd: folder, env: ENV });
    assert.equal(cut.code, 2);
    assert.match(cut.stderr, /\.check-endpoint\/last-run\.json is not JSON: .*; run the check again to record a run anew/);
    writeFileSync(join(folder, RECORD), '{"version":7}');
    const other = await runCli([agent.url, '--failed'], { cwd: folder, env: ENV });
    assert.equal(other.code, 2);
    assert.match(other.stderr, /is of record format 7, written by another version of check-endpoint \(this one reads format 1\)/);
    writeFileSync(join(folder, RECORD), '{"version":1,"cases":[]}');
    const wrong = await runCli(['show'], { cwd: folder, env: ENV });
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /is not a record of a run \(its schema: `node \S+ spec last-run`\)/);
  });

  test('a record is never the source of a command: "start" (or any flag a record does not keep) in its flags is refused, exit 2, nothing run', async () => {
    const folder = newFolder();
    const failing = await runCli([agent.url, '--channel', 'sms'], { cwd: folder, env: ENV });
    assert.equal(failing.code, 1, failing.stdout);
    const record = JSON.parse(readFileSync(join(folder, RECORD), 'utf8')) as { flags?: Record<string, unknown> };
    const proof = join(folder, 'started');
    const command = `${JSON.stringify(process.execPath)} -e "require('fs').writeFileSync(${JSON.stringify(JSON.stringify(proof))}, 'x')"`;
    for (const [key, value] of [
      ['start', command],
      ['reportDir', join(folder, 'elsewhere')],
    ] as const) {
      writeFileSync(join(folder, RECORD), JSON.stringify({ ...record, flags: { ...record.flags, [key]: value } }));
      // A port no agent holds, so that a --start taken from the record would be run.
      const down = `http://127.0.0.1:${await freePort()}/agent`;
      const again = await runCli([down, '--failed', '--other-target'], { cwd: folder, env: ENV });
      assert.equal(again.code, 2, again.stdout + again.stderr);
      assert.match(
        again.stderr,
        new RegExp(
          `\\.check-endpoint/last-run\\.json: "${key}" is not a flag a run's record keeps \\(it keeps [^)]*\\); a record never starts a command or names where to write: ` +
            `give --\\S+ on the command line or in the config file, and run the check again to record a run anew`,
        ),
      );
    }
    assert.equal(existsSync(proof), false, 'the command in the record did not run');
    assert.equal(existsSync(join(folder, 'elsewhere')), false);
  });
});

describe('--max-failures', () => {
  let agent: RunningAgent & { received: AgentRequest[] };
  before(async () => {
    agent = await agentFailing(() => true);
  });
  after(() => agent.close());

  test('--max-failures 1 against an agent that fails everything: one case fails, nothing more is sent, the rest are not run', async () => {
    const folder = newFolder();
    const result = await runCli([agent.url, '--max-failures', '1', '--concurrency', '1', '--json'], { cwd: folder, env: ENV });
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as {
      outcome: string;
      stopped: { reason: string; message: string };
      counts: { cases: number; passed: number; failed: number; notRun: number };
      cases: { id: string; status: string; passed: boolean }[];
    };
    assert.equal(agent.received.length, 1, 'one message sent: the first case, which failed');
    assert.equal(report.outcome, 'failed');
    assert.deepEqual(report.stopped, {
      reason: 'max-failures',
      message: 'the run stopped at --max-failures 1 (1 case failed, 4 cases not played)',
    });
    assert.deepEqual(report.counts, { ...report.counts, cases: 5, passed: 0, failed: 1, notRun: 4 });
    assert.deepEqual(
      report.cases.map((played) => [played.id, played.status, played.passed]),
      [
        ['typed', 'failed', false],
        ['double-text', 'not-run', false],
        ['photo', 'not-run', false],
        ['button-tap', 'not-run', false],
        ['no-reply', 'not-run', false],
      ],
    );
    assert.match(result.stderr, /\nNOT RUN {2}4 cases: whatsapp\/double-text, whatsapp\/photo, whatsapp\/button-tap, whatsapp\/no-reply\n/);
    assert.match(
      result.stderr,
      /\n0 of 5 cases passed\.\n1 of 5 cases finished before the run stopped at --max-failures 1 \(1 case failed, 4 cases not played\)\.\n/,
    );
  });

  test('a case in flight when the limit is reached sends no next turn', async () => {
    agent.received.length = 0;
    const folder = newFolder();
    // All five at once: each sends its first message; double-text and button-tap would send a second.
    const result = await runCli([agent.url, '--max-failures', '1', '--json'], { cwd: folder, env: ENV });
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as {
      cases: { id: string; status: string }[];
      counts: { failed: number; notRun: number };
      stopped: { message: string };
    };
    assert.ok(report.cases.some((played) => played.status === 'failed'));
    // The cases in flight finish: the stop gives the real counts, however many failed.
    const count = (n: number): string => (n === 1 ? '1 case' : `${n} cases`);
    assert.equal(
      report.stopped.message,
      `the run stopped at --max-failures 1 (${count(report.counts.failed)} failed, ${count(report.counts.notRun)} not played)`,
    );
    const conversations = agent.received.map((request) => request.conversationId);
    assert.deepEqual(conversations, [...new Set(conversations)], 'no conversation got a second message');
  });

  test('--max-failures must be a whole number, 1 or more', async () => {
    for (const value of ['0', '1.5', '-1']) {
      const result = await runCli([agent.url, '--max-failures', value], { cwd: newFolder(), env: ENV });
      assert.equal(result.code, 2, value);
      assert.match(result.stderr, /--max-failures must be a positive whole number/);
    }
  });
});

test('the library writes no record: checkEndpoint leaves the current folder as it was', async () => {
  const agent = await startReferenceAgent();
  const folder = newFolder();
  const cwd = process.cwd();
  process.chdir(folder);
  try {
    const report = await checkEndpoint(agent.url, { cases: ['typed'] });
    assert.equal(report.outcome, 'passed');
    assert.deepEqual(readdirSync(folder), []);
  } finally {
    process.chdir(cwd);
    await agent.close();
  }
});

test('the recorded line promises --failed only where it can play: not after a run that could not run; with the URL again after one with a query', async () => {
  const folder = newFolder();
  const unreachable = await runCli(['http://127.0.0.1:9/agent'], { cwd: folder, env: ENV });
  assert.equal(unreachable.code, 2);
  assert.match(
    unreachable.stderr,
    new RegExp(
      `^recorded in ${RECORD.replace(/\./g, '\\.')}: node \\S+ show prints it \\(the check could not run: --failed has nothing to play again\\)$`,
      'm',
    ),
  );
  const refused = await runCli(['--failed'], { cwd: folder, env: ENV });
  assert.equal(refused.code, 2, 'as the line says: nothing to play again');
  assert.equal(
    recordedNote({ outcome: 'failed', target: 'http://127.0.0.1:8080/agent?key=<redacted>' }, 'check-endpoint'),
    "check-endpoint show prints it, check-endpoint URL --failed plays again what did not pass (the URL again: its query's values are not recorded)",
  );
  assert.equal(
    recordedNote({ outcome: 'passed', target: 'http://127.0.0.1:8080/agent' }, 'check-endpoint'),
    'check-endpoint show prints it, --failed plays again what did not pass',
  );
});

test('show escapes control characters and line breaks from the record: no line it prints is a workflow command', async () => {
  const folder = newFolder();
  const injected = 'x\n::error title=pwned::injected\u001b[2K';
  const record = {
    version: 1,
    tool: { name: 'check-endpoint', version: `1${injected}` },
    target: `http://127.0.0.1:9/agent${injected}`,
    finishedAt: `2026-12-04T10:00:00Z${injected}`,
    outcome: 'failed',
    exitCode: 1,
    error: null,
    stopped: { reason: 'max-failures', message: `the run stopped${injected}` },
    runs: 1,
    channels: [{ name: `sms${injected}`, title: null, limits: 'none' }],
    counts: { cases: 2, passed: 0, failed: 1, notRun: 1, errors: 1, warnings: 0 },
    cases: [
      {
        case: `typed${injected}`,
        channel: `sms${injected}`,
        status: 'failed',
        label: 'failing',
        expected: false,
        runs: 1,
        passedRuns: 0,
        turns: 1,
        rules: ['status'],
        findings: [{ rule: 'status', severity: 'error', path: `/a${injected}`, message: `m${injected}`, hint: `h${injected}`, turn: 0 }],
      },
      {
        ...{ case: `photo${injected}`, channel: `sms${injected}`, status: 'not-run', label: 'not-run', expected: false },
        runs: 1,
        passedRuns: 0,
        turns: 0,
        rules: [],
        findings: [],
      },
    ],
  };
  // A hand-edited record: of the right types, which is all show reads, though no run writes such values.
  mkdirSync(join(folder, '.check-endpoint'));
  writeFileSync(join(folder, RECORD), JSON.stringify(record));
  const shown = await runCli(['show'], { cwd: folder, env: ENV });
  assert.equal(shown.code, 0, shown.stderr);
  assert.doesNotMatch(shown.stdout, /^::/m, 'no line the CI runner would read as a workflow command');
  assert.doesNotMatch(shown.stdout, /\u001b/, 'no escape sequence from the record');
  // Every field that carried the line break is shown, escaped (the case and channel twice: the problem's places, the case line).
  assert.equal(shown.stdout.split('x\\u000a::error title=pwned::injected\\u001b[2K').length - 1, 15, shown.stdout);
});

describe('--failed takes the URL and the flags from the record', () => {
  /** Fails the photo on sms; keeps each message's channel, case and x-team header. */
  let agent: RunningAgent;
  const seen: string[] = [];
  before(async () => {
    agent = await serveAgent((request, raw) => {
      seen.push(`${request.channel}/${request.conversationId.split('.')[1]} x-team=${String(raw.headers['x-team'])}`);
      if (request.channel === 'sms' && (request.message.attachments ?? []).length > 0)
        return new RawResponse(500, '{"error":"broken"}', { 'content-type': 'application/json' });
      return reference(request, raw);
    });
  });
  after(() => agent.close());

  test('check-endpoint --failed with no URL plays the failed cases against the recorded target, with its flags', async () => {
    const folder = newFolder();
    const first = await runCli([agent.url, '--channel', 'sms', '--header', 'x-team: blue', '--strict'], { cwd: folder, env: ENV });
    assert.equal(first.code, 1, first.stderr);
    const record = JSON.parse(readFileSync(join(folder, RECORD), 'utf8')) as { spec: unknown; flags: Record<string, unknown> };
    assert.ok(validateRecord(record), JSON.stringify(validateRecord.errors));
    assert.deepEqual(record.spec, { version: '1.0', source: 'bundled' });
    assert.deepEqual([record.flags.header, record.flags.strict], [['x-team: blue'], true]);

    seen.length = 0;
    const again = await runCli(['--failed', '--json'], { cwd: folder, env: ENV });
    assert.equal(again.code, 1, again.stderr);
    assert.deepEqual(seen, ['sms/photo x-team=blue'], 'the recorded case, with the recorded header');
    const report = JSON.parse(again.stdout) as { target: string; cases: { id: string; channel: string }[] };
    assert.equal(report.target, agent.url);
    assert.deepEqual(
      report.cases.map((played) => `${played.channel}/${played.id}`),
      ['sms/photo'],
    );
    assert.match(
      again.stderr,
      new RegExp(`--failed: playing 1 of 5 cases of the last run \\(.*\\) of ${agent.url} \\(contract 1\\.0, bundled\\): sms/photo`),
    );

    // A flag given wins over the record's: the header sent is the one given now.
    seen.length = 0;
    await runCli(['--failed', '--header', 'x-team: red'], { cwd: folder, env: ENV });
    assert.deepEqual(seen, ['sms/photo x-team=red']);
  });

  test('another URL is refused, naming the one the record was made for and its contract; --other-target plays there', async () => {
    const folder = newFolder();
    await runCli([agent.url, '--channel', 'sms'], { cwd: folder, env: ENV });
    const other = agent.url.replace('127.0.0.1', 'localhost');
    seen.length = 0;
    const refused = await runCli([other, '--failed'], { cwd: folder, env: ENV });
    assert.equal(refused.code, 2);
    assert.deepEqual(seen, [], 'nothing is sent');
    assert.match(
      refused.stderr,
      new RegExp(
        `--failed: the last run \\(.*\\) checked ${agent.url} \\(contract 1\\.0, bundled\\), not ${other}\\. Leave the URL out .* or add --other-target`,
      ),
    );
    const played = await runCli([other, '--failed', '--other-target'], { cwd: folder, env: ENV });
    assert.equal(played.code, 1, played.stderr);
    assert.deepEqual(seen, ['sms/photo x-team=undefined']);
    assert.match(played.stdout, new RegExp(`of ${agent.url} \\(contract 1\\.0, bundled\\), against ${other} \\(--other-target\\)`));
  });

  test('a URL with a query: the record keeps its values redacted, so --failed asks for the URL and takes one whose redacted form matches', async () => {
    const folder = newFolder();
    await runCli([`${agent.url}?code=first-SECRET`, '--channel', 'sms'], { cwd: folder, env: ENV });
    assert.ok(!readFileSync(join(folder, RECORD), 'utf8').includes('first-SECRET'), 'no query value in the record');
    const none = await runCli(['--failed'], { cwd: folder, env: ENV });
    assert.equal(none.code, 2);
    assert.match(
      none.stderr,
      /--failed: \.check-endpoint\/last-run\.json keeps the last run's URL without its query's values; give the URL/,
    );
    seen.length = 0;
    const given = await runCli([`${agent.url}?code=rotated-SECRET`, '--failed'], { cwd: folder, env: ENV });
    assert.equal(given.code, 1, given.stderr);
    assert.deepEqual(seen, ['sms/photo x-team=undefined']);
    assert.ok(!given.stdout.includes('rotated-SECRET') && !given.stderr.includes('rotated-SECRET'));
  });
});

describe('a record never chooses where the token goes nor which secrets are sent', () => {
  // .check-endpoint/last-run.json is data a repository may carry: a hostile one named another host
  // (--failed with no URL sent the developer's token there) or another variable (--token-env
  // AWS_SECRET_ACCESS_KEY sent that one). Issue 52.
  const TOKEN = 'token-SECRET-41';
  const STOLEN = 'stolen-SECRET-7';
  const WITH_SECRETS = { ...ENV, FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN, STOLEN };
  let agent: RunningAgent;
  const bearers: string[] = [];
  /** A forward proxy that answers nothing but keeps every request it is sent (a CONNECT too) with its authorization header. */
  let proxy: Server;
  let proxyUrl = '';
  const proxied: string[] = [];
  before(async () => {
    agent = await serveAgent((request, raw) => {
      bearers.push(String(raw.headers.authorization ?? raw.headers['x-leak']));
      if (request.channel === 'sms' && (request.message.attachments ?? []).length > 0)
        return new RawResponse(500, '{"error":"broken"}', { 'content-type': 'application/json' });
      return reference(request, raw);
    });
    proxy = createServer((request, response) => {
      proxied.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
      response.writeHead(502).end();
    });
    proxy.on('connect', (request: IncomingMessage, socket: Duplex) => {
      proxied.push(`CONNECT ${request.url} ${request.headers.authorization ?? ''}`);
      socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  after(async () => {
    await agent.close();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  /** A folder whose record is a real run's on sms (the photo failed), rewritten by `change`. */
  async function recorded(change: (record: { target: string; flags?: Record<string, unknown> }) => object): Promise<string> {
    const folder = newFolder();
    const first = await runCli([agent.url, '--channel', 'sms'], { cwd: folder, env: WITH_SECRETS });
    assert.equal(first.code, 1, first.stdout + first.stderr);
    const record = JSON.parse(readFileSync(join(folder, RECORD), 'utf8')) as { target: string; flags?: Record<string, unknown> };
    writeFileSync(join(folder, RECORD), JSON.stringify(change(record)));
    return folder;
  }

  test("a recorded URL not on this machine: --failed with no URL sends nothing (not even to the proxy), exit 2 naming it and how to give it; the config file's own URL is taken", async () => {
    const elsewhere = 'http://agent.example.test/agent';
    const folder = await recorded((record) => ({ ...record, target: elsewhere }));
    const viaProxy = { ...WITH_SECRETS, http_proxy: proxyUrl, HTTP_PROXY: proxyUrl, no_proxy: undefined, NO_PROXY: undefined };
    proxied.length = 0;
    const refused = await runCli(['--failed'], { cwd: folder, env: viaProxy });
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.equal(proxied.length, 0, `nothing was sent to the recorded host: ${proxied.join('; ')}`);
    assert.ok(!(refused.stdout + refused.stderr).includes(TOKEN));
    assert.match(
      refused.stderr,
      new RegExp(
        `^check-endpoint: --failed: \\.check-endpoint/last-run\\.json says the last run checked http://agent\\.example\\.test/agent, which is not on this machine \\(localhost, 127\\.0\\.0\\.1, ::1\\) nor the config file's URL; ` +
          `a record is data a repository may carry, so it never chooses where the token is sent: to play its failed cases there, give the URL \\(\`node \\S+ 'http://agent\\.example\\.test/agent' --failed\`\\)$`,
        'm',
      ),
    );

    // The config file's URL is the developer's own: the record's, when it is that one, is played (here through the proxy).
    writeFileSync(join(folder, 'check-endpoint.config.json'), JSON.stringify({ url: elsewhere }));
    await runCli(['--failed'], { cwd: folder, env: viaProxy });
    assert.ok(
      proxied.some((line) => line.startsWith('HEAD http://agent.example.test/agent')),
      `the config file's URL is checked: ${proxied.join('; ')}`,
    );
  });

  test('a recorded URL on this machine that a proxy would carry off it, or a record git tracks: --failed with no URL sends nothing, exit 2 saying why; with the URL given, or NO_PROXY naming the host, it plays', async () => {
    const folder = await recorded((record) => record);
    const viaProxy = { ...WITH_SECRETS, http_proxy: undefined, HTTP_PROXY: proxyUrl, no_proxy: undefined, NO_PROXY: undefined };
    proxied.length = 0;
    bearers.length = 0;
    const refused = await runCli(['--failed'], { cwd: folder, env: viaProxy });
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.deepEqual([proxied, bearers], [[], []], 'nothing sent, to the proxy or the agent');
    assert.ok(
      refused.stderr.includes(
        `but a request to it goes through the proxy HTTP_PROXY names (NO_PROXY does not list its host), off this machine; it never chooses where the token is sent`,
      ),
      refused.stderr,
    );
    const bypassed = await runCli(['--failed'], { cwd: folder, env: { ...viaProxy, NO_PROXY: '127.0.0.1' } });
    assert.equal(bypassed.code, 1, bypassed.stderr);
    assert.deepEqual([proxied, bearers], [[], [`Bearer ${TOKEN}`]], 'played against the agent, straight');

    // A record git tracks came with the repository: a run writes it into a folder git ignores.
    const tracked = await recorded((record) => record);
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@127.0.0.1', ...args], { cwd: tracked, stdio: 'ignore' });
    git('init', '--quiet');
    git('add', '--force', RECORD);
    bearers.length = 0;
    const fromRepository = await runCli(['--failed'], { cwd: tracked, env: WITH_SECRETS });
    assert.equal(fromRepository.code, 2, fromRepository.stdout + fromRepository.stderr);
    assert.deepEqual(bearers, [], 'nothing sent');
    assert.match(
      fromRepository.stderr,
      /but git tracks it, so it came with the repository, not from a run on this machine; it never chooses where the token is sent/,
    );
    const given = await runCli([agent.url, '--failed'], { cwd: tracked, env: WITH_SECRETS });
    assert.equal(given.code, 1, given.stderr);
    assert.deepEqual(bearers, [`Bearer ${TOKEN}`], 'the URL given is played');
  });

  test('a record naming --token-env, --header-env, --dotenv or --insecure: --failed refuses, exit 2, nothing sent; given again on the command line or in the config file, they are used', async () => {
    for (const [key, value, words] of [
      ['tokenEnv', 'STOLEN', "--token-env 'STOLEN'"],
      ['headerEnv', ['x-leak=STOLEN'], "--header-env 'x-leak=STOLEN'"],
      ['dotenv', '../stolen.env', "--dotenv '../stolen.env'"],
      ['insecure', true, '--insecure'],
    ] as const) {
      const folder = await recorded((record) => ({ ...record, flags: { ...record.flags, [key]: value } }));
      bearers.length = 0;
      const refused = await runCli(['--failed'], { cwd: folder, env: WITH_SECRETS });
      assert.equal(refused.code, 2, `${key}: ${refused.stdout}${refused.stderr}`);
      assert.deepEqual(bearers, [], `${key}: nothing was sent`);
      assert.ok(!(refused.stdout + refused.stderr).includes(STOLEN), key);
      assert.ok(
        refused.stderr.includes(
          `--failed: .check-endpoint/last-run.json says the last run ran with ${words}, which choose the secrets a run sends; a record is data a repository may carry, ` +
            `so --failed never takes them from it: give it again on the command line (\`node ${CLI} --failed ${words}\`) or in the config file, or run the check without --failed`,
        ),
        `${key}: ${refused.stderr}`,
      );
    }

    // Given on the command line, or in the config file, the developer chose it: played, with that variable's value.
    const folder = await recorded((record) => ({ ...record, flags: { ...record.flags, tokenEnv: 'STOLEN' } }));
    bearers.length = 0;
    const given = await runCli(['--failed', '--token-env', 'STOLEN'], { cwd: folder, env: WITH_SECRETS });
    assert.equal(given.code, 1, given.stderr);
    assert.deepEqual(bearers, [`Bearer ${STOLEN}`], 'the photo, with the token given');
    const configured = await recorded((record) => ({ ...record, flags: { ...record.flags, tokenEnv: 'STOLEN' } }));
    writeFileSync(join(configured, 'check-endpoint.config.json'), JSON.stringify({ tokenEnv: 'STOLEN' }));
    bearers.length = 0;
    const fromConfig = await runCli(['--failed'], { cwd: configured, env: WITH_SECRETS });
    assert.equal(fromConfig.code, 1, fromConfig.stderr);
    assert.deepEqual(bearers, [`Bearer ${STOLEN}`]);
  });
});

describe("a cause's texts in the record", () => {
  test('quality/malformed failing on every body with a long error: the record keeps each cause and reads back', async () => {
    // A 500 whose body names many refused fields: the cause's summary quotes it, cut to what the record allows.
    const detail = Array.from({ length: 40 }, (_, index) => ({ loc: ['body', `field${index}`.repeat(20)], msg: 'é'.repeat(190) }));
    const agent = await serveAgent(() => new RawResponse(500, JSON.stringify({ detail }), { 'content-type': 'application/json' }));
    const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-cause-'));
    try {
      const result = await runCli([agent.url, '--case', 'quality/malformed', '--no-config'], { cwd: folder });
      assert.equal(result.code, 1, result.stderr);
      const record = JSON.parse(readFileSync(join(folder, '.check-endpoint/last-run.json'), 'utf8')) as {
        cases: { findings: { cause?: { summary: string } }[] }[];
      };
      const causes = record.cases.flatMap((c) => c.findings.flatMap((finding) => (finding.cause ? [finding.cause] : [])));
      assert.ok(causes.length > 0, 'the record keeps the causes');
      assert.ok(causes.every((cause) => Array.from(cause.summary).length <= 1000));
      const shown = await runCli(['show'], { cwd: folder });
      assert.doesNotMatch(shown.stderr, /is not a record/);
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /the agent failed on \d+ of \d+/);
    } finally {
      await agent.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
