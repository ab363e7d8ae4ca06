/**
 * What the checker sends: a recording agent (the reference agent behind serveAgent, on loopback)
 * keeps every request body, and the tests hold them to the contract: the request schema, a fresh
 * conversation per case and per run, unique message ids, turns in order and one at a time, the
 * photo, and the button tap. An agent whose requests wait for each other shows conversations run side by side.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { MessageReply } from '../src/core/answer.js';
import type { AgentRequest } from '../src/core/request.js';
import type { CaseReport, Report } from '../src/core/report.js';
import { MADE_UP_CHOICE } from '../src/cases/button-tap.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { checkEndpoint } from '../src/run/check-endpoint.js';
import { barrier } from '../fixtures/agents/barrier.js';
import { recordedRequest } from '../src/run/recorded-request.js';
import { ROOT } from './helpers.js';
import { createAjv } from '../src/contract/ajv.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { CHANNELS, FIXED_CASE_IDS } from './contract-ids.js';

const contract = bundledContract();
const rulesFor = (channel: string) => (Object.hasOwn(contract.platforms, channel) ? contract.platforms[channel] : undefined);

interface Recorded {
  /** Arrival order across the whole agent, from 0. */
  seq: number;
  body: AgentRequest;
  headers: IncomingHttpHeaders;
}

/** The reference agent, recording every request it receives, in arrival order. */
async function recordingAgent(): Promise<{ agent: RunningAgent; requests: Recorded[] }> {
  const requests: Recorded[] = [];
  const agent = await serveAgent((body, raw) => {
    requests.push({ seq: requests.length, body: structuredClone(body), headers: raw.headers });
    return referenceAnswer(body, rulesFor(body.channel));
  });
  return { agent, requests };
}

