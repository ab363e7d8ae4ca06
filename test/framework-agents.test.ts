/**
 * Agents built on real frameworks at their shipped defaults (express, Fastify, Koa, the Vercel AI
 * SDK's streams, and the Python agent behind Django's body limit): each passes every case but the
 * one its default breaks, and the finding names the cause and the setting that fixes it. Their
 * answers to the 5 MB image of quality/large-attachment are checked here by a direct POST.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { ROOT } from './helpers.js';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { AgentClient } from '../src/http/client.js';
import { bundledContract, checkEndpoint } from '../src/index.js';
import { checkTurn } from '../src/validate/judge-exchange.js';
import { describeBytes } from '../src/validate/request-size-hints.js';
import { FRAMEWORK_AGENTS } from '../fixtures/agents/frameworks/catalogue.js';
import { startExpressAgent } from '../fixtures/agents/frameworks/express-agent.js';
import { startFastifyAgent } from '../fixtures/agents/frameworks/fastify-agent.js';
import { startKoaAgent } from '../fixtures/agents/frameworks/koa-agent.js';
import { CHANNELS, FIXED_CASE_IDS, IMAGE_CHANNELS } from './contract-ids.js';
import { EXTENDED_CASE_IDS } from '../src/cases/registry.js';

const MIB = 1024 * 1024;

/** A WhatsApp photo request whose image holds `imageBytes` bytes, as quality/large-attachment sends one. */
function imageRequest(imageBytes: number): string {
  const data = Buffer.alloc(imageBytes, 0xd8).toString('base64');
  return JSON.stringify({
    conversationId: 'whatsapp:chk_test.large.1',
    messageId: 'chk_test.whatsapp.large.p1',
    channel: 'whatsapp',
    message: { text: '', attachments: [{ kind: 'image', mime: 'image/jpeg', name: 'photo.jpg', data }] },
  });
}

/** POSTs one body with the checker's own client, and judges the answer as a turn is judged. */
async function postAndJudge(url: string, body: string) {
  const client = new AgentClient(new URL(url), { timeoutMs: 30_000, maxBodyBytes: 10 * MIB, connections: 1 });
  try {
    const outcome = await client.post(body);
    const verdict = checkTurn(outcome, {
      channel: 'whatsapp',
      contract: bundledContract(),
      personMessageIds: ['chk_test.whatsapp.large.p1'],
      expectsReply: false,
      timeoutSeconds: 60,
      requestBytes: Buffer.byteLength(body),
    });
    return { outcome, findings: verdict.findings };
  } finally {
    await client.close();
  }
}

function served(start: () => Promise<RunningAgent>): () => string {
  let running: RunningAgent | undefined;
  before(async () => {
    running = await start();
  });
  after(async () => {
    await running?.close();
  });
  return () => running!.url;
}

describe('framework agents at their shipped defaults', () => {
  for (const agent of FRAMEWORK_AGENTS) {
    describe(agent.name, () => {
      const url = served(agent.start);
      if (!agent.breaks) {
        test('passes every case on every channel, the extended ones too', async () => {
          const report = await checkEndpoint(url(), { channels: ['all'], extended: true });
          assert.deepEqual(
            report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}/${c.id}: ${f.rule} ${f.message}`)),
            [],
          );
          assert.equal(report.exitCode, 0);
          assert.equal(report.counts.cases, CHANNELS.length * (FIXED_CASE_IDS.length + EXTENDED_CASE_IDS.length));
        });
        test('fails quality/large-attachment on every channel that takes images, quoting its refusal', async () => {
          const report = await checkEndpoint(url(), { channels: ['all'], cases: ['quality/large-attachment'] });
          assert.deepEqual(
            report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}:${f.rule}`)),
            IMAGE_CHANNELS.map((channel) => `${channel}:large-attachment`),
          );
          const words = agent.name.startsWith('fastify') ? 'FST_ERR_CTP_BODY_TOO_LARGE' : 'got status 413: "request entity too large"';
          for (const c of report.cases) assert.ok(c.findings[0]!.message.includes(words), c.findings[0]!.message);
        });
        return;
      }
      const { case: caseId, rule } = agent.breaks;
      if (agent.name === 'express-default-limit') {
        test('with --quality too, only the photo and quality/large-attachment fail: no other case sends a body that large', async () => {
          const report = await checkEndpoint(url(), { channels: ['whatsapp'], extended: true, quality: true });
          assert.deepEqual(
            report.cases.filter((c) => !c.passed).map((c) => `${c.id}:${c.findings.map((f) => f.rule).join()}`),
            ['photo:status', 'quality/large-attachment:large-attachment'],
          );
        });
      }
      test(`fails exactly whatsapp/${caseId} with rule ${rule}, with words that name the cause`, async () => {
        const report = await checkEndpoint(url(), { channels: ['whatsapp'], extended: true });
        assert.equal(report.exitCode, 1);
        assert.deepEqual(
          report.cases.filter((c) => !c.passed).map((c) => c.id),
          [caseId],
        );
        const findings = report.cases.flatMap((c) => c.findings);
        assert.deepEqual(
          findings.map((f) => `${f.rule} ${f.severity}`),
          [`${rule} error`],
        );
        const [finding] = findings;
        if (agent.name === 'express-default-limit') {
          assert.match(
            finding!.message,
            /^expected status 200, got 413: an HTML page "Error": PayloadTooLargeError: request entity too large$/,
          );
          assert.match(
            finding!.hint!,
            /^The request body was [\d.]+ kB \([\d,]+ bytes\); the contract has agents accept bodies up to 7 MB/,
          );
          assert.ok(
            finding!.hint!.includes("express refused it (PayloadTooLargeError): raise its limit with express.json({ limit: '7mb' })"),
          );
          assert.ok(finding!.hint!.includes('Vercel Functions (4.5 MB) and AWS Lambda (6 MB'));
        } else {
          const kind =
            agent.name === 'ai-sdk-ui-stream' ? "the Vercel AI SDK's UI message stream" : 'a streamed text body (chunked text/plain';
          assert.ok(finding!.message.startsWith(`expected one JSON answer { "replies": [...] }; got ${kind}`), finding!.message);
          assert.match(finding!.hint!, /^Streaming is not part of the contract: collect the whole answer, then send it once as JSON/);
        }
      });
    });
  }
});

