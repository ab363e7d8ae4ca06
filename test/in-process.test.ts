/**
 * The library's in-process targets: a fetch handler called with no socket, a Node listener (a
 * plain one and an Express app) served on a loopback port the library opens and closes, judged
 * by the same cases as an agent's URL, with the report saying what was not applicable; and
 * assertEndpoint and formatReport, the library's test assertion and the command's text.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import express from 'express';
import { Hono } from 'hono';
import { describe, test } from 'node:test';
import { type Report, assertEndpoint, checkEndpoint, formatReport } from '../src/index.js';
import { createAjv } from '../src/contract/ajv.js';
import { serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { resolveTarget } from '../src/run/agent-target.js';
import { ROOT, runCli } from './helpers.js';
import { referenceExchange, referenceFetchHandler, referenceListener } from './in-process-agents.js';

const validateReport = createAjv().compile(JSON.parse(readFileSync(join(ROOT, 'spec/report.schema.json'), 'utf8')));

/** No token, no proxy, no .env: the run depends on nothing around it. */
const QUIET = { env: {} };

function assertValid(report: Report): void {
  assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
}

/** Every finding's rule and message, case by case, for comparing two runs' judging. */
function judged(report: Report): string[] {
  return report.cases.map((c) => `${c.channel}/${c.id} ${c.status}: ${c.findings.map((f) => `${f.rule} ${f.message}`).join(' | ')}`);
}

/** A fetch handler that answers every POST with these replies. */
function answering(replies: unknown[]): (request: Request) => Response {
  return (request) => (request.method === 'POST' ? Response.json({ replies }) : new Response(null, { status: 204 }));
}

const FOUR_BUTTONS = [
  { type: 'message', text: 'Which size?', buttons: ['s', 'm', 'l', 'xl'].map((id) => ({ id, label: id.toUpperCase() })) },
];
const THANKS = [{ type: 'message', text: 'Thanks, a barista will answer in a minute.' }];

