/**
 * The words of the findings on what real frameworks and servers answer, judged against their exact
 * answers (fixtures/framework-answers/, captured by scripts/framework-answers/capture.ts, each
 * with the version that produced it): 413 and 400 refusals of a large body, HTML error pages,
 * FastAPI's 422 `detail`, pydantic's nulls. Some are also served byte for byte from a raw server
 * on loopback and checked end to end, as CI has no nginx, Django or FastAPI.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { CAPTURED_DIR as DIR, type Captured, captured, judgeCaptured } from './captured-answers.js';
import { type RawRequest, type RawServer, referenceBody, startRawServer } from './raw-http-server.js';
import { checkEndpoint } from '../src/index.js';
import { describeBytes } from '../src/validate/request-size-hints.js';
import { NOT_AN_AGENT_ANSWERS } from './not-an-agent-answers.js';
import { STACK_ANSWERS } from './stack-answers.test.js';

const LARGE = describeBytes(6_990_726);
const HOSTING = 'Vercel Functions (4.5 MB) and AWS Lambda (6 MB, synchronous payloads) cap request bodies below that';

/** Each captured refusal: the finding's exact message, and what its hint must say. */
const REFUSALS: { name: string; message: string; hint: string[] }[] = [
  {
    name: 'express-413',
    message: 'expected status 200, got 413: an HTML page "Error": PayloadTooLargeError: request entity too large',
    hint: [`The request body was ${LARGE}; the contract has agents accept bodies up to 7 MB`, "express.json({ limit: '7mb' })", HOSTING],
  },
  {
    name: 'express-413-production',
    message: 'expected status 200, got 413: an HTML page "Error": Payload Too Large',
    hint: ['express refused it (x-powered-by: Express)', "express.json({ limit: '7mb' })", HOSTING],
  },
  {
    name: 'fastify-413',
    message:
      'expected status 200, got 413: {"statusCode":413,"code":"FST_ERR_CTP_BODY_TOO_LARGE","error":"Payload Too Large","message":"Request body is too large"}',
    hint: [
      `The request body was ${LARGE}`,
      'Fastify refused it (FST_ERR_CTP_BODY_TOO_LARGE): raise its limit with Fastify({ bodyLimit: 7 * 1024 * 1024 })',
    ],
  },
  {
    name: 'koa-413',
    message: 'expected status 200, got 413: "request entity too large"',
    hint: [
      `The request body was ${LARGE}`,
      "Koa refused it (request entity too large): raise its limit with bodyParser({ jsonLimit: '7mb' })",
    ],
  },
  {
    name: 'nginx-413',
    message: 'expected status 200, got 413: an HTML page "413 Request Entity Too Large": nginx/1.22.1',
    hint: ['nginx refused it (server: nginx/1.22.1): raise its limit with client_max_body_size 7m;', HOSTING],
  },
  {
    name: 'django-400-debug',
    message:
      'expected status 200, got 400: an HTML page "RequestDataTooBig at /agent": Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.',
    hint: ['Django refused it (RequestDataTooBig): raise its limit with DATA_UPLOAD_MAX_MEMORY_SIZE = 7 * 1024 * 1024 in settings.py'],
  },
  {
    name: 'django-400-production',
    message: 'expected status 200, got 400: an HTML page "Bad Request (400)"',
    hint: [
      `The request body was ${LARGE}`,
      // Its page says nothing of the size: the server header tells Django (runserver's wsgiref), and the size is only the likely cause.
      'If Django (server: WSGIServer/0.2 CPython/3.11.2) refused it for its size, raise its limit with DATA_UPLOAD_MAX_MEMORY_SIZE = 7 * 1024 * 1024 in settings.py (2.5 MB by default).',
    ],
  },
  {
    name: 'fastapi-422-photo-text',
    message: 'expected status 200, got 422: detail: body.message.text: ensure this value has at least 1 characters',
    hint: ['The contract sends message.text as "" when the person sends only a photo', 'drop min_length=1', 'constr(min_length=1)'],
  },
  {
    name: 'fastapi-422-photo-text-pydantic2',
    message: 'expected status 200, got 422: detail: body.message.text: String should have at least 1 character',
    hint: ['The contract sends message.text as "" when the person sends only a photo', 'Field(min_length=1)'],
  },
  {
    name: 'flask-500',
    message:
      'expected status 200, got 500: an HTML page "500 Internal Server Error": The server encountered an internal error and was unable to complete your request. Either the server is overloaded or there is an error in the application.',
    hint: ["The agent failed while answering: look at the agent's log"],
  },
];

