/**
 * What a fetch handler gives back, read as it is: a body stream that fails is reported with its own
 * error (not as a timeout), a Response of another copy of the Fetch API (the `undici` package) is
 * read by its shape, and a run aborted by the caller's own signal says so, with the signal's reason.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Response as UndiciResponse } from 'undici';
import { checkEndpoint } from '../src/index.js';
import { referenceExchange } from './in-process-agents.js';

/** No token, no proxy, no .env: the run depends on nothing around it. */
const QUIET = { env: {} };

describe("a fetch handler's answer", () => {
  test('a body stream that fails is reported with its own error, not as a timeout', async () => {
    const handler = (request: Request): Response =>
      request.method === 'HEAD'
        ? new Response(null)
        : new Response(
            new ReadableStream({
              start(controller) {
                controller.error(new Error('upstream model connection reset'));
              },
            }),
            { headers: { 'content-type': 'application/json' } },
          );
    const report = await checkEndpoint(handler, { ...QUIET, cases: ['typed'] });
    const [finding] = report.cases[0]!.findings;
    assert.equal(report.cases[0]!.status, 'failed');
    assert.match(finding!.message, /the handler's body stream failed: Error: upstream model connection reset/);
    assert.doesNotMatch(finding!.message, /within \d+ s/);
  });

  test("a Response from the undici package (not this realm's class) is read by its shape, and passes", async () => {
    const handler = async (request: Request): Promise<UndiciResponse> => {
      const { status, body } = referenceExchange(request.method, request.method === 'POST' ? await request.text() : '');
      return new UndiciResponse(request.method === 'HEAD' ? null : body, { status, headers: { 'content-type': 'application/json' } });
    };
    assert.equal(new UndiciResponse('') instanceof Response, false, "another copy's class");
    const report = await checkEndpoint(handler, { ...QUIET, channels: ['whatsapp'] });
    assert.equal(report.outcome, 'passed', JSON.stringify(report.cases.map((entry) => entry.findings)));
  });

  test('a value without the shape of a Response is answered as a 500 that says what came', async () => {
    const report = await checkEndpoint(() => ({ status: 'ok' }) as unknown as Response, { ...QUIET, cases: ['typed'] });
    assert.match(
      report.cases[0]!.findings[0]!.message,
      /got 500: "the handler threw TypeError: returned an object \(Object\), not a Response/,
    );
  });
});

describe("the caller's signal", () => {
  test("AbortSignal.timeout(300) is reported as that signal's abort with its reason, not as SIGINT", async () => {
    const hangs = (request: Request): Response | Promise<Response> =>
      request.method === 'HEAD' ? new Response(null) : new Promise<Response>(() => {});
    const report = await checkEndpoint(hangs, { ...QUIET, signal: AbortSignal.timeout(300) });
    assert.equal(report.outcome, 'interrupted');
    assert.match(report.stopped!.message, /^the run was aborted by the signal you passed \(TimeoutError: /);
    assert.doesNotMatch(report.stopped!.message, /SIGINT/);
  });
});
