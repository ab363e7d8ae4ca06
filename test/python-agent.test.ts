/**
 * The Python agent (fixtures/agents/python/agent.py, standard library only) is a port of the
 * reference agent by another hand: it must pass every case on every channel with no finding at
 * all, through the library and through the built command; like the reference agent it answers 400
 * to every request that breaks spec/request.schema.json, and 401 without its token.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { ROOT, runCli, runCommand } from './helpers.js';
import { malformedRequests } from './malformed-requests.js';
import type { MessageReply } from '../src/core/answer.js';
import type { Report } from '../src/core/report.js';
import { checkEndpoint } from '../src/run/check-endpoint.js';
import { CHANNELS, FIXED_CASE_IDS, IMAGE_CHANNELS } from './contract-ids.js';
import { EXTENDED_CASE_IDS } from '../src/cases/registry.js';

const AGENT = join(ROOT, 'fixtures/agents/python/agent.py');
const LISTENING = /^listening on (http:\/\/127\.0\.0\.1:(\d+)\/)$/;

/** Every finding of a report, with where it happened, for assertion messages. */
function findingsOf(report: Report): string[] {
  return report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}/${c.id} turn ${f.turn}: ${f.rule} ${f.severity}: ${f.message}`));
}

function assertClean(report: Report): void {
  assert.deepEqual(findingsOf(report), []);
  assert.equal(report.outcome, 'passed');
  assert.equal(report.exitCode, 0);
  assert.equal(report.error, null);
  const cases = CHANNELS.length * FIXED_CASE_IDS.length;
  assert.deepEqual(report.counts, { cases, passed: cases, failed: 0, notRun: 0, errors: 0, warnings: 0 });
  assert.equal(report.cases.length, cases);
  assert.deepEqual([...new Set(report.cases.map((c) => c.channel))], CHANNELS, "the contract's platforms");
  assert.ok(['whatsapp', 'sms', 'imessage', 'telegram', 'web'].every((channel) => CHANNELS.includes(channel)));
  for (const caseReport of report.cases) {
    assert.equal(caseReport.passed, true, `${caseReport.channel}/${caseReport.id}`);
    for (const turn of caseReport.turns) assert.equal(turn.status, 200, `${caseReport.channel}/${caseReport.id}`);
  }
}

/** Starts the Python agent for a suite, and stops it after: its URL and the lines it printed. */
function pythonAgent(args: string[] = [], env: NodeJS.ProcessEnv = process.env): { url: () => string; stdoutLines: string[] } {
  let agent: ChildProcess | undefined;
  let url = '';
  const stdoutLines: string[] = [];

  before(async () => {
    agent = spawn('python3', [AGENT, '--port', '0', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: agent.stdout! });
    const exited = once(agent, 'exit').then(([code]) => {
      throw new Error(`the Python agent exited (code ${code}) before it listened`);
    });
    const listening = new Promise<string>((resolve) => {
      lines.on('line', (line) => {
        stdoutLines.push(line);
        const match = LISTENING.exec(line);
        if (match) resolve(match[1]!);
      });
    });
    const failed = once(agent, 'error').then(([error]) => {
      throw error;
    });
    url = await Promise.race([listening, exited, failed]);
    exited.catch(() => {});
    failed.catch(() => {});
  });

  after(async () => {
    if (agent && agent.exitCode === null && agent.signalCode === null) {
      const exited = once(agent, 'exit');
      agent.kill('SIGTERM');
      await exited;
    }
  });
  return { url: () => url, stdoutLines };
}

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: response.status, body: JSON.parse(await response.text()) };
}

describe('the Python agent', () => {
  const served = pythonAgent();
  const { stdoutLines } = served;
  let url = '';
  before(() => {
    url = served.url();
  });

  test('prints exactly one line, its listening line, on an ephemeral loopback port', () => {
    assert.equal(stdoutLines.length, 1, stdoutLines.join('\n'));
    const port = Number(LISTENING.exec(stdoutLines[0]!)?.[2]);
    assert.ok(Number.isInteger(port) && port > 0 && port < 65536, `a port: ${port}`);
    assert.notEqual(port, 8080, 'port 0 picks a free port, not the default');
  });

  test('passes every case on every channel with no finding, through checkEndpoint', async () => {
    const report = await checkEndpoint(url, { channels: ['all'] });
    assertClean(report);
    assert.equal(report.target, url);

    const byCase = (channel: string, id: string) => report.cases.find((c) => c.channel === channel && c.id === id)!;
    const messages = (answer: unknown): MessageReply[] =>
      ((answer as { replies: { type: string }[] }).replies ?? []).filter((reply): reply is MessageReply => reply.type === 'message');

    // It offers buttons where the platform shows them, and the tap quotes and names its first one.
    for (const channel of ['whatsapp', 'telegram', 'web']) {
      const tap = byCase(channel, 'button-tap');
      const offered = messages(tap.turns[0]!.answer).find((reply) => reply.buttons?.length);
      assert.ok(offered, `${channel}: the first answer offers buttons`);
      const first = offered.buttons![0]!;
      const expected = typeof first === 'string' ? { id: first, title: first } : { id: first.id, title: first.label };
      assert.deepEqual(tap.turns[1]!.request.message.choice, expected, `${channel}: the tap names the first button`);
      assert.ok(
        messages(tap.turns[1]!.answer).some((reply) => reply.text?.includes(expected.title)),
        `${channel}: it answers the tap`,
      );
    }
    // Where there are no buttons it asks in words, and so the tap is a made-up one.
    for (const channel of ['sms', 'imessage']) {
      const tap = byCase(channel, 'button-tap');
      assert.ok(
        messages(tap.turns[0]!.answer).every((reply) => !reply.buttons && !reply.list),
        `${channel}: no buttons or list where the platform shows none`,
      );
      assert.equal(tap.turns[1]!.request.message.choice?.id, 'chk_option_1');
    }
    // replyTo only where the platform supports it; SMS ignores it, so the agent leaves it out.
    const smsReplies = report.cases.filter((c) => c.channel === 'sms').flatMap((c) => c.turns.flatMap((turn) => messages(turn.answer)));
    assert.ok(smsReplies.length >= 5, 'it answers on SMS');
    for (const reply of smsReplies) {
      assert.equal(reply.replyTo, undefined, 'no replyTo on SMS');
      assert.ok([...reply.text!].length < 160, `one SMS segment: ${reply.text}`);
    }
    assert.ok(
      report.cases
        .filter((c) => c.channel === 'whatsapp')
        .some((c) => c.turns.some((turn) => messages(turn.answer).some((r) => r.replyTo))),
      'it quotes the person with replyTo on WhatsApp',
    );
    // A photo gets words; "ok thanks 👍" gets nothing at all.
    for (const channel of CHANNELS) {
      assert.ok(
        messages(byCase(channel, 'photo').turns[0]!.answer).some((reply) => reply.text),
        `${channel}: the photo gets a text`,
      );
      assert.deepEqual(byCase(channel, 'no-reply').turns[0]!.answer, { replies: [] }, `${channel}: "ok thanks" gets no reply`);
    }
  });

  test('passes every case on every channel through the built command (--json)', async () => {
    const { code, stdout, stderr } = await runCli([url, '--channel', 'all', '--json']);
    assert.equal(code, 0, stderr);
    const report = JSON.parse(stdout) as Report;
    assertClean(report);
    assert.equal(report.target, url);
    assert.match(
      stderr,
      new RegExp(`^${CHANNELS.length * FIXED_CASE_IDS.length} of ${CHANNELS.length * FIXED_CASE_IDS.length} cases passed\\.$`, 'm'),
      'the human lines go to stderr with --json',
    );
  });

  test('answers 400, naming what is wrong, to every invalid request quality/malformed generates from the request schema', async () => {
    const { base, invalid } = malformedRequests('web');
    assert.equal((await post(url, JSON.stringify(base))).status, 200, 'the valid request it is made from');
    assert.ok(invalid.length > 30);
    for (const request of invalid) {
      const answer = await post(url, JSON.stringify(request.apply(structuredClone(base))));
      assert.equal(answer.status, 400, `${request.what}: ${JSON.stringify(answer.body)}`);
      assert.ok((answer.body as { problems?: string[] }).problems?.length, request.what);
    }
  });

  test('passes the extended cases on every channel with no finding', async () => {
    const report = await checkEndpoint(url, { channels: ['all'], extended: true });
    assert.deepEqual(findingsOf(report), []);
    assert.equal(report.counts.cases, CHANNELS.length * (FIXED_CASE_IDS.length + EXTENDED_CASE_IDS.length));
  });
});

describe('the Python agent with a token (--token-env)', () => {
  const TOKEN_ENV = 'PYTHON_AGENT_TEST_TOKEN';
  const TOKEN = 'python-agent-token-7d41';
  const served = pythonAgent(['--token-env', TOKEN_ENV], { ...process.env, [TOKEN_ENV]: TOKEN });

  test('answers 401 without the right bearer', async () => {
    assert.equal((await post(served.url(), '{}')).status, 401);
    assert.equal((await post(served.url(), '{}', { authorization: 'Bearer nope' })).status, 401);
  });

  test('--quality --extended --channel all with the token passes against it, with no finding, the 5 MiB photo included', async () => {
    const report = await checkEndpoint(served.url(), {
      quality: true,
      extended: true,
      channels: ['all'],
      tokenEnv: TOKEN_ENV,
      env: { [TOKEN_ENV]: TOKEN },
      qualityConversations: 3,
    });
    assert.deepEqual(findingsOf(report), []);
    assert.equal(report.outcome, 'passed');
    assert.deepEqual(
      report.cases.filter((c) => c.id === 'quality/large-attachment').map((c) => `${c.channel}:${c.passed}`),
      IMAGE_CHANNELS.map((channel) => `${channel}:true`),
    );
  });

  test('a --token-env whose variable is not set stops it (exit 2)', async () => {
    const { code, stderr } = await runCommand('python3', [AGENT, '--port', '0', '--token-env', 'PYTHON_AGENT_UNSET_VARIABLE']);
    assert.equal(code, 2);
    assert.match(stderr, /--token-env names PYTHON_AGENT_UNSET_VARIABLE, but that environment variable is not set/);
  });
});
