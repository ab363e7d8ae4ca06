/**
 * The pure pieces behind the words of the findings: an HTML page's title and first line, null
 * properties, a list of replies named otherwise, a streamed answer, FastAPI's `detail`, and the
 * hint of a text too long for its platform.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HttpAnswer } from '../src/http/client.js';
import { validateAnswer } from '../src/index.js';
import { htmlSummary, htmlTitle, looksLikeHtml } from '../src/validate/html-text.js';
import { withoutNullProperties } from '../src/validate/null-properties.js';
import { requestSizeHint } from '../src/validate/request-size-hints.js';
import { answeringStack } from '../src/validate/answering-stack.js';
import { streamKind, streamedAnswerFinding } from '../src/validate/streamed-answer.js';
import { refusedFields } from '../src/validate/validation-detail.js';
import { emptyFieldHint } from '../src/validate/refusal-hints.js';

const shapes = (body: unknown, channel = 'whatsapp') =>
  validateAnswer(body, { channel, personMessageIds: ['p1'] }).map((finding) => `${finding.rule} ${finding.path}: ${finding.message}`);

function answer(headers: Record<string, string>, body: string): HttpAnswer {
  return { kind: 'answer', status: 200, httpVersion: '1.1', statusText: 'OK', headers, body: Buffer.from(body), latencyMs: 1 };
}

describe('htmlTitle and htmlSummary: an error page in words', () => {
  test('the title, else the first heading; entities decoded, white space made one space', () => {
    assert.equal(htmlTitle('<html><head><title>\n  Bad &amp; Wrong\n</title></head></html>'), 'Bad & Wrong');
    assert.equal(htmlTitle('<body><h2>Service &#x27;agent&#39; unavailable</h2></body>'), "Service 'agent' unavailable");
    assert.equal(htmlTitle('<p>no title here</p>'), undefined);
  });
  test('the first line of text that says more than the title; styles, scripts and comments are no text', () => {
    const page =
      '<!DOCTYPE html><html><head><title>Oops</title><style>body{color:red}</style><script>var x = "<p>not text</p>";</script></head>' +
      '<body><!-- <p>a comment</p> --><h1>Oops</h1><pre>TypeError: x is undefined<br> &nbsp;at handler</pre></body></html>';
    assert.equal(htmlSummary(page), '"Oops": TypeError: x is undefined');
  });
  test('a page with no title is its first line; a page with no text is undefined', () => {
    assert.equal(htmlSummary('<div>Gateway timeout</div><div>again later</div>'), 'Gateway timeout');
    assert.equal(htmlSummary('<html><body></body></html>'), undefined);
  });
  test('a long line is cut to a quotable length', () => {
    const line = htmlSummary(`<p>${'word '.repeat(100)}</p>`)!;
    assert.equal(line.length, 160);
    assert.ok(line.endsWith('…'));
  });
  test('linear in the page, whatever it holds: 200,000 unclosed tags and scripts end at once', () => {
    // A quadratic reader would take minutes on these; each is read once.
    assert.equal(htmlSummary('<script'.repeat(200_000)), undefined);
    assert.equal(htmlSummary(`<title>t</title>${'<style>'.repeat(100_000)}`), '"t"');
    assert.equal(htmlSummary(`<p>${'<'.repeat(200_000)}`), undefined);
  });
  test('looksLikeHtml: by content-type, or by the first tag', () => {
    assert.equal(looksLikeHtml('text/html; charset=utf-8', 'x'), true);
    assert.equal(looksLikeHtml(undefined, '\n<!doctype html><p>'), true);
    assert.equal(looksLikeHtml('application/json', '{"html":"<html>"}'), false);
  });
});

describe('null properties: one finding per reply, and nothing invented from them', () => {
  test('a list and an image both null are no list with an image', () => {
    assert.deepEqual(
      shapes({ replies: [{ type: 'message', text: 'hi', buttons: null, list: null, link: null, image: null, replyTo: null }] }),
      ['schema /replies/0: buttons, list, link, image and replyTo are null; a property with no value is left out, never null'],
    );
  });
  test('one finding per reply, beside the real problems of the rest of the answer', () => {
    assert.deepEqual(
      shapes({
        replies: [
          { type: 'message', text: 'Pick one', buttons: ['a', 'b', 'c', 'd'], image: null },
          {
            type: 'message',
            text: 'x',
            list: { button: 'Open', sections: [{ title: null, rows: [{ id: 'r', title: 'R', description: null }] }] },
          },
        ],
      }),
      [
        'schema /replies/0: image is null; a property with no value is left out, never null',
        'platform /replies/0/buttons: 4 buttons; WhatsApp shows at most 3, so this reply is not sent',
        'schema /replies/1: list.sections[0].title and list.sections[0].rows[0].description are null; a property with no value is left out, never null',
      ],
    );
  });
  test('a required property sent as null is said to be null and required', () => {
    assert.deepEqual(shapes({ replies: null }), ['schema : "replies" is null; it is required']);
    assert.deepEqual(shapes({ replies: [{ type: 'message', text: 'See', link: { url: 'https://example.com', label: null } }] }), [
      'schema /replies/0/link: "label" is null; it is required',
    ]);
  });
  test('an answer without nulls is not copied; one with nulls is copied, the original untouched', () => {
    assert.equal(withoutNullProperties({ replies: [{ type: 'message', text: 'hi' }] }), undefined);
    const original = { replies: [{ type: 'message', text: 'hi', image: null }] };
    const stripped = withoutNullProperties(original)!;
    assert.deepEqual(stripped.value, { replies: [{ type: 'message', text: 'hi' }] });
    assert.deepEqual(stripped.nulls, [{ parent: '/replies/0', name: 'image' }]);
    assert.equal(original.replies[0]!.image, null);
  });
  test('bounded: 100,000 levels of nesting, 20,000 replies with nulls', () => {
    let deep: unknown = { leaf: null };
    for (let level = 0; level < 100_000; level++) deep = { next: deep };
    assert.ok(shapes({ replies: [], deep }).length > 0);
    const flood = shapes({ replies: Array.from({ length: 20_000 }, () => ({ type: 'message', text: 'hi', image: null })) });
    assert.equal(flood.length, 50, 'capped at 50 findings a turn');
  });
});

describe('a list of replies under another name', () => {
  for (const name of ['messages', 'reply', 'responses', 'output']) {
    test(`{ "${name}": [...] } is told to rename it to replies, in one finding`, () => {
      const findings = validateAnswer({ [name]: [{ type: 'message', text: 'hi' }] }, { channel: 'web' });
      assert.equal(findings.length, 1);
      assert.equal(findings[0]!.path, `/${name}`);
      assert.equal(findings[0]!.hint, `Rename "${name}" to "replies": the answer is { "replies": [...] }.`);
    });
  }
  test('a text under output is told to go in a list named replies', () => {
    const [finding] = validateAnswer({ output: 'hi' }, { channel: 'web' });
    assert.equal(
      finding!.hint,
      'Answer { "replies": [{ "type": "message", "text": "..." }] }: the replies go in a list named "replies", not "output".',
    );
  });
  test('beside replies, or beside other properties, it is only an unknown property', () => {
    assert.deepEqual(
      validateAnswer({ replies: [], messages: [] }, { channel: 'web' }).map((finding) => finding.hint),
      ['Remove it: the answer schema allows no other properties.'],
    );
    assert.equal(validateAnswer({ messages: [], status: 'ok' }, { channel: 'web' }).length, 3);
  });
});

describe('a streamed answer', () => {
  const sse = 'data: {"type":"start"}\n\ndata: {"type":"text-delta","id":"0","delta":"Hi"}\n\n';
  test('server-sent events, the AI SDK UI message and data streams, and chunked plain text are streams', () => {
    assert.match(streamKind(answer({ 'content-type': 'text/event-stream' }, sse))!, /^a stream of server-sent events/);
    assert.match(streamKind(answer({}, sse))!, /^a stream of server-sent events/);
    assert.match(
      streamKind(answer({ 'x-vercel-ai-ui-message-stream': 'v1', 'content-type': 'text/event-stream' }, sse))!,
      /UI message stream/,
    );
    assert.match(streamKind(answer({ 'x-vercel-ai-data-stream': 'v1' }, '0:"Hi"\n'))!, /data stream/);
    assert.match(
      streamKind(answer({ 'content-type': 'text/plain; charset=utf-8', 'transfer-encoding': 'chunked' }, 'We are open'))!,
      /chunked text\/plain/,
    );
  });
  test('plain text sent whole, and HTML, are no stream', () => {
    assert.equal(streamKind(answer({ 'content-type': 'text/plain', 'content-length': '11' }, 'We are open')), undefined);
    assert.equal(streamKind(answer({ 'content-type': 'text/html', 'transfer-encoding': 'chunked' }, '<p>x</p>')), undefined);
  });
  test('the finding quotes the first lines and says to collect the answer', () => {
    const finding = streamedAnswerFinding(answer({ 'content-type': 'text/event-stream' }, sse))!;
    assert.equal(finding.rule, 'json');
    assert.ok(finding.message.includes('data: {\\"type\\":\\"start\\"}'), finding.message);
    assert.match(finding.hint!, /collect the whole answer, then send it once as JSON/);
  });
});

describe("FastAPI's detail", () => {
  test('each loc and msg, in pydantic 1 and 2', () => {
    assert.deepEqual(
      refusedFields({
        detail: [{ loc: ['body', 'message', 'attachments', 0, 'data'], msg: 'field required', type: 'value_error.missing' }],
      }),
      [{ where: 'body.message.attachments[0].data', field: ['message', 'attachments', 0, 'data'], message: 'field required' }],
    );
    assert.equal(refusedFields({ detail: 'Not Found' }), undefined);
    assert.equal(refusedFields({ detail: [{ loc: 'body', msg: 'x' }] }), undefined);
  });
  test('only a field the contract fills with "" gets the empty-string hint', () => {
    assert.match(emptyFieldHint(refusedFields({ detail: [{ loc: ['body', 'message', 'text'], msg: 'x' }] })!)!, /message\.text as ""/);
    assert.equal(emptyFieldHint(refusedFields({ detail: [{ loc: ['body', 'messageId'], msg: 'x' }] })!), undefined);
  });
});

describe('a text too long for its platform: the hint fits the reply', () => {
  const FOR_MODEL = ' For a model: `check-endpoint limits whatsapp --prompt`';
  const hintOf = (reply: Record<string, unknown>) =>
    validateAnswer({ replies: [{ type: 'message', ...reply }] }, { channel: 'whatsapp' }).find((finding) => finding.path.endsWith('/text'))!
      .hint;
  test('no control: split it, with nothing said of a control', () => {
    assert.equal(hintOf({ text: 'x'.repeat(4097) }), `Shorten the text, or split it over several messages.${FOR_MODEL}`);
  });
  test('buttons, a list or a link: put that on the last message', () => {
    assert.equal(
      hintOf({ text: 'x'.repeat(1025), buttons: ['Yes'] }),
      `Shorten the text, or split it over several messages and put the buttons on the last one.${FOR_MODEL}`,
    );
    assert.equal(
      hintOf({ text: 'x'.repeat(1025), link: { url: 'https://example.com', label: 'Open' } }),
      `Shorten the text, or split it over several messages and put the link on the last one.${FOR_MODEL}`,
    );
  });
  test('an image: a short caption, the rest after it', () => {
    assert.match(hintOf({ text: 'x'.repeat(1025), image: { url: 'https://example.com/a.jpg' } })!, /^Shorten the caption/);
  });
});

describe("Next.js's refusal of a large body", () => {
  test('"Body exceeded 1mb limit" (its API routes: ApiError(413) from parse-body, sent as the body) names sizeLimit', () => {
    const refusal: HttpAnswer = { ...answer({}, 'Body exceeded 1mb limit'), status: 413, statusText: 'Body exceeded 1mb limit' };
    const hint = requestSizeHint(refusal, 6_990_726, 7_000_000, answeringStack(refusal))!;
    assert.ok(
      hint.includes(
        "Next.js refused it (Body exceeded 1mb limit): raise its limit with export const config = { api: { bodyParser: { sizeLimit: '7mb' } } }",
      ),
      hint,
    );
  });
  test('a 200 or a 404 is no size refusal', () => {
    const notFound: HttpAnswer = { ...answer({}, 'Not Found'), status: 404 };
    assert.equal(requestSizeHint(notFound, 6_990_726, 7_000_000, answeringStack(notFound)), undefined);
  });
});

test('an HTML page that echoes a secret is quoted with the mark <redacted>, never with the mark taken for a tag', () => {
  const page = '<html><head><title>Boom <redacted></title></head><body><p>key <redacted> refused</p></body></html>';
  assert.equal(htmlSummary(page), '"Boom <redacted>": key <redacted> refused');
});

describe('every schema finding has a hint that fits its field', () => {
  test('replyTo "": leave it out, or quote one of the person’s messages', () => {
    const [finding] = validateAnswer(
      { replies: [{ type: 'message', text: 'Yes', replyTo: '' }] },
      { channel: 'web', personMessageIds: ['p1'] },
    );
    assert.equal(finding!.message, 'expected a non-empty string, got ""');
    assert.equal(
      finding!.hint,
      'Leave replyTo out when the reply quotes nothing; to quote, give the messageId of one of the person\u2019s messages in this conversation.',
    );
  });

  test('a wrong type and an empty button label: each with a hint naming the field', () => {
    const cases: [unknown, RegExp][] = [
      [{ replies: [{ type: 'message', text: 7 }] }, /^Send text as a string\.$/],
      [
        { replies: [{ type: 'message', text: 'Pick one', buttons: [''] }] },
        /^Change buttons\[0\] to follow that rule of the response schema/,
      ],
    ];
    for (const [answer, hint] of cases) {
      const findings = validateAnswer(answer, { channel: 'web', personMessageIds: ['p1'] }).filter((finding) => finding.rule === 'schema');
      assert.ok(findings.length > 0, JSON.stringify(answer));
      for (const finding of findings) assert.ok(finding.hint, `${finding.message} has a hint`);
      assert.ok(
        findings.some((finding) => hint.test(finding.hint ?? '')),
        findings.map((finding) => finding.hint).join('\n'),
      );
    }
  });
});
