import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type AgentHandler, RawResponse, type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { type CheckEndpointOptions, type Report, checkEndpoint } from '../src/index.js';
import { createAjv } from '../src/contract/ajv.js';
import type { AgentRequest } from '../src/core/request.js';
import { recordedRequest } from '../src/run/recorded-request.js';
import { QUALITY_CASES, QUALITY_CASE_IDS } from '../src/cases/registry.js';
import { bundledContract } from '../src/contract/load-contract.js';
import type { Case } from '../src/cases/case.js';
import { nearestRank } from '../src/cases/quality/latency.js';
import { LONG_INPUT_LENGTH, LONG_TEXT, MIXED_TEXT } from '../src/cases/quality/long-input.js';
import { BROKEN_QUALITY_AGENTS, WELL_BEHAVED_AGENT, type QualityFixtureAgent, wellBehaved } from '../fixtures/agents/quality.js';
import { requestProblemsOf } from '../src/example-agent/start-reference-agent.js';
import { barrier } from '../fixtures/agents/barrier.js';
import { ROOT, runCli } from './helpers.js';
import { malformedRequests } from './malformed-requests.js';
import { CHANNELS, FIXED_CASE_IDS, IMAGE_CHANNELS } from './contract-ids.js';

const contract = bundledContract();

const TOKEN = 'quality-test-token-5f1e9a';
const TOKEN_ENV = 'QUALITY_TEST_TOKEN';
const withToken = { tokenEnv: TOKEN_ENV, env: { [TOKEN_ENV]: TOKEN } } satisfies CheckEndpointOptions;

const reportSchema = JSON.parse(readFileSync(join(ROOT, 'spec/report.schema.json'), 'utf8')) as Record<string, unknown>;
const requestSchema = JSON.parse(readFileSync(join(ROOT, 'spec/request.schema.json'), 'utf8')) as Record<string, unknown>;
const ajv = createAjv();
const validateReport = ajv.compile(reportSchema);
const validateRequest = ajv.compile(requestSchema);

/** The invalid requests quality/malformed makes from the bundled contract. */
const GENERATED = malformedRequests('whatsapp').invalid;

interface Received {
  body: AgentRequest;
  authorization: string | undefined;
}

/** Serves a handler for the suite, recording what reached it (bodies the handler saw, and their authorization). */
function served(handler: () => AgentHandler, serveOptions: QualityFixtureAgent['serveOptions'] = {}) {
  let running: RunningAgent | undefined;
  const received: Received[] = [];
  before(async () => {
    const inner = handler();
    running = await serveAgent((request, raw) => {
      received.push({ body: request, authorization: raw.headers.authorization });
      return inner(request, raw);
    }, serveOptions);
  });
  after(async () => {
    await running?.close();
  });
  return { url: () => running!.url, received };
}