describe('a 5 MB image to each framework at its default: the finding names its setting', () => {
  const body = imageRequest(5 * MIB);
  const size = describeBytes(Buffer.byteLength(body));
  const cases: { name: string; start: () => Promise<RunningAgent>; message: string; setting: string }[] = [
    {
      name: 'express',
      start: () => startExpressAgent({ env: 'test' }),
      message: 'got 413: an HTML page "Error": PayloadTooLargeError: request entity too large',
      setting: "express refused it (PayloadTooLargeError): raise its limit with express.json({ limit: '7mb' })",
    },
    {
      name: 'Fastify',
      start: () => startFastifyAgent(),
      message: 'got 413: {"statusCode":413,"code":"FST_ERR_CTP_BODY_TOO_LARGE"',
      setting: 'Fastify refused it (FST_ERR_CTP_BODY_TOO_LARGE): raise its limit with Fastify({ bodyLimit: 7 * 1024 * 1024 })',
    },
    {
      name: 'Koa',
      start: () => startKoaAgent(),
      message: 'got 413: "request entity too large"',
      setting: "Koa refused it (request entity too large): raise its limit with bodyParser({ jsonLimit: '7mb' })",
    },
  ];
  for (const { name, start, message, setting } of cases) {
    describe(name, () => {
      const url = served(start);
      test('413, with the body size, the contract figure and the setting', async () => {
        const { outcome, findings } = await postAndJudge(url(), body);
        assert.equal(outcome.kind === 'answer' && outcome.status, 413);
        assert.equal(findings.length, 1);
        assert.equal(findings[0]!.rule, 'status');
        assert.ok(findings[0]!.message.includes(message), findings[0]!.message);
        assert.ok(
          findings[0]!.hint!.startsWith(`The request body was ${size}; the contract has agents accept bodies up to 7 MB`),
          findings[0]!.hint!,
        );
        assert.ok(findings[0]!.hint!.includes(setting), findings[0]!.hint!);
      });
    });
  }
});

describe("the Python agent behind Django's 2.5 MB limit (size_limited_agent.py)", () => {
  let agent: ChildProcess | undefined;
  let url = '';
  before(async () => {
    agent = spawn('python3', [join(ROOT, 'fixtures/agents/python/size_limited_agent.py'), '--port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: agent.stdout! });
    const [line] = (await once(lines, 'line')) as [string];
    url = /^listening on (http:\S+)$/.exec(line)![1]!;
  });
  after(async () => {
    if (agent && agent.exitCode === null) {
      const exited = once(agent, 'exit');
      agent.kill('SIGTERM');
      await exited;
    }
  });

  test('passes every case on every channel, the extended ones too', async () => {
    const report = await checkEndpoint(url, { channels: ['all'], extended: true });
    assert.deepEqual(
      report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}/${c.id}: ${f.rule} ${f.message}`)),
      [],
    );
    assert.equal(report.exitCode, 0);
  });

  test("fails quality/large-attachment on every channel that takes images, quoting Django's page", async () => {
    const report = await checkEndpoint(url, { channels: ['all'], cases: ['quality/large-attachment'] });
    assert.deepEqual(
      report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}:${f.rule}`)),
      IMAGE_CHANNELS.map((channel) => `${channel}:large-attachment`),
    );
    for (const c of report.cases)
      assert.ok(c.findings[0]!.message.endsWith('got status 400: an HTML page "Bad Request (400)"'), c.findings[0]!.message);
  });

  test("a body at Django's limit is taken; one byte over is refused with Django's 400 page, and the hint names the size and DATA_UPLOAD_MAX_MEMORY_SIZE", async () => {
    const limit = 2_621_440;
    const padded = (bytes: number): string => {
      const request = imageRequest(0);
      const data = 'A'.repeat(bytes - Buffer.byteLength(request));
      return request.replace('"data":""', `"data":"${data.slice(0, data.length - (data.length % 4))}"`).padEnd(bytes, ' ');
    };
    const atLimit = await postAndJudge(url, padded(limit));
    assert.equal(atLimit.outcome.kind === 'answer' && atLimit.outcome.status, 200);
    const over = await postAndJudge(url, padded(limit + 1));
    assert.equal(over.outcome.kind === 'answer' && over.outcome.status, 400);
    assert.equal(over.findings.length, 1);
    assert.equal(over.findings[0]!.message, 'expected status 200, got 400: an HTML page "Bad Request (400)"');
    assert.ok(over.findings[0]!.hint!.startsWith(`The request body was ${describeBytes(limit + 1)};`), over.findings[0]!.hint!);
    // The page is Django's, the server (http.server, named python-agent/1.0) tells no stack: the usual fixes, Django's among them.
    assert.ok(
      over.findings[0]!.hint!.includes('If the agent refused it for its size, raise its limit. The usual fixes:'),
      over.findings[0]!.hint!,
    );
    assert.ok(over.findings[0]!.hint!.includes('Django: DATA_UPLOAD_MAX_MEMORY_SIZE'), over.findings[0]!.hint!);
  });
});