describe('a fetch handler, called in this process', () => {
  test('passes every case, fixed, extended and quality, as the same agent served over HTTP does, with the same report', async () => {
    const options = { ...QUIET, channels: ['whatsapp', 'sms'], extended: true, quality: true, qualityConversations: 3 };
    const inProcess = await checkEndpoint(referenceFetchHandler, options);
    const agent = await startReferenceAgent();
    try {
      const served = await checkEndpoint(agent.url, options);
      assert.equal(served.outcome, 'passed', judged(served).join('\n'));
      assert.equal(inProcess.outcome, 'passed', judged(inProcess).join('\n'));
      assert.deepEqual(judged(inProcess), judged(served));
      assert.equal(inProcess.target, 'in-process fetch handler');
      assert.equal(served.transport, undefined, 'a URL check reports no transport');
      assertValid(inProcess);
    } finally {
      await agent.close();
    }
  });

  test('the report says which checks were not applicable, and a failed turn has no reproduce line', async () => {
    const report = await checkEndpoint(answering(FOUR_BUTTONS), { ...QUIET, cases: ['typed'] });
    assert.deepEqual(
      report.transport?.notApplicable.map((entry) => entry.check),
      ['http-framing', 'reused-connection-retry', 'proxy', 'tls', 'reproduce'],
    );
    assert.equal(report.transport?.kind, 'fetch-handler');
    const [finding] = report.cases[0]!.findings;
    assert.equal(finding?.rule, 'platform');
    assert.equal(finding?.reproduce, null);
    assertValid(report);
    const text = formatReport(report);
    assert.match(text, /not applicable to a fetch handler: http-framing, reused-connection-retry, proxy, tls, reproduce/);
    assert.doesNotMatch(text, /curl/);
  });

  test('a handler that throws is answered as a 500 with its message, never a crash', async () => {
    const report = await checkEndpoint(
      (request: Request) => {
        if (request.method === 'POST') throw new Error('the kitchen is on fire');
        return new Response(null);
      },
      { ...QUIET, cases: ['typed'] },
    );
    assert.equal(report.outcome, 'failed');
    const [finding] = report.cases[0]!.findings;
    assert.equal(finding?.rule, 'status');
    assert.match(finding!.message, /got 500: "the handler threw Error: the kitchen is on fire"/);
  });

  test('a handler that returns no Response is answered as a 500 that says what it returned', async () => {
    const report = await checkEndpoint(
      { fetch: (() => ({ replies: [] })) as unknown as (request: Request) => Response },
      { ...QUIET, cases: ['typed'] },
    );
    assert.match(
      report.cases[0]!.findings[0]!.message,
      /got 500: "the handler threw TypeError: returned an object \(Object\), not a Response \(status, headers, body\)"/,
    );
  });

  test('a handler that never answers times out at the agent timeout', async () => {
    const hangs = (request: Request): Promise<Response> =>
      request.method === 'HEAD' ? Promise.resolve(new Response(null)) : new Promise(() => {});
    const report = await checkEndpoint(hangs, { ...QUIET, cases: ['typed'], agentTimeoutSeconds: 0.2 });
    const [finding] = report.cases[0]!.findings;
    assert.equal(finding?.rule, 'timeout');
  });

  test('the body limit holds: an answer at --max-body passes, one byte over fails', async () => {
    const body = JSON.stringify({ replies: THANKS });
    const exact = Buffer.byteLength(body);
    const handler = (request: Request): Response =>
      new Response(request.method === 'POST' ? body : null, { headers: { 'content-type': 'application/json' } });
    const at = await checkEndpoint(handler, { ...QUIET, cases: ['typed'], maxBodyBytes: exact });
    assert.equal(at.outcome, 'passed', judged(at).join('\n'));
    const over = await checkEndpoint(handler, { ...QUIET, cases: ['typed'], maxBodyBytes: exact - 1 });
    assert.match(over.cases[0]!.findings[0]!.message, new RegExp(`larger than ${exact - 1} bytes`));
  });

  test('a gzip-coded body is decoded as the HTTP client decodes it', async () => {
    const coded = await promisify(gzip)(JSON.stringify({ replies: THANKS }));
    const handler = (request: Request): Response =>
      new Response(request.method === 'POST' ? coded : null, {
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
    const report = await checkEndpoint(handler, { ...QUIET, cases: ['typed'] });
    assert.equal(report.outcome, 'passed', judged(report).join('\n'));
  });

  test("sends the token and the checker's headers, and cleans the token out of what comes back", async () => {
    const seen: string[] = [];
    const handler = (request: Request): Response => {
      seen.push(`${request.method} ${request.url} ${request.headers.get('authorization')} ${request.headers.get('content-type')}`);
      return Response.json({ replies: [{ type: 'message', text: `you sent ${request.headers.get('authorization')}` }] });
    };
    const report = await checkEndpoint(
      { fetch: handler, path: '/agent' },
      { env: { FLOW_FRAMEWORK_AGENT_TOKEN: 'tok-5ecret' }, cases: ['typed'] },
    );
    assert.deepEqual(seen, [
      'HEAD http://check-endpoint.invalid/agent Bearer tok-5ecret null',
      'POST http://check-endpoint.invalid/agent Bearer tok-5ecret application/json',
    ]);
    assert.doesNotMatch(JSON.stringify(report), /tok-5ecret/);
    assert.match(JSON.stringify(report.cases[0]!.turns[0]!.answer), /you sent Bearer <redacted>/);
  });

  test('an interrupted run stops the exchange in flight', async () => {
    const controller = new AbortController();
    const handler = (request: Request): Promise<Response> | Response => {
      if (request.method === 'HEAD') return new Response(null);
      setTimeout(() => controller.abort('SIGINT'), 10);
      return new Promise(() => {});
    };
    const report = await checkEndpoint(handler, { ...QUIET, cases: ['typed'], signal: controller.signal });
    assert.equal(report.outcome, 'interrupted');
    assert.equal(report.exitCode, 130);
  });
});

describe('a Node request listener, served on a loopback port the library opens and closes', () => {
  test('a plain listener passes as the served agent does, and its port is closed after the run', async () => {
    const report = await checkEndpoint(referenceListener, {
      ...QUIET,
      channels: ['whatsapp', 'telegram'],
      quality: true,
      qualityConversations: 3,
    });
    assert.equal(report.outcome, 'passed', judged(report).join('\n'));
    assert.equal(report.transport?.kind, 'node-listener');
    assert.deepEqual(
      report.transport?.notApplicable.map((entry) => entry.check),
      ['proxy', 'tls', 'reproduce'],
    );
    assertValid(report);
    const url = new URL(/at (http:\S+)$/.exec(report.target)![1]!);
    assert.equal(url.hostname, '127.0.0.1');
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), '127.0.0.1');
      socket.on('connect', () => (socket.destroy(), resolve('connected')));
      socket.on('error', (cause: NodeJS.ErrnoException) => resolve(cause.code ?? 'error'));
    });
    assert.equal(refused, 'ECONNREFUSED');
  });

  test('an Express app (req, res, next) is checked as a listener, at the path given', async () => {
    const app = express();
    app.use(express.json({ limit: '7mb' }));
    app.post('/agent', (request, response) => {
      const { status, body } = referenceExchange('POST', JSON.stringify(request.body));
      response.status(status).type('application/json').send(body);
    });
    assert.equal(app.length, 3);
    const report = await checkEndpoint({ listener: app, path: '/agent' }, { ...QUIET, channels: ['whatsapp'] });
    assert.equal(report.outcome, 'passed', judged(report).join('\n'));
    assert.match(report.target, /^Node request listener, served by check-endpoint at http:\/\/127\.0\.0\.1:\d+\/agent$/);
    const bare = await checkEndpoint(app, { ...QUIET, cases: ['typed'] });
    assert.match(bare.cases[0]!.findings[0]!.message, /got 404/, 'without the path, its POST route is not found');
    // The hint names the target's path option, in the shape to write it.
    assert.equal(
      bare.cases[0]!.findings[0]!.hint,
      "The handler answered 404 at /: give the path its POST route listens on as the target's path option, { listener: app, path: '/agent' } (the path is / when none is given).",
    );
    const fetched = await checkEndpoint(
      (request: Request) =>
        new URL(request.url).pathname === '/agent' ? Response.json({ replies: [] }) : new Response('Not Found', { status: 404 }),
      { ...QUIET, cases: ['typed'] },
    );
    assert.match(fetched.cases[0]!.findings[0]!.hint ?? '', /\{ fetch: handler, path: '\/agent' \}/);
  });

  test('a listener that throws before answering is answered as a 500 with its message', async () => {
    const throws = (request: IncomingMessage, response: ServerResponse): void => {
      if (request.method !== 'POST') return void response.end();
      throw new Error('no beans left');
    };
    const report = await checkEndpoint(throws, { ...QUIET, cases: ['typed'] });
    assert.match(report.cases[0]!.findings[0]!.message, /got 500: "the listener threw Error: no beans left"/);
  });

  test('judges a failing listener as it judges the same agent as a fetch handler', async () => {
    const listener = (request: IncomingMessage, response: ServerResponse): void => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ replies: FOUR_BUTTONS }));
      request.resume();
    };
    const options = { ...QUIET, channels: ['whatsapp', 'sms'] };
    assert.deepEqual(judged(await checkEndpoint(listener, options)), judged(await checkEndpoint(answering(FOUR_BUTTONS), options)));
  });
});