describe('the findings on what frameworks answer, word for word', () => {
  test('every captured answer is judged here', () => {
    // The answers of servers that are not the agent are judged in test/connection-words.test.ts, the other stacks' in test/stack-answers.test.ts.
    const judged = new Set([
      ...REFUSALS.map((refusal) => refusal.name),
      'fastapi-null-optional',
      ...NOT_AN_AGENT_ANSWERS.map((answer) => answer.name),
      ...STACK_ANSWERS,
    ]);
    assert.deepEqual(
      readdirSync(DIR)
        .map((file) => file.replace(/\.json$/, ''))
        .filter((name) => !judged.has(name)),
      [],
    );
  });

  for (const { name, message, hint } of REFUSALS) {
    test(`${name} (${captured(name).producedBy})`, () => {
      const findings = judgeCaptured(captured(name));
      assert.equal(findings.length, 1);
      assert.equal(findings[0]!.rule, 'status');
      assert.equal(findings[0]!.message, message);
      for (const words of hint) assert.ok(findings[0]!.hint!.includes(words), `${findings[0]!.hint}\nmust say: ${words}`);
    });
  }

  test("pydantic's nulls (FastAPI without response_model_exclude_none): one finding, saying to leave them out", () => {
    const findings = judgeCaptured(captured('fastapi-null-optional'));
    assert.deepEqual(
      findings.map((finding) => [finding.rule, finding.path, finding.message]),
      [['schema', '/replies/0', 'buttons, image and replyTo are null; a property with no value is left out, never null']],
    );
    assert.ok(findings[0]!.hint!.includes('response_model_exclude_none=True'));
    assert.ok(findings[0]!.hint!.includes('model_dump(exclude_none=True)'));
    // uvicorn answered (its server header): no JavaScript or Go words.
    assert.ok(!/JSON\.stringify|omitempty/.test(findings[0]!.hint!), findings[0]!.hint!);
  });

  test("a 400 to a body at 1 MiB gets the status's own hint; one byte over gets the size's", () => {
    const page = captured('django-400-production');
    assert.match(judgeCaptured(page, 1_048_576)[0]!.hint!, /^The agent refused this request as invalid/);
    assert.match(judgeCaptured(page, 1_048_577)[0]!.hint!, /^The request body was 1\.05 MB \(1,048,577 bytes\)/);
  });

  test('a 413 names the size whatever the body size; a 422 never does', () => {
    assert.match(judgeCaptured(captured('nginx-413'), 300_000)[0]!.hint!, /^The request body was 300 kB \(300,000 bytes\)/);
    assert.doesNotMatch(judgeCaptured(captured('fastapi-422-photo-text'), 6_990_726)[0]!.hint!, /request body was/);
  });
});

/** A raw agent that answers the photo with a captured answer, byte for byte, and anything else as the reference agent. */
function replaying(fixture: Captured): (request: RawRequest, socket: import('node:net').Socket) => void {
  return (request, socket) => {
    const photo = request.method === 'POST' && request.body.includes('"kind":"image"');
    if (!photo) {
      const body = referenceBody(request);
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
      if (request.method !== 'HEAD') socket.write(body);
      return;
    }
    const { status, statusText, headers, body } = fixture.answer;
    socket.write(
      `HTTP/1.1 ${status} ${statusText}\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}\r\n`,
    );
    socket.end(body);
  };
}

describe('captured answers served byte for byte on loopback: the photo case fails with their words', () => {
  for (const name of ['nginx-413', 'django-400-debug', 'flask-500', 'fastapi-422-photo-text']) {
    describe(name, () => {
      let server: RawServer | undefined;
      before(async () => {
        server = await startRawServer(replaying(captured(name)));
      });
      after(async () => {
        await server?.close();
      });
      test('fails exactly whatsapp/photo, rule status, quoting the words and not the markup', async () => {
        const report = await checkEndpoint(server!.url, { channels: ['whatsapp'] });
        assert.deepEqual(
          report.cases.filter((c) => !c.passed).map((c) => c.id),
          ['photo'],
        );
        const photo = report.cases.find((c) => c.id === 'photo')!;
        assert.deepEqual(
          photo.findings.map((finding) => finding.rule),
          ['status'],
        );
        const sent = server!.requests.find((request) => request.body.includes('"kind":"image"'))!.body.length;
        const expected = REFUSALS.find((refusal) => refusal.name === name)!;
        assert.equal(photo.findings[0]!.message, expected.message);
        assert.doesNotMatch(photo.findings[0]!.message, /<[a-z!]/i, 'no markup');
        if (name === 'nginx-413') assert.ok(photo.findings[0]!.hint!.startsWith(`The request body was ${describeBytes(sent)};`));
      });
    });
  }
});
