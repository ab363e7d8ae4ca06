/**
 * The minimal agents docs/agent.md quotes and the README names (examples/minimal/agent.mjs with node:http only,
 * examples/minimal/agent.py with Python's standard library only), each started as the docs say
 * and checked for real: the fixed cases pass on WhatsApp with no finding, HEAD is answered, a 7 MiB
 * body is taken (and 8 MiB, their own limit; one byte more is 413), and a bad body gets 400 naming
 * what is wrong.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { ROOT } from './helpers.js';
import { checkEndpoint, validateAnswer } from '../src/index.js';

const LISTENING = /^listening on (http:\/\/127\.0\.0\.1:\d+\/agent)$/;
const MIB = 1024 * 1024;

/** Starts an agent with PORT=0 for a suite, stops it after; resolves to the URL it printed. */
function startedAgent(command: string, file: string): () => string {
  let agent: ChildProcess | undefined;
  let url = '';
  before(async () => {
    agent = spawn(command, [join(ROOT, file)], { cwd: ROOT, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = once(agent, 'exit').then(([code]) => {
      throw new Error(`${file} exited (code ${code}) before it listened`);
    });
    const listening = new Promise<string>((resolve) => {
      createInterface({ input: agent!.stdout! }).on('line', (line) => {
        const match = LISTENING.exec(line);
        if (match) resolve(match[1]!);
      });
    });
    url = await Promise.race([listening, exited]);
    exited.catch(() => {});
  });
  after(async () => {
    if (agent && agent.exitCode === null && agent.signalCode === null) {
      const exited = once(agent, 'exit');
      agent.kill('SIGTERM');
      await exited;
    }
  });
  return () => url;
}

/** One request on a fresh connection: its status and body. */
function send(url: string, method: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const outgoing = request(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A valid photo request whose body is exactly `bytes` long (the base64 data padded with "A"). */
function photoRequestOf(bytes: number): string {
  const build = (text: string, data: string) =>
    JSON.stringify({
      conversationId: 'whatsapp:minimal.large.1',
      messageId: 'minimal.large.p1',
      channel: 'whatsapp',
      message: { text, attachments: [{ kind: 'image', mime: 'image/jpeg', name: 'photo.jpg', data }] },
    });
  const room = bytes - build('', '').length;
  // Base64 comes in groups of four; the text takes up what is left (it must be "" for a photo
  // alone, but the agents do not mind, and the body keeps its exact size).
  const body = build(' '.repeat(room % 4), 'A'.repeat(room - (room % 4)));
  assert.equal(Buffer.byteLength(body), bytes);
  return body;
}

const AGENTS = [
  { name: 'Node (node:http only)', command: process.execPath, file: 'examples/minimal/agent.mjs' },
  { name: 'Python (standard library only)', command: 'python3', file: 'examples/minimal/agent.py' },
];

for (const { name, command, file } of AGENTS) {
  describe(`the minimal agent in ${name}, ${file}`, () => {
    const url = startedAgent(command, file);

    test('passes the fixed cases on WhatsApp with no finding at all', async () => {
      const report = await checkEndpoint(url(), { channels: ['whatsapp'] });
      assert.deepEqual(
        report.cases.flatMap((c) => c.findings.map((f) => `${c.id}: ${f.rule} ${f.severity}: ${f.message}`)),
        [],
      );
      assert.equal(report.outcome, 'passed');
      assert.deepEqual(
        report.cases.map((c) => `${c.id}:${c.status}`),
        ['typed:passed', 'double-text:passed', 'photo:passed', 'button-tap:passed', 'no-reply:passed'],
      );
    });

    test('passes --explore on every channel at its defaults: no false alarm on any message a platform can deliver', async () => {
      const report = await checkEndpoint(url(), { channels: ['all'], cases: ['explore'], explore: true, seed: 2026 });
      const failing = report.cases.flatMap((c) =>
        c.findings.filter((f) => f.severity === 'error').map((f) => `${c.channel}: ${f.rule}: ${f.message}`),
      );
      assert.deepEqual(failing, []);
      assert.equal(report.outcome, 'passed');
      for (const caseReport of report.cases) assert.equal(caseReport.explore?.turns, 300, `${caseReport.channel} played its 300 turns`);
    });

    test('answers HEAD', async () => {
      const head = await send(url(), 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(head.body, '');
    });

    test('takes a 7 MiB body (the contract promises 7 MB) and 8 MiB, its own limit, with a valid answer', async () => {
      for (const bytes of [7 * MIB, 8 * MIB]) {
        const answer = await send(url(), 'POST', photoRequestOf(bytes));
        assert.equal(answer.status, 200, `${bytes} bytes: ${answer.body}`);
        assert.deepEqual(validateAnswer(JSON.parse(answer.body), { channel: 'whatsapp' }), [], `${bytes} bytes`);
      }
    });

    test('answers 413 to a body one byte over 8 MiB', async () => {
      const answer = await send(url(), 'POST', photoRequestOf(8 * MIB + 1));
      assert.equal(answer.status, 413);
      assert.match(answer.body, /the body is over 8388608 bytes/);
    });

    test('refuses a bad body with 400 naming what is wrong', async () => {
      const cases: [string, RegExp][] = [
        ['{"replies": [', /the body is not UTF-8 JSON/],
        ['[]', /the body must be a JSON object/],
        [
          '{}',
          /conversationId must be a non-empty string; messageId must be a non-empty string; channel must be a non-empty string; message must be an object/,
        ],
        [
          JSON.stringify({ conversationId: 'c', messageId: 'm', channel: 'whatsapp', message: { text: 42 } }),
          /message\.text must be a string/,
        ],
      ];
      for (const [body, reason] of cases) {
        const answer = await send(url(), 'POST', body);
        assert.equal(answer.status, 400, body);
        assert.match(answer.body, reason, body);
      }
    });
  });
}

test('docs/agent.md quotes both minimal agents exactly as the files hold them', () => {
  const readme = readFileSync(join(ROOT, 'docs/agent.md'), 'utf8');
  for (const [file, language] of [
    ['examples/minimal/agent.mjs', 'js'],
    ['examples/minimal/agent.py', 'python'],
  ] as const) {
    assert.ok(
      readme.includes(`\`\`\`${language}\n${readFileSync(join(ROOT, file), 'utf8')}\`\`\`\n`),
      `${file} is quoted whole in docs/agent.md`,
    );
  }
});

test("the README's answer body is valid on WhatsApp, naming the README's request", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const request = /```http\n[^]*?\n\n(\{[^]*?\n\})\n```/.exec(readme)?.[1];
  const answer = /and the agent answers `200` with:\n\n```json\n([^]*?)```/.exec(readme)?.[1];
  assert.ok(request && answer, 'the README shows a request and an answer');
  const { messageId, channel } = JSON.parse(request) as { messageId: string; channel: string };
  assert.deepEqual(validateAnswer(JSON.parse(answer), { channel, personMessageIds: [messageId] }), []);
});