function findingsOf(report: Report): string[] {
  return report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}/${c.id}:${f.rule}:${f.severity}`));
}

function qualityCases(report: Report) {
  return report.cases.filter((c) => c.id.startsWith('quality/'));
}

describe('--quality against the well-behaved agent', () => {
  const agent = served(() => WELL_BEHAVED_AGENT.handler(TOKEN));
  let report: Report;
  before(async () => {
    report = await checkEndpoint(agent.url(), { ...withToken, channels: ['all'], quality: true, qualityConversations: 4 });
  });

  test('every case passes with no finding at all, on every channel', () => {
    assert.deepEqual(findingsOf(report), []);
    assert.equal(report.outcome, 'passed');
    assert.equal(report.exitCode, 0);
  });

  test('the quality cases come after the fixed ones, once per run or once per channel, in the table order', () => {
    const channels = CHANNELS;
    // The registry's order; a case of scope `run` once, on the first channel; the others on every
    // channel they play on (quality/large-attachment only where the platform takes images).
    const played = qualityCases(report).map((c) => `${c.id} ${c.channel}`);
    assert.deepEqual(
      played,
      (QUALITY_CASES as readonly Case[]).flatMap((testCase) =>
        (testCase.scope === 'run'
          ? channels.slice(0, 1)
          : channels.filter((channel) => testCase.playsOn?.(contract.platforms[channel]) ?? true)
        ).map((channel) => `${testCase.id} ${channel}`),
      ),
    );
    // As the contract's cases are today: auth, malformed and concurrency once; large-attachment not on SMS.
    for (const once of ['quality/auth', 'quality/malformed', 'quality/concurrency'])
      assert.deepEqual(
        played.filter((line) => line.startsWith(`${once} `)),
        [`${once} whatsapp`],
      );
    assert.deepEqual(
      played.filter((line) => line.startsWith('quality/large-attachment ')),
      IMAGE_CHANNELS.map((channel) => `quality/large-attachment ${channel}`),
    );
    assert.ok(!IMAGE_CHANNELS.includes('sms'));
    const fixed = CHANNELS.length * FIXED_CASE_IDS.length;
    assert.deepEqual(
      report.cases.slice(0, fixed).map((c) => c.id.startsWith('quality/')),
      Array(fixed).fill(false),
    );
    assert.deepEqual(new Set(qualityCases(report).map((c) => c.id)), new Set(QUALITY_CASE_IDS));
  });

  test('each case reports the requests it sent, and the agent received exactly those', () => {
    const cases = qualityCases(report);
    const byId = (id: string) => cases.find((c) => c.id === id)!;
    // auth: no header, then a wrong token; neither reaches the handler's answer (401), both are reported.
    assert.deepEqual(
      byId('quality/auth').turns.map((t) => [t.authorization, t.status]),
      [
        ['none', 401],
        ['wrong-token', 401],
      ],
    );
    // malformed: the bodies as sent, each made from a valid request, each answered 400.
    const malformed = byId('quality/malformed').turns;
    assert.equal(malformed.length, 3 + GENERATED.length, 'three gross bodies, then one request per constraint of the request schema');
    assert.throws(() => JSON.parse(malformed[0]!.sentBody!), 'the first is not JSON');
    assert.equal((JSON.parse(malformed[1]!.sentBody!) as Record<string, unknown>).message, undefined);
    assert.equal(typeof (JSON.parse(malformed[2]!.sentBody!) as { message: { text: unknown } }).message.text, 'number');
    assert.deepEqual(
      malformed.map((t) => t.status),
      Array(malformed.length).fill(400),
    );
    for (const turn of malformed.slice(3)) {
      assert.equal(validateRequest(JSON.parse(turn.sentBody!)), false, `${turn.sentBody} breaks the request schema`);
    }
    for (const turn of malformed) assert.ok(validateRequest(turn.request), 'request: the valid request the body was made from');
    // Every other turn sends its request as reported (attachment data over 1 KB by size and digest),
    // which matches the request schema, unknown fields and all.
    for (const c of cases.filter((c) => c.id !== 'quality/malformed')) {
      for (const turn of c.turns) {
        assert.equal(turn.sentBody, undefined);
        if (c.id === 'quality/auth') {
          assert.ok(validateRequest(turn.request), `${c.id}: ${JSON.stringify(validateRequest.errors)}`);
          continue;
        }
        const received = agent.received.find(
          (r) =>
            r.body.conversationId === turn.request.conversationId &&
            JSON.stringify(recordedRequest(r.body)) === JSON.stringify(turn.request) &&
            r.authorization === `Bearer ${TOKEN}`,
        );
        assert.ok(received, `${c.id} ${turn.messageId}: received as reported, with the token`);
        assert.ok(validateRequest(received.body), `${c.id}: ${JSON.stringify(validateRequest.errors)}`);
      }
    }
    const future = byId('quality/forward-compat').turns[0]!.request as unknown as Record<string, Record<string, unknown>>;
    assert.ok('sentAt' in future && 'language' in future.message!, 'unknown fields at the top and in message');
    // long input: 4096 characters, then right-to-left text, combining marks and ZWJ emoji.
    const long = byId('quality/long-input').turns.map((t) => t.request.message.text);
    assert.deepEqual(long, [LONG_TEXT, MIXED_TEXT]);
    assert.equal([...LONG_TEXT].length, LONG_INPUT_LENGTH);
    assert.match(MIXED_TEXT, /\p{Script=Arabic}/u);
    assert.match(MIXED_TEXT, /\p{Script=Hebrew}/u);
    assert.match(MIXED_TEXT, /\p{M}/u);
    assert.match(MIXED_TEXT, /\u200D/);
    // retry: the same body twice.
    const retry = byId('quality/retry').turns;
    assert.deepEqual(retry[0]!.request, retry[1]!.request);
    // concurrency: 4 conversations of two turns, each its own conversation, all ids distinct.
    const concurrency = byId('quality/concurrency').turns;
    assert.equal(concurrency.length, 8);
    assert.equal(new Set(concurrency.map((t) => t.request.conversationId)).size, 4);
    assert.equal(new Set(concurrency.map((t) => t.messageId)).size, 8);
  });

  test('latency: p50, p95 and max per channel, over the message turns of that channel', () => {
    for (const c of report.cases.filter((c) => c.id === 'quality/latency')) {
      const figures = c.latency!;
      assert.ok(figures, `${c.channel}: figures`);
      const expected = report.cases
        .filter(
          (other) =>
            other.channel === c.channel &&
            !['quality/auth', 'quality/malformed', 'quality/large-attachment', 'quality/latency'].includes(other.id),
        )
        .flatMap((other) => other.turns.map((t) => t.latencyMs))
        .sort((a, b) => a - b);
      assert.equal(figures.turns, expected.length);
      assert.equal(figures.p50Ms, nearestRank(expected, 50));
      assert.equal(figures.p95Ms, nearestRank(expected, 95));
      assert.equal(figures.maxMs, expected.at(-1));
      assert.equal(figures.budgetMs, 10_000);
      assert.deepEqual(c.turns, []);
    }
  });

  test('the token, and the wrong token, appear nowhere in the report', () => {
    const text = JSON.stringify(report);
    assert.ok(!text.includes(TOKEN));
    const sentTokens = agent.received.map((r) => r.authorization).filter((value): value is string => value !== undefined);
    assert.ok(sentTokens.length > 0);
    for (const value of sentTokens) assert.ok(!text.includes(value.replace(/^Bearer /, '')), 'no bearer value in the report');
  });

  test('the report, quality cases and all, matches spec/report.schema.json', () => {
    assert.ok(validateReport(report), JSON.stringify(validateReport.errors, null, 2));
  });
});

describe('each broken quality agent is caught by exactly its case and rule, and nothing else', () => {
  for (const agent of BROKEN_QUALITY_AGENTS) {
    const { case: caseId, rule, severity } = agent.breaks!;
    describe(agent.name, () => {
      const running = served(() => agent.handler(TOKEN), agent.serveOptions);
      const options = { ...withToken, quality: true, ...agent.checkOptions } satisfies CheckEndpointOptions;

      test(`${severity === 'error' ? 'fails' : 'warns on'} ${caseId} with rule ${rule}`, async () => {
        const report = await checkEndpoint(running.url(), options);
        const found = [...new Set(findingsOf(report))];
        assert.deepEqual(
          found,
          [`whatsapp/${caseId}:${rule}:${severity}`],
          JSON.stringify(
            report.cases.flatMap((c) => c.findings),
            null,
            2,
          ),
        );
        assert.deepEqual(
          report.cases.filter((c) => !c.passed).map((c) => c.id),
          severity === 'error' ? [caseId] : [],
        );
        assert.equal(report.exitCode, severity === 'error' ? 1 : 0);
        for (const finding of report.cases.find((c) => c.id === caseId)!.findings) {
          assert.match(finding.message, /^expected .+/, 'says what was expected, then what came');
          assert.ok(finding.hint && finding.hint.length > 20, 'says how to fix it');
          assert.ok(finding.path === '' || finding.path.startsWith('/'));
        }
      });

      if (severity === 'warning') {
        test(`fails ${caseId} under --strict`, async () => {
          const report = await checkEndpoint(running.url(), { ...options, strict: true });
          assert.deepEqual(
            report.cases.filter((c) => !c.passed).map((c) => c.id),
            [caseId],
          );
          assert.equal(report.exitCode, 1);
        });
      }
    });
  }
});

describe('what the findings say', () => {
  describe('quality/auth with no token set', () => {
    const agent = served(() => wellBehaved(undefined));
    test('warns that anyone with the URL can talk to the agent; nothing else', async () => {
      const report = await checkEndpoint(agent.url(), { quality: true, env: {} });
      assert.deepEqual(findingsOf(report), ['whatsapp/quality/auth:auth:warning']);
      const auth = report.cases.find((c) => c.id === 'quality/auth')!;
      assert.deepEqual(auth.turns, [], 'nothing to send without a token');
      assert.match(auth.findings[0]!.message, /no token is set \(FLOW_FRAMEWORK_AGENT_TOKEN\).*anyone with the URL can talk to the agent/);
      assert.equal(auth.findings[0]!.turn, null);
      assert.equal(report.exitCode, 0);
    });
  });

  describe('quality/auth against an agent that answers without the token', () => {
    const agent = served(() => wellBehaved(TOKEN, { requireToken: false }));
    test('both requests are errors that say so', async () => {
      const report = await checkEndpoint(agent.url(), { ...withToken, quality: true });
      const auth = report.cases.find((c) => c.id === 'quality/auth')!;
      assert.deepEqual(
        auth.findings.map((f) => [f.turn, f.rule, f.severity]),
        [
          [0, 'auth', 'error'],
          [1, 'auth', 'error'],
        ],
      );
      assert.match(
        auth.findings[0]!.message,
        /^expected 401 or 403 for a request with no authorization header; got status 200.*your endpoint answers without the token$/,
      );
      assert.match(auth.findings[1]!.message, /wrong bearer token; got status 200/);
    });
  });

  describe('quality/auth against an agent that fails without the token', () => {
    const agent = served(
      () => (request, raw) =>
        raw.headers.authorization === `Bearer ${TOKEN}`
          ? wellBehaved(undefined)(request, raw)
          : new RawResponse(500, 'TypeError: token is undefined'),
    );
    test('a status other than 401 or 403 is a warning', async () => {
      const report = await checkEndpoint(agent.url(), { ...withToken, quality: true });
      const auth = report.cases.find((c) => c.id === 'quality/auth')!;
      assert.deepEqual(
        auth.findings.map((f) => [f.turn, f.rule, f.severity]),
        [
          [0, 'auth', 'warning'],
          [1, 'auth', 'warning'],
        ],
      );
      assert.match(
        auth.findings[0]!.message,
        /^expected 401 or 403 for a request with no authorization header; got status 500: "TypeError/,
      );
      assert.ok(auth.passed);
    });
  });

  describe('an agent that refuses the token the check sends', () => {
    const agent = served(() => wellBehaved('another-token'));
    test('its 401s stay rule status in the quality cases too: they say nothing of the input', async () => {
      const report = await checkEndpoint(agent.url(), { ...withToken, quality: true });
      const rules = new Set(
        report.cases
          .filter((c) => ['quality/forward-compat', 'quality/retry', 'quality/long-input'].includes(c.id))
          .flatMap((c) => c.findings.map((f) => f.rule)),
      );
      assert.deepEqual([...rules], ['status']);
    });
  });

  describe('quality/concurrency against the global-state agent', () => {
    const broken = BROKEN_QUALITY_AGENTS.find((agent) => agent.name === 'global-state')!;
    const agent = served(() => broken.handler(TOKEN));
    test('names both conversations, in place of the reference finding', async () => {
      const report = await checkEndpoint(agent.url(), { ...withToken, quality: true, concurrency: 1, qualityConversations: 3 });
      const concurrency = report.cases.find((c) => c.id === 'quality/concurrency')!;
      assert.ok(concurrency.findings.length > 0);
      for (const finding of concurrency.findings) {
        assert.equal(finding.rule, 'concurrency');
        assert.equal(finding.path, `/replies/${finding.reply}/replyTo`);
        const own = concurrency.turns[finding.turn!]!.request.conversationId;
        const named = [...finding.message.matchAll(/conversation (\S+?)[,:]? /g)].map((match) => match[1]);
        assert.equal(named[0], own, finding.message);
        assert.ok(named[1] && named[1] !== own && named[1].includes('.quality-concurrency.'), finding.message);
      }
    });
  });

  describe('quality/concurrency: a reply that mentions another conversation\u2019s order', () => {
    // Echoes the text of the latest message received by any conversation: SMS shows no replyTo, the text gives it away.
    // The three conversations' messages wait for each other, so the latest is always another's when two of them answer.
    const CONVERSATIONS = 3;
    const together = barrier(CONVERSATIONS);
    let latest = '';
    const agent = served(() =>
      wellBehaved(TOKEN, {
        answer: async (request) => {
          latest = request.message.text;
          if (request.conversationId.includes('.quality-concurrency.')) await together.arrive();
          return { replies: [{ type: 'message', text: `You said: ${[...latest].slice(0, 40).join('')}` }] };
        },
      }),
    );
    test('is a concurrency error naming both conversations', async () => {
      const report = await checkEndpoint(agent.url(), {
        ...withToken,
        quality: true,
        concurrency: 1,
        channels: ['sms'],
        qualityConversations: CONVERSATIONS,
      });
      assert.deepEqual(
        { released: together.released, fellBack: together.fellBack },
        { released: 2 * CONVERSATIONS, fellBack: 0 },
        `expected the ${CONVERSATIONS} conversations' two messages each in flight together`,
      );
      assert.deepEqual([...new Set(findingsOf(report))], ['sms/quality/concurrency:concurrency:error']);
      const finding = report.cases.find((c) => c.id === 'quality/concurrency')!.findings[0]!;
      assert.match(
        finding.message,
        /^expected a reply about conversation sms:chk_\w+\.quality-concurrency\.\d .* which only conversation sms:chk_\w+\.quality-concurrency\.\d sent/,
      );
    });
  });

  describe('quality/retry against an agent whose replies change every time', () => {
    let count = 0;
    const agent = served(() =>
      wellBehaved(TOKEN, { rememberAnswers: false, answer: () => ({ replies: [{ type: 'message', text: `Reply number ${++count}` }] }) }),
    );
    test('a 409 on the retry is an error, and on the second copy of the message sent twice at once', async () => {
      const report = await checkEndpoint(agent.url(), { ...withToken, quality: true });
      const retry = report.cases.find((c) => c.id === 'quality/retry')!;
      // Either copy of the pair may reach the agent second: turn 2 or 3 gets the 409.
      assert.deepEqual(
        retry.findings.map((f) => [f.turn === 3 ? 2 : f.turn, f.rule, f.severity]),
        [
          [1, 'retry', 'error'],
          [2, 'retry', 'error'],
        ],
      );
      assert.match(
        retry.findings[1]!.message,
        /^expected a second copy of a message \(the same messageId\), sent while the first was unanswered/,
      );
      assert.match(
        retry.findings[0]!.message,
        /^expected the same message sent again with the same messageId, as a platform retries, to be answered with status 200 within 60 s, like any message; got status 409/,
      );
    });
  });

  describe('quality/retry: different replies the second time', () => {
    let count = 0;
    const agent = served(() => (request) => ({
      replies: [{ type: 'message', text: `Reply number ${++count} to ${request.messageId.length}` }],
    }));
    test('is a warning on the retry turn, and on the case for the message answered twice at once', async () => {
      const report = await checkEndpoint(agent.url(), { quality: true, env: {} });
      const retry = report.cases.find((c) => c.id === 'quality/retry')!;
      assert.deepEqual(
        retry.findings.map((f) => [f.turn, f.rule, f.severity, f.path]),
        [
          [1, 'retry', 'warning', '/replies'],
          [null, 'retry', 'warning', '/replies'],
        ],
      );
      assert.match(
        retry.findings[1]!.message,
        /^expected one set of replies to a message delivered twice at once .* both copies were answered, differently: the first with .*Reply number \d+.*, the second with .*Reply number \d+.*: the person would see both/,
      );
      assert.match(retry.findings[1]!.hint!, /^Key work by conversationId and messageId/);
      assert.match(
        retry.findings[0]!.message,
        /^expected the same replies to a retry of the same messageId; the first answer had .*Reply number \d+.*, the retry .*Reply number \d+/,
      );
    });
  });

  describe('quality/malformed against an agent that accepts every invalid request', () => {
    const accepting = BROKEN_QUALITY_AGENTS.find((candidate) => candidate.name === 'accepts-invalid-requests')!;
    const agent = served(() => accepting.handler(TOKEN), accepting.serveOptions);
    test('a warning on every turn, each naming the constraint the agent let through', async () => {
      const report = await checkEndpoint(agent.url(), { ...withToken, quality: true });
      const malformed = report.cases.find((c) => c.id === 'quality/malformed')!;
      assert.deepEqual(
        malformed.findings.map((f) => [f.turn, f.rule, f.severity]),
        malformed.turns.map((_, turn) => [turn, 'malformed', 'warning']),
      );
      assert.match(
        malformed.findings[0]!.message,
        /^expected 400 or 422; got status 200: the agent accepted a body that is not JSON, as if it were a valid message$/,
      );
      const named = malformed.findings.slice(3).map((f) => f.message);
      assert.deepEqual(
        named,
        GENERATED.map((invalid) => `expected 400 or 422; got status 200: the agent accepted ${invalid.what}; ${invalid.allowed}`),
      );
      assert.ok(
        named.includes('expected 400 or 422; got status 200: the agent accepted a messageId of 201 characters; the contract allows 200'),
      );
      assert.ok(malformed.passed, 'warnings only');
    });
  });

  describe('quality/malformed against an agent that crashes on every invalid request', () => {
    const agent = served(
      () => (request) =>
        requestProblemsOf(request).length
          ? new RawResponse(500, '{"error":"TypeError"}', { 'content-type': 'application/json' })
          : { replies: [{ type: 'message', text: 'ok' }] },
      { anyJson: true },
    );
    test('a 5xx is an error of the case, on every generated request', async () => {
      const report = await checkEndpoint(agent.url(), { quality: true, env: {} });
      const malformed = report.cases.find((c) => c.id === 'quality/malformed')!;
      assert.equal(malformed.passed, false);
      const errors = malformed.findings.filter((f) => f.severity === 'error');
      assert.equal(errors.length, 2 + GENERATED.length, 'all but the body that is not JSON, which serveAgent answers 400');
      assert.ok(errors.every((f) => f.rule === 'malformed' && /^expected 400 or 422 for .+; got status 500/.test(f.message)));
    });
  });
});

