/**
 * Hints that fit the reply (issue 54, item 5): a hint on a part the channel does not take (buttons
 * or a list on SMS, more buttons or a longer label than WhatsApp shows) names the fix in the
 * stack's words where the answer told its stack (a Go `switch channel` and the café agent's
 * `shape()`, Python's `if channel == "sms"`, JavaScript's `switch (request.channel)`), and the
 * model line (`For a model: check-endpoint limits CHANNEL --prompt`) only where a model wrote the
 * answer's text: this reply's, or another reply's of the same answer (a model's answer cut into
 * bubbles ends in a short one). Each row says what its hint must hold and must not.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AnsweringStack } from '../src/validate/answering-stack.js';
import { judgeAnswer } from '../src/validate/validate-answer.js';

const GO: AnsweringStack = { id: 'go', sign: "Go's net/http headers" };
const FASTAPI: AnsweringStack = { id: 'uvicorn', sign: 'server: uvicorn' };
const NODE: AnsweringStack = { id: 'node', sign: "Keep-Alive: timeout=5 (Node's http)" };
const SPRING: AnsweringStack = { id: 'spring', sign: 'server: Tomcat' };

const HAND = 'What can I get you?';
/** A model's reply: a paragraph, then a bulleted list. */
const MODEL = 'Here is what we have today.\n\n- Latte\n- Tea';

const message = (text: string, extra: Record<string, unknown>) => ({ type: 'message', text, ...extra });