describe('which function is which', () => {
  test('by declared parameters: none or one is a fetch handler, two or more a listener; wrappers and objects with fetch say so', () => {
    assert.equal(resolveTarget((request: Request) => new Response(request.url)).kind, 'fetch-handler');
    assert.equal(resolveTarget((_req: IncomingMessage, _res: ServerResponse) => undefined).kind, 'node-listener');
    assert.equal(resolveTarget(express()).kind, 'node-listener');
    assert.equal(resolveTarget({ fetch: (_request: Request, _context: unknown) => new Response() }).kind, 'fetch-handler');
    assert.equal(resolveTarget({ listener: (...args: unknown[]) => args }).kind, 'node-listener');
    assert.deepEqual(resolveTarget(new URL('http://127.0.0.1:9/agent')), { kind: 'url', url: 'http://127.0.0.1:9/agent' });
    assert.throws(() => resolveTarget(42), { name: 'TypeError', message: /target must be a URL, a fetch handler .*; got number/ });
    assert.throws(() => resolveTarget({ fetch: () => new Response(), listener: () => undefined }), TypeError);
    // { listener: app } with an app that is a fetch handler (a Hono app): named as such, with the wrapper to use.
    const fetchApp = new Hono().post('/', (c) => c.json({ replies: [] }));
    assert.throws(() => resolveTarget({ listener: fetchApp }), {
      name: 'TypeError',
      message:
        "checkEndpoint's { listener } must be a Node request listener ((req, res) => void) or a Node http.Server; got object: it has a fetch method (a Hono, h3 or Elysia app, a Workers module), so pass it as { fetch: app }, or the app itself",
    });
    assert.throws(() => resolveTarget({ listener: 'app' }), { message: /\{ listener \} must be a Node request listener .*; got string$/ });
    assert.throws(() => resolveTarget({ fetch: () => new Response(), path: 'agent' }), {
      message: /path must be a path such as \/agent; it must start with \/: got "agent"/,
    });
  });
});