function assertPassed(report: Report): void {
  const findings = report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}/${c.id}: ${f.rule}: ${f.message}`));
  assert.deepEqual(findings, []);
  assert.equal(report.outcome, 'passed');
  assert.equal(report.exitCode, 0);
}

describe('the requests the checker sends', () => {
  let agent: RunningAgent;
  let requests: Recorded[];
  let first: Report;
  let firstRequests: Recorded[];
  let second: Report;
  let secondRequests: Recorded[];

  before(async () => {
    ({ agent, requests } = await recordingAgent());
    // No token variable: the requests must carry no authorization header.
    first = await checkEndpoint(agent.url, { channels: ['all'], env: {} });
    firstRequests = requests.splice(0);
    second = await checkEndpoint(agent.url, { channels: ['all'], env: {} });
    secondRequests = requests.splice(0);
  });

  after(async () => {
    await agent?.close();
  });

  const caseOf = (report: Report, channel: string, id: string): CaseReport => {
    const found = report.cases.find((c) => c.channel === channel && c.id === id);
    assert.ok(found, `the report has ${channel}/${id}`);
    return found;
  };
  const inConversation = (recorded: Recorded[], conversationId: string) => recorded.filter((r) => r.body.conversationId === conversationId);
  /** Each run's report with the requests the agent received during it. */
  const bothRuns = (): [Report, Recorded[]][] => [
    [first, firstRequests],
    [second, secondRequests],
  ];

  test('both runs pass, and the agent received exactly the turns the reports show', () => {
    for (const [report, recorded] of bothRuns()) {
      assertPassed(report);
      assert.equal(report.cases.length, CHANNELS.length * FIXED_CASE_IDS.length);
      const turns = report.cases.flatMap((c) => c.turns);
      assert.equal(recorded.length, turns.length, 'one POST per turn, no retries');
      assert.equal(recorded.length, CHANNELS.length * (1 + 2 + 1 + 2 + 1), 'each channel 7 turns');
      for (const caseReport of report.cases) {
        assert.deepEqual(
          inConversation(recorded, caseReport.conversationId).map((r) => recordedRequest(r.body)),
          caseReport.turns.map((turn) => turn.request),
          `${caseReport.channel}/${caseReport.id}: the bodies as reported (attachment data over 1 KB by size and digest)`,
        );
      }
    }
  });

  test('every request matches spec/request.schema.json and is sent as JSON with no token', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'spec/request.schema.json'), 'utf8')) as Record<string, unknown>;
    const validate = createAjv().compile(schema);
    for (const recorded of [...firstRequests, ...secondRequests]) {
      assert.ok(validate(recorded.body), `${recorded.body.conversationId} ${recorded.body.messageId}: ${JSON.stringify(validate.errors)}`);
      assert.match(recorded.headers['content-type'] ?? '', /^application\/json\b/);
      assert.equal(recorded.headers.authorization, undefined);
    }
    // The validator is not a rubber stamp: a request without a conversation fails it.
    const { conversationId: _, ...withoutConversation } = firstRequests[0]!.body;
    assert.equal(validate(withoutConversation), false);
  });

  test('each case is its own conversation, on its own channel, and runs never share one', () => {
    for (const [report, recorded] of bothRuns()) {
      const ids = report.cases.map((c) => c.conversationId);
      assert.equal(new Set(ids).size, CHANNELS.length * FIXED_CASE_IDS.length, 'a fresh conversationId per case and channel');
      assert.deepEqual(new Set(recorded.map((r) => r.body.conversationId)), new Set(ids));
      for (const caseReport of report.cases) {
        const bodies = inConversation(recorded, caseReport.conversationId).map((r) => r.body);
        assert.equal(bodies.length, caseReport.turns.length);
        assert.ok(
          bodies.every((body) => body.channel === caseReport.channel),
          `${caseReport.conversationId}: every turn on ${caseReport.channel}`,
        );
      }
    }
    const shared = first.cases.map((c) => c.conversationId).filter((id) => second.cases.some((c) => c.conversationId === id));
    assert.deepEqual(shared, [], 'two runs share no conversation');
  });

  test('message ids are unique within each conversation', () => {
    for (const [report, recorded] of bothRuns()) {
      for (const caseReport of report.cases) {
        const messageIds = inConversation(recorded, caseReport.conversationId).map((r) => r.body.messageId);
        assert.equal(new Set(messageIds).size, messageIds.length, `${caseReport.conversationId}: ${messageIds.join(', ')}`);
      }
    }
  });

  test("a conversation's turns arrive strictly in order", () => {
    for (const caseReport of first.cases) {
      const arrived = inConversation(firstRequests, caseReport.conversationId);
      const seqs = arrived.map((r) => r.seq);
      assert.deepEqual(
        seqs,
        [...seqs].sort((a, b) => a - b),
      );
      assert.deepEqual(
        arrived.map((r) => r.body.messageId),
        caseReport.turns.map((turn) => turn.messageId),
        `${caseReport.conversationId}: p1 before p2`,
      );
      if (caseReport.turns.length === 2) {
        const [p1, p2] = arrived.map((r) => r.body.messageId);
        assert.match(p1!, /p1$/);
        assert.match(p2!, /p2$/);
      }
    }
    const double = caseOf(first, 'whatsapp', 'double-text');
    assert.deepEqual(
      inConversation(firstRequests, double.conversationId).map((r) => r.body.message.text),
      ['can i get a large latte', 'oat milk actually'],
    );
  });

  test('the photo is one real JPEG image attachment and no text', () => {
    const photoFile = readFileSync(join(ROOT, 'fixtures/photo.jpg'));
    for (const channel of CHANNELS) {
      const [photo, ...more] = inConversation(firstRequests, caseOf(first, channel, 'photo').conversationId);
      assert.deepEqual(more, []);
      const message = photo!.body.message;
      assert.equal(message.text, '');
      assert.equal(message.attachments?.length, 1);
      const [attachment] = message.attachments!;
      assert.equal(attachment!.kind, 'image');
      assert.equal(attachment!.mime, 'image/jpeg');
      const bytes = Buffer.from(attachment!.data, 'base64');
      assert.equal(bytes.toString('base64'), attachment!.data, 'canonical base64');
      assert.ok(bytes.length > 100, `a real image, not a stub: ${bytes.length} bytes`);
      assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff], 'starts with a JPEG SOI marker');
      assert.deepEqual([...bytes.subarray(-2)], [0xff, 0xd9], 'ends with a JPEG EOI marker');
      assert.ok(bytes.equals(photoFile), 'the bytes of fixtures/photo.jpg');
    }
  });

  describe('the button tap', () => {
    const tapOf = (channel: string) => {
      const caseReport = caseOf(first, channel, 'button-tap');
      const arrived = inConversation(firstRequests, caseReport.conversationId).map((r) => r.body);
      assert.equal(arrived.length, 2);
      const offered = ((caseReport.turns[0]!.answer as { replies: MessageReply[] }).replies ?? []).filter((r) => r.type === 'message');
      return { caseReport, opening: arrived[0]!, tap: arrived[1]!, offered };
    };

    test('opens with the booking message', () => {
      for (const channel of ['whatsapp', 'sms', 'telegram']) {
        const { opening } = tapOf(channel);
        assert.ok(opening.message.text.includes('book a table'), opening.message.text);
        assert.equal(opening.message.choice, undefined);
      }
    });

    test("on WhatsApp it taps the reference agent's first list row", () => {
      const { tap, offered } = tapOf('whatsapp');
      assert.equal(offered[0]?.list?.sections[0]?.rows[0]?.id, 'time_1900', 'the reference agent offers a list on WhatsApp');
      assert.deepEqual(tap.message.choice, { id: 'time_1900', title: '7:00 pm' });
      assert.equal(tap.message.text, '');
    });

    test("on Telegram it taps the reference agent's first button", () => {
      const { opening, tap, offered } = tapOf('telegram');
      const expected = referenceAnswer(opening, rulesFor('telegram')).replies[0] as MessageReply;
      assert.ok(expected.buttons?.length, 'the reference agent offers buttons on Telegram');
      assert.deepEqual(offered[0]?.buttons, expected.buttons);
      const firstButton = expected.buttons[0]!;
      const id = typeof firstButton === 'string' ? firstButton : firstButton.id;
      const title = typeof firstButton === 'string' ? firstButton : firstButton.label;
      assert.deepEqual(tap.message.choice, { id, title });
    });

    test('on SMS, with no buttons offered, it taps a made-up choice', () => {
      const { tap, offered } = tapOf('sms');
      assert.ok(
        offered.every((reply) => !reply.buttons && !reply.list),
        'the reference agent offers no buttons on SMS',
      );
      assert.deepEqual(tap.message.choice, { ...MADE_UP_CHOICE });
    });

    test("it quotes the agent's reply: from agent, naming the agent's reply, not a person's message", () => {
      for (const channel of CHANNELS) {
        const { caseReport, opening, tap, offered } = tapOf(channel);
        const replyTo = tap.message.replyTo;
        assert.ok(replyTo, `${channel}: the tap quotes the agent`);
        assert.equal(replyTo.from, 'agent');
        assert.equal(replyTo.text, offered[0]!.text, `${channel}: the text of the agent's reply`);
        assert.ok(replyTo.messageId.length > 0);
        assert.notEqual(replyTo.messageId, opening.messageId, "the agent's reply, not the person's message");
        assert.notEqual(replyTo.messageId, tap.messageId);
        assert.ok(!caseReport.turns.some((turn) => turn.messageId === replyTo.messageId));
        // Ids need only be unique within a conversation, but a later run never reuses one.
        const again = inConversation(secondRequests, caseOf(second, channel, 'button-tap').conversationId)[1]!.body.message.replyTo;
        assert.equal(again?.from, 'agent');
        assert.notEqual(again.messageId, replyTo.messageId, `${channel}: the second run names its own agent reply`);
      }
    });
  });
});

