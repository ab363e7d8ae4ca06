/**
 * Each stack's fix in its own words, judged on what the stack really answered: Go's net/http and
 * encoding/json, gin, echo, aiohttp, Starlette, Tornado, the JDK's HttpServer with Jackson, PHP's
 * built-in server and Sinatra, each run on this machine by scripts/framework-answers/capture.ts
 * into fixtures/framework-answers/ (status, headers, the header names in the order sent, body).
 * For the null rule, the null replies, the body limit, an unknown request field, a body that is
 * not JSON, the content type and a refused empty text: the hint names the fix in the stack that
 * answered, and the words of no other stack. An answer that tells no stack gets the short rule and
 * one line of the usual fixes. The Go answers are also served byte for byte, header order and
 * all, from a raw server on loopback, and checked end to end.
 */
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type RawRequest, type RawServer, referenceBody, startRawServer } from './raw-http-server.js';
import { checkEndpoint } from '../src/index.js';
import { type Captured, asAnswer, captured, judgeCaptured } from './captured-answers.js';
import { GROSS, refusalFindings } from '../src/cases/quality/malformed.js';
import { refusalHint as unknownFieldsHint } from '../src/cases/quality/forward-compat.js';

/** What a hint says in each stack family's words; a hint names its own family's and no other's. */
const FAMILY_WORDS = {
  go: /omitempty|MaxBytesReader|DisallowUnknownFields|net\/http|encoding\/json|\[\]Reply\{\}|Go \((gin|echo)\)|binding:|middleware\.BodyLimit/,
  python: /pydantic|FastAPI|exclude_none|aiohttp|Starlette|Django|Flask|Tornado|uvicorn|JSONDecodeError|\bNone\b/,
  javascript: /JSON\.stringify|express|Fastify|\bKoa\b|hapi|Next\.js|\bundefined\b|try\/catch/,
  java: /Jackson|JsonInclude|HttpServer|sendResponseHeaders|System\.Text\.Json|WhenWritingNull/,
  php: /\bPHP\b|json_encode|php\.ini/,
  ruby: /Sinatra|\bRack\b|to_json|JSON::ParserError/,
  nginx: /nginx|client_max_body_size/,
} as const;
type Family = keyof typeof FAMILY_WORDS;

/** How the case that meets this answer judges it. */
type Judged = 'answer' | 'large body' | 'unknown field' | 'not JSON' | 'photo';

/** The one hint of the one finding a case gives on the captured answer. */
function hintOn(name: string, judged: Judged): string {
  const fixture = captured(name);
  const answer = asAnswer(fixture);
  if (judged === 'unknown field') return unknownFieldsHint(answer);
  const findings = judged === 'not JSON' ? refusalFindings(answer, GROSS[0]!, GROSS.length) : judgeCaptured(fixture);
  assert.equal(findings.length, 1, `${name}: ${JSON.stringify(findings)}`);
  assert.ok(findings[0]!.hint, `${name}: a hint`);
  return findings[0]!.hint;
}

const CASES: { name: string; judged: Judged; family: Family; says: string[] }[] = [
  // Go: net/http and encoding/json.
  {
    name: 'go-null-buttons',
    judged: 'answer',
    family: 'go',
    says: ["Go (net/http, encoding/json) (told by Go's net/http headers)", 'json:"buttons,omitempty"'],
  },
  { name: 'go-nil-replies', judged: 'answer', family: 'go', says: ['Replies: []Reply{}', 'a nil slice marshals as null'] },
  {
    name: 'go-400-body-too-large',
    judged: 'large body',
    family: 'go',
    says: ['(http: request body too large)', 'http.MaxBytesReader(w, r.Body, 7<<20)'],
  },
  {
    name: 'go-400-unknown-field',
    judged: 'unknown field',
    family: 'go',
    says: ['json: unknown field "sentAt"', 'DisallowUnknownFields()'],
  },
  { name: 'go-500-not-json', judged: 'not JSON', family: 'go', says: ['json.NewDecoder(r.Body).Decode(&req)', 'http.StatusBadRequest'] },
  { name: 'go-200-text-plain', judged: 'answer', family: 'go', says: ['w.Header().Set("Content-Type", "application/json")'] },
  { name: 'gin-400-binding-required', judged: 'photo', family: 'go', says: ['message.text as ""', 'Go (gin)', 'binding:"required"'] },
  { name: 'echo-413-body-limit', judged: 'large body', family: 'go', says: ['Go (echo)', 'e.Use(middleware.BodyLimit("7M"))'] },
  // Python beside FastAPI, Flask and Django.
  {
    name: 'aiohttp-413',
    judged: 'large body',
    family: 'python',
    says: ['aiohttp refused it (Maximum request body size 1048576 exceeded', 'client_max_size=7 * 1024**2'],
  },
  { name: 'aiohttp-500-not-json', judged: 'not JSON', family: 'python', says: ['aiohttp', 'await request.json()', 'status=400'] },
  { name: 'aiohttp-null-optional', judged: 'answer', family: 'python', says: ['aiohttp', 'web.json_response'] },
  { name: 'starlette-500-not-json', judged: 'not JSON', family: 'python', says: ['server: uvicorn', 'status_code=400'] },
  { name: 'starlette-null-optional', judged: 'answer', family: 'python', says: ['server: uvicorn', 'JSONResponse'] },
  { name: 'tornado-500-not-json', judged: 'not JSON', family: 'python', says: ['Tornado', 'json.loads(self.request.body)'] },
  { name: 'tornado-null-optional', judged: 'answer', family: 'python', says: ['Tornado', 'self.write'] },
  { name: 'tornado-200-text-html', judged: 'answer', family: 'python', says: ['Tornado', 'self.write(answer) with a dict'] },
  // Java: the JDK's HttpServer and Jackson.
  {
    name: 'jdk-jackson-400-unknown-field',
    judged: 'unknown field',
    family: 'java',
    says: ['Java (Jackson)', 'FAIL_ON_UNKNOWN_PROPERTIES, false'],
  },
  {
    name: 'jdk-jackson-500-not-json',
    judged: 'not JSON',
    family: 'java',
    says: ["Java (the JDK's HttpServer)", 'sendResponseHeaders(400'],
  },
  { name: 'jdk-jackson-null-optional', judged: 'answer', family: 'java', says: ['JsonInclude.Include.NON_NULL'] },
  // PHP and Ruby.
  { name: 'php-null-optional', judged: 'answer', family: 'php', says: ['PHP (told by x-powered-by: PHP/', 'array_filter'] },
  { name: 'php-200-text-html', judged: 'answer', family: 'php', says: ["header('Content-Type: application/json')"] },
  { name: 'sinatra-null-optional', judged: 'answer', family: 'ruby', says: ['Ruby (Rack)', 'reply.compact'] },
  { name: 'sinatra-200-text-html', judged: 'answer', family: 'ruby', says: ['Ruby (Sinatra)', 'content_type :json'] },
  { name: 'sinatra-500-not-json', judged: 'not JSON', family: 'ruby', says: ['Ruby (Sinatra)', 'rescue JSON::ParserError'] },
];