describe('the command line', () => {
  const agent = served(() => WELL_BEHAVED_AGENT.handler(TOKEN));
  test('--quality --json: the quality case lines and latency figures on stderr, a schema-valid report on stdout', async () => {
    const result = await runCli([agent.url(), '--quality', '--json', '--quality-conversations', '3', '--token-env', TOKEN_ENV], {
      env: { [TOKEN_ENV]: TOKEN },
    });
    assert.equal(result.code, 0, result.stderr);
    for (const id of QUALITY_CASE_IDS) assert.match(result.stderr, new RegExp(`^PASS {2}${id} +whatsapp `, 'm'), id);
    assert.match(result.stderr, /^ {6}p50 \d+ ms · p95 \d+ ms · max \d+ ms over \d+ turns \(budget 10 s\)$/m);
    const cases = FIXED_CASE_IDS.length + QUALITY_CASE_IDS.length;
    assert.match(result.stderr, new RegExp(`^${cases} of ${cases} cases passed\\.$`, 'm'));
    const report = JSON.parse(result.stdout) as Report;
    assert.ok(validateReport(report), JSON.stringify(validateReport.errors, null, 2));
    assert.deepEqual(
      report.cases.map((c) => c.id),
      [...FIXED_CASE_IDS, ...QUALITY_CASE_IDS],
    );
    assert.ok(!result.stdout.includes(TOKEN) && !result.stderr.includes(TOKEN));
  });

  describe('a slow agent over a tiny --latency-budget', () => {
    const slow = BROKEN_QUALITY_AGENTS.find((candidate) => candidate.name === 'slow')!;
    const running = served(() => slow.handler(TOKEN));
    const env = { [TOKEN_ENV]: TOKEN };
    test('prints the latency warning with its figures; --strict makes it fail', async () => {
      const result = await runCli([running.url(), '--quality', '--latency-budget', '0.005', '--token-env', TOKEN_ENV], { env });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^PASS {2}quality\/latency +whatsapp .*1 warning +problem 1$/m);
      assert.match(result.stdout, /^ {6}p50 \d+ ms · p95 \d+ ms · max \d+ ms over \d+ turns \(budget 0\.005 s\)$/m);
      assert.match(result.stdout, /! latency +\(body\) +expected 95% of answers on whatsapp within the 0\.005 s budget/);
      const strict = await runCli([running.url(), '--quality', '--latency-budget', '0.005', '--strict', '--token-env', TOKEN_ENV], { env });
      assert.equal(strict.code, 1);
      assert.match(strict.stdout, /^FAIL {2}quality\/latency/m);
    });
  });
});