describe('conversations run side by side, each one turn at a time', () => {
  interface Span {
    conversationId: string;
    messageId: string;
    start: number;
    end: number;
  }
  let agent: RunningAgent;
  const spans: Span[] = [];
  let report: Report;

  // 10 conversations, at most 3 at a time; every request waits until another is in flight too, so
  // overlap is certain without a timer (14 requests: every one finds a partner).
  const CONCURRENCY = 3;
  const inPairs = barrier(2);

  before(async () => {
    // A logical clock: every request start and end is one tick, so "at the same time" needs no timer.
    let clock = 0;
    agent = await serveAgent(async (body) => {
      const span: Span = { conversationId: body.conversationId, messageId: body.messageId, start: clock++, end: Number.NaN };
      spans.push(span);
      await inPairs.arrive();
      span.end = clock++;
      return referenceAnswer(body, rulesFor(body.channel));
    });
    report = await checkEndpoint(agent.url, { channels: ['whatsapp', 'sms'], concurrency: CONCURRENCY, env: {} });
  });

  after(async () => {
    await agent?.close();
  });

  test('the run passes: 5 cases × 2 channels, every turn answered', () => {
    assertPassed(report);
    assert.equal(report.cases.length, 10);
    assert.equal(spans.length, 2 * 7);
    assert.ok(spans.every((span) => Number.isInteger(span.end) && span.end > span.start));
    assert.deepEqual(
      { released: inPairs.released, fellBack: inPairs.fellBack },
      { released: 2 * 7, fellBack: 0 },
      'every request met another in flight',
    );
  });

  test('more than one conversation was in flight at some moment, and never more than the concurrency', () => {
    let most = 0;
    for (const moment of spans.map((span) => span.start)) {
      const inFlight = new Set(spans.filter((span) => span.start <= moment && moment < span.end).map((span) => span.conversationId));
      most = Math.max(most, inFlight.size);
    }
    assert.ok(most > 1, `at most ${most} conversation in flight at once`);
    assert.ok(most <= CONCURRENCY, `${most} conversations in flight, over the concurrency of ${CONCURRENCY}`);
  });

  test('within one conversation no two requests overlapped, and they came in order', () => {
    for (const caseReport of report.cases) {
      const mine = spans.filter((span) => span.conversationId === caseReport.conversationId);
      assert.deepEqual(
        mine.map((span) => span.messageId),
        caseReport.turns.map((turn) => turn.messageId),
      );
      for (let index = 1; index < mine.length; index++) {
        assert.ok(
          mine[index]!.start > mine[index - 1]!.end,
          `${caseReport.conversationId}: ${mine[index]!.messageId} started before ${mine[index - 1]!.messageId} was answered`,
        );
      }
    }
    assert.ok(
      report.cases.some((c) => c.turns.length === 2),
      'some conversations have two turns to order',
    );
  });
});