/** Every fixture this file judges, for test/framework-answers.test.ts's "every captured answer is judged". */
export const STACK_ANSWERS: readonly string[] = CASES.map(({ name }) => name);

describe("each stack's fix in its own words, on its captured answer", () => {
  for (const { name, judged, family, says } of CASES) {
    test(`${name} (${captured(name).producedBy}): names the ${family} fix and no other stack's`, () => {
      const hint = hintOn(name, judged);
      for (const words of says) assert.ok(hint.includes(words), `${hint}\nmust say: ${words}`);
      assert.doesNotMatch(hint, /The usual fixes/, 'the stack is told, so its fix alone');
      for (const [other, words] of Object.entries(FAMILY_WORDS))
        if (other !== family) assert.doesNotMatch(hint, words, `${name}: no ${other} words in: ${hint}`);
      assert.ok(hint.length <= 600, `${hint.length} characters: ${hint}`);
    });
  }

  test('an answer that tells no stack gets the rule and one line of the usual fixes', () => {
    const fixture = captured('go-null-buttons');
    // The same body, on headers no server of ours writes: nothing tells the stack.
    const untold: Captured = {
      ...fixture,
      answer: { ...fixture.answer, headers: { 'content-type': 'application/json' }, headerNames: ['content-type'] },
    };
    const [finding] = judgeCaptured(untold);
    assert.equal(
      finding!.hint,
      'Leave out a property that has no value, never send it as null. The usual fixes: Go: ,omitempty; pydantic: exclude_none=True; Jackson: @JsonInclude(NON_NULL); System.Text.Json: WhenWritingNull; JavaScript: leave it undefined.',
    );
  });
});

/** A raw agent that answers the typed case (and forward-compat's request) with a captured answer, byte for byte, header order and all. */
function replaying(fixture: Captured, when: (request: RawRequest) => boolean): (request: RawRequest, socket: Socket) => void {
  return (request, socket) => {
    if (request.method !== 'POST' || !when(request)) {
      const body = referenceBody(request);
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
      if (request.method !== 'HEAD') socket.write(body);
      return;
    }
    const { status, statusText, headers, headerNames, body } = fixture.answer;
    assert.ok(headerNames, 'a capture with its header names, in order');
    const lines = headerNames.map((name) => `${name}: ${name === 'Date' ? new Date().toUTCString() : headers[name.toLowerCase()]}\r\n`);
    socket.write(`HTTP/1.1 ${status} ${statusText}\r\n${lines.join('')}\r\n`);
    socket.write(body);
  };
}

describe("Go's answers served byte for byte on loopback: the failing case names the Go fix", () => {
  const served: { name: string; caseId: string; rule: string; when: (request: RawRequest) => boolean; says: string }[] = [
    { name: 'go-null-buttons', caseId: 'typed', rule: 'schema', when: () => true, says: 'json:"buttons,omitempty"' },
    { name: 'go-nil-replies', caseId: 'typed', rule: 'schema', when: () => true, says: 'Replies: []Reply{}' },
    {
      name: 'go-400-unknown-field',
      caseId: 'quality/forward-compat',
      rule: 'forward-compat',
      when: (request) => request.body.includes('"sentAt"'),
      says: 'DisallowUnknownFields()',
    },
  ];
  for (const { name, caseId, rule, when, says } of served) {
    describe(name, () => {
      let server: RawServer | undefined;
      before(async () => {
        server = await startRawServer(replaying(captured(name), when));
      });
      after(async () => {
        await server?.close();
      });
      test(`${caseId} fails with rule ${rule}, its hint naming ${says} and neither FastAPI nor JavaScript`, async () => {
        const report = await checkEndpoint(server!.url, { env: {}, channels: ['whatsapp'], cases: [caseId] });
        const [played] = report.cases;
        assert.equal(report.cases.length, 1);
        assert.equal(played!.passed, false);
        assert.deepEqual(
          played!.findings.map((finding) => finding.rule),
          [rule],
        );
        const hint = played!.findings[0]!.hint ?? '';
        assert.ok(hint.includes(says), hint);
        assert.doesNotMatch(hint, /FastAPI|pydantic|JSON\.stringify|JavaScript/, hint);
      });
    });
  }
});