const GO_WAY =
  /Go \(net\/http, encoding\/json\) \(told by Go's net\/http headers\): .*switch channel \{ case "sms".*shape\(channel, text, choices\).*examples\/http-agent-go/;
const PYTHON_WAY =
  /uvicorn \(FastAPI, Starlette\) \(told by server: uvicorn\): .*if channel == "sms".*shape\(channel, text, choices\).*examples\/http-agent-python/;
const NODE_WAY =
  /Node\.js \(told by Keep-Alive: timeout=5 \(Node's http\)\): .*switch \(request\.channel\).*referenceAnswer\(request, rules\)/;
const MODEL_LINE = /For a model: `check-endpoint limits (sms|whatsapp) --prompt`$/;
const ANY_STACK = /told by/;

interface Row {
  what: string;
  replies: unknown[];
  channel: string;
  stack: AnsweringStack | undefined;
  /** The pointer of the finding whose hint is read. */
  pointer: string;
  has: RegExp[];
  hasNot: RegExp[];
}

const ROWS: Row[] = [
  {
    what: 'a hand-written Go reply with buttons on SMS: the Go way, no model line',
    replies: [message(HAND, { buttons: ['Coffee', 'Tea'] })],
    channel: 'sms',
    stack: GO,
    pointer: '/replies/0/buttons',
    has: [/^Send the options as plain text on SMS/, GO_WAY],
    hasNot: [/For a model/],
  },
  {
    what: "a model's Go reply with buttons on SMS: the Go way, then the model line",
    replies: [message(MODEL, { buttons: ['Coffee', 'Tea'] })],
    channel: 'sms',
    stack: GO,
    pointer: '/replies/0/buttons',
    has: [GO_WAY, MODEL_LINE],
    hasNot: [],
  },
  {
    what: "a model's answer cut into bubbles, buttons on its short last one: the model line on that one's hint",
    replies: [message(`${MODEL} ${'We also bake. '.repeat(10)}`, {}), message('Reply with a choice.', { buttons: ['Coffee', 'Tea'] })],
    channel: 'sms',
    stack: GO,
    pointer: '/replies/1/buttons',
    has: [GO_WAY, MODEL_LINE],
    hasNot: [],
  },
  {
    what: 'a hand-written Go reply with a list on SMS: the Go way',
    replies: [message(HAND, { list: { button: 'Menu', sections: [{ rows: [{ id: 'a', title: 'Latte' }] }] } })],
    channel: 'sms',
    stack: GO,
    pointer: '/replies/0/list',
    has: [GO_WAY],
    hasNot: [/For a model/],
  },
  {
    what: 'four buttons on WhatsApp from Go: the Go way',
    replies: [message(HAND, { buttons: ['a', 'b', 'c', 'd'] })],
    channel: 'whatsapp',
    stack: GO,
    pointer: '/replies/0/buttons',
    has: [/^Offer at most 3 buttons, or use a list\./, GO_WAY],
    hasNot: [/For a model/],
  },
  {
    what: 'a button label too long for WhatsApp from Go: the Go way',
    replies: [message(HAND, { buttons: ['a label much too long for it'] })],
    channel: 'whatsapp',
    stack: GO,
    pointer: '/replies/0/buttons/0',
    has: [/^Shorten the label\./, GO_WAY],
    hasNot: [/For a model/],
  },
  {
    what: "a hand-written FastAPI reply with buttons on SMS: Python's way",
    replies: [message(HAND, { buttons: ['Coffee', 'Tea'] })],
    channel: 'sms',
    stack: FASTAPI,
    pointer: '/replies/0/buttons',
    has: [PYTHON_WAY],
    hasNot: [/For a model/, /switch channel/],
  },
  {
    what: "a hand-written Node reply with buttons on SMS: JavaScript's way",
    replies: [message(HAND, { buttons: ['Coffee', 'Tea'] })],
    channel: 'sms',
    stack: NODE,
    pointer: '/replies/0/buttons',
    has: [NODE_WAY],
    hasNot: [/For a model/],
  },
  {
    what: 'a stack with no words for it (Spring): the hint alone',
    replies: [message(HAND, { buttons: ['Coffee', 'Tea'] })],
    channel: 'sms',
    stack: SPRING,
    pointer: '/replies/0/buttons',
    has: [/^Send the options as plain text on SMS, for example a numbered list the person answers by number\.$/],
    hasNot: [ANY_STACK, /For a model/],
  },
  {
    what: 'no stack told, hand-written: the hint alone',
    replies: [message(HAND, { buttons: ['Coffee', 'Tea'] })],
    channel: 'sms',
    stack: undefined,
    pointer: '/replies/0/buttons',
    has: [/^Send the options as plain text on SMS, for example a numbered list the person answers by number\.$/],
    hasNot: [ANY_STACK, /For a model/],
  },
  {
    what: "no stack told, a model's text: the model line alone",
    replies: [message(MODEL, { buttons: ['Coffee', 'Tea'] })],
    channel: 'sms',
    stack: undefined,
    pointer: '/replies/0/buttons',
    has: [MODEL_LINE],
    hasNot: [ANY_STACK],
  },
  {
    what: "a list opener too long (a label written by hand, not a channel's shape): no stack line",
    replies: [message(HAND, { list: { button: 'See the whole menu today!', sections: [{ rows: [{ id: 'a', title: 'Latte' }] }] } })],
    channel: 'whatsapp',
    stack: GO,
    pointer: '/replies/0/list/button',
    has: [/^Shorten the label\.$/],
    hasNot: [ANY_STACK, /For a model/],
  },
];

describe('a hint on a part the channel does not take: the stack’s way where it is known, the model line where a model wrote the text', () => {
  for (const row of ROWS) {
    test(row.what, () => {
      const { findings } = judgeAnswer({ replies: row.replies }, { channel: row.channel }, () => row.stack);
      const finding = findings.find((candidate) => candidate.path === row.pointer && candidate.rule === 'platform');
      assert.ok(
        finding,
        `expected a platform finding at ${row.pointer}; got ${findings.map((found) => `${found.rule} ${found.path}`).join(', ')}`,
      );
      const hint = finding.hint ?? '';
      for (const pattern of row.has) assert.match(hint, pattern, `the hint at ${row.pointer} should match ${pattern}; it is: ${hint}`);
      for (const pattern of row.hasNot)
        assert.doesNotMatch(hint, pattern, `the hint at ${row.pointer} should not match ${pattern}; it is: ${hint}`);
    });
  }
});