describe('assertEndpoint', () => {
  test('resolves with the report when every case passed', async () => {
    const report = await assertEndpoint(answering(THANKS), QUIET);
    assert.equal(report.outcome, 'passed');
    assert.equal(report.warnings, '', 'no warning, no text');
  });

  // Markdown WhatsApp shows raw (**bold**) warns: the case passes, with a warning.
  const BOLD = [{ type: 'message', text: 'We open at **9 am**.' }];

  test("a passing run's warnings come with its report, as text a test can print, and stay out of its JSON", async () => {
    const report = await assertEndpoint(answering(BOLD), { ...QUIET, cases: ['typed', 'no-reply'] });
    assert.equal(report.outcome, 'passed');
    const lines = report.warnings.split('\n');
    // The digest first, each warning once with its fix, then each case naming it by number.
    assert.equal(lines[0], '1 problem warns in 2 of 2 cases.');
    assert.match(report.warnings, /\nproblem 1 {2}! platform {2}\/replies\/0\/text {2}.*\*\*9 am\*\*/);
    assert.equal(report.warnings.split('      hint: ').length - 1, 1, 'the hint once');
    assert.match(report.warnings, /\nPASS {2}typed .* 1 warning +problem 1\n/);
    assert.equal(lines.at(-1), '2 warnings in 2 of 2 cases; they fail the assertion with strict: true.');
    assert.ok(!('warnings' in JSON.parse(JSON.stringify(report))), 'the JSON is the report as checkEndpoint gives it');
  });

  test('strict: true fails on a warning', async () => {
    const rejection = await assertEndpoint(answering(BOLD), { ...QUIET, cases: ['typed'], strict: true }).catch((cause: unknown) => cause);
    assert.ok(rejection instanceof assert.AssertionError);
    assert.match(rejection.message, /\nproblem 1 {2}! platform {2}\/replies\/0\/text {2}.*\*\*9 am\*\*/);
    assert.match(rejection.message, /\nFAIL {2}typed .* problem 1\n/);
  });

  test("rejects with node:assert's AssertionError, the failures in the command's words without colour", async () => {
    const rejection = await assertEndpoint(answering(FOUR_BUTTONS), { ...QUIET, cases: ['typed', 'photo'] }).then(
      () => assert.fail('expected a rejection'),
      (cause: unknown) => cause,
    );
    assert.ok(rejection instanceof assert.AssertionError);
    assert.equal(rejection.code, 'ERR_ASSERTION');
    const lines = rejection.message.split('\n');
    assert.match(lines[0]!, /^check-endpoint \S+ · contract \S+ \(bundled\) · in-process fetch handler$/);
    assert.match(
      rejection.message,
      /\nproblem 1 {2}✗ platform {2}\/replies\/0\/buttons {2}4 buttons; WhatsApp shows at most 3, so this reply is not sent\n/,
    );
    assert.match(rejection.message, /\nFAIL {2}typed .* problem 1\n/);
    assert.match(rejection.message, /\n0 of 2 cases passed\.$/);
    assert.doesNotMatch(rejection.message, /\u001b\[/);
  });

  test('rejects with why the check could not run', async () => {
    const rejection = await assertEndpoint('http://127.0.0.1:9/agent', QUIET).catch((cause: unknown) => cause);
    assert.ok(rejection instanceof assert.AssertionError);
    assert.match(rejection.message, /Could not reach your agent at http:\/\/127\.0\.0\.1:9\/agent: connection refused/);
  });
});

describe('formatReport', () => {
  /** The command's stdout and its report.json for one check of an agent's URL. */
  async function commandRun(url: string, flags: string[]): Promise<{ stdout: string; report: Report }> {
    const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-format-'));
    try {
      const cli = await runCli([url, ...flags, '--report-dir', folder], { env: { FLOW_FRAMEWORK_AGENT_TOKEN: undefined }, cwd: folder });
      assert.ok(cli.code === 0 || cli.code === 1, cli.stderr);
      const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as Report;
      return { stdout: cli.stdout.replace(/^wrote .*\n/gm, ''), report };
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  test("is the command's text for the same report, passing or failing", async () => {
    const good = await startReferenceAgent();
    const bad = await serveAgent(() => ({ replies: FOUR_BUTTONS }));
    try {
      for (const run of [
        await commandRun(good.url, ['--channel', 'whatsapp', '--channel', 'sms']),
        await commandRun(bad.url, ['--channel', 'whatsapp', '--case', 'typed', '--case', 'photo']),
      ]) {
        assert.equal(formatReport(run.report, { tokenNote: 'token: none (FLOW_FRAMEWORK_AGENT_TOKEN is not set)' }), run.stdout);
        const coloured = formatReport(run.report, { color: true });
        assert.match(coloured, /\u001b\[/);
        assert.equal(coloured.replace(/\u001b\[\d+m/g, ''), formatReport(run.report));
      }
    } finally {
      await good.close();
      await bad.close();
    }
  });
});
