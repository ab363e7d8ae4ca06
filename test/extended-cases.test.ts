/**
 * The extended cases (--extended, or --case ID): a voice note, a document, a video and a quote of
 * the person's own message, each its own conversation, with real small files; played with the
 * fixed cases, judged by the same common checks. --case also picks a quality case.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { recordedRequest } from '../src/run/recorded-request.js';
import { createAjv } from '../src/contract/ajv.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { type AgentRequest, EXTENDED_CASE_IDS, type Report, checkEndpoint } from '../src/index.js';
import { ROOT, recordedDigest, runCli } from './helpers.js';
import { CHANNELS, FIXED_CASE_IDS } from './contract-ids.js';

const reportSchema = JSON.parse(readFileSync(join(ROOT, 'spec/report.schema.json'), 'utf8')) as Record<string, unknown>;
const validateReport = createAjv().compile(reportSchema);

const FILES = [
  { file: 'voice-note.ogg', starts: 'OggS', holds: 'OpusHead' },
  { file: 'menu.pdf', starts: '%PDF-', holds: '%%EOF' },
  { file: 'video.mp4', starts: '', holds: 'ftypisom' },
] as const;

describe('the files the extended cases send', () => {
  for (const { file, starts, holds } of FILES) {
    test(`fixtures/${file} is a real file of its kind, under 50 KB`, () => {
      const bytes = readFileSync(join(ROOT, 'fixtures', file));
      assert.ok(statSync(join(ROOT, 'fixtures', file)).size < 50 * 1024);
      assert.equal(bytes.subarray(0, starts.length).toString('latin1'), starts);
      assert.ok(bytes.includes(holds), `${file} holds ${holds}`);
    });
  }

  test('the PDF has exactly one page', () => {
    const text = readFileSync(join(ROOT, 'fixtures/menu.pdf'), 'latin1');
    assert.equal(text.match(/\/Type \/Page\b(?!s)/g)?.length, 1);
    assert.match(text, /\/Count 1\b/);
  });
});

describe('played against an agent that records what it gets', () => {
  const received: AgentRequest[] = [];
  let agent: RunningAgent | undefined;
  let report: Report;
  before(async () => {
    agent = await serveAgent((request) => {
      received.push(request);
      return { replies: [{ type: 'message', text: 'Got it.' }] };
    });
    report = await checkEndpoint(agent.url, { channels: ['whatsapp', 'sms'], extended: true });
  });
  after(async () => {
    await agent?.close();
  });

  test('--extended adds the four cases after the fixed five, on every channel, in the report and the schema', () => {
    assert.deepEqual(
      report.cases.map((c) => `${c.channel}/${c.id}`),
      ['whatsapp', 'sms'].flatMap((channel) => [...FIXED_CASE_IDS, ...EXTENDED_CASE_IDS].map((id) => `${channel}/${id}`)),
    );
    assert.equal(report.outcome, 'passed');
    assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
  });

  const requestsOf = (id: string) => report.cases.find((c) => c.channel === 'whatsapp' && c.id === id)!.turns.map((turn) => turn.request);

  /** The cases in which the person sends a file: what the message says, and the one fixture file it carries. */
  const FILE_CASES = [
    { id: 'voice-note', text: '', kind: 'audio', mime: 'audio/ogg', file: 'voice-note.ogg' },
    { id: 'document', text: 'here is the menu for the party', kind: 'document', mime: 'application/pdf', file: 'menu.pdf' },
    { id: 'video', text: '', kind: 'video', mime: 'video/mp4', file: 'video.mp4' },
  ];
  for (const { id, text, kind, mime, file } of FILE_CASES) {
    test(`${id}: text ${JSON.stringify(text)}, one ${kind} attachment, ${mime}, the fixture file ${file}`, () => {
      const [request] = requestsOf(id);
      assert.equal(request!.message.text, text);
      assert.deepEqual(
        request!.message.attachments!.map(({ kind, mime, name }) => ({ kind, mime, name })),
        [{ kind, mime, name: file }],
      );
      // The report keeps data over 1 KB of base64 by its size and digest.
      const fixture = readFileSync(join(ROOT, 'fixtures', file));
      const recorded = request!.message.attachments![0]!;
      if ('data' in recorded) assert.ok(Buffer.from(recorded.data, 'base64').equals(fixture));
      else assert.deepEqual({ dataBytes: recorded.dataBytes, dataSha256: recorded.dataSha256 }, recordedDigest(fixture));
    });
  }

  test("quote-own: the correction quotes the person's own first message (replyTo from person)", () => {
    const [first, second] = requestsOf('quote-own');
    assert.equal(first!.message.text, 'table for 2 at 7');
    assert.deepEqual(second!.message, {
      text: 'actually make it 8',
      replyTo: { messageId: first!.messageId, from: 'person', text: 'table for 2 at 7' },
    });
    assert.equal(first!.conversationId, second!.conversationId);
  });

  test('each extended case is its own conversation, and the agent got exactly what the report says', () => {
    const conversations = new Set(report.cases.map((c) => c.conversationId));
    assert.equal(conversations.size, report.cases.length);
    const sent = report.cases.flatMap((c) => c.turns.map((turn) => JSON.stringify(turn.request)));
    // The report keeps attachment data over 1 KB by its size and digest.
    assert.deepEqual(new Set(received.map((request) => JSON.stringify(recordedRequest(request)))), new Set(sent));
  });
});

describe('opt-in, and --case picks any case', () => {
  let agent: RunningAgent | undefined;
  before(async () => {
    agent = await startReferenceAgent();
  });
  after(async () => {
    await agent?.close();
  });

  test('without --extended no extended case is played', async () => {
    const report = await checkEndpoint(agent!.url, {});
    assert.deepEqual(
      report.cases.map((c) => c.id),
      ['typed', 'double-text', 'photo', 'button-tap', 'no-reply'],
    );
  });

  test('--case voice-note plays that case alone; --case quality/auth that quality case alone', async () => {
    const one = await checkEndpoint(agent!.url, { cases: ['voice-note'], channels: ['telegram'] });
    assert.deepEqual(
      one.cases.map((c) => `${c.channel}/${c.id}:${c.status}`),
      ['telegram/voice-note:passed'],
    );
    const quality = await checkEndpoint(agent!.url, { cases: ['quality/auth'], env: {} });
    assert.deepEqual(
      quality.cases.map((c) => c.id),
      ['quality/auth'],
    );
  });

  test('--case typed --extended: the one fixed case and every extended case', async () => {
    const report = await checkEndpoint(agent!.url, { cases: ['typed'], extended: true });
    assert.deepEqual(
      report.cases.map((c) => c.id),
      ['typed', ...EXTENDED_CASE_IDS],
    );
  });

  test('the reference agent passes every extended case on every channel with no finding', async () => {
    const report = await checkEndpoint(agent!.url, { channels: ['all'], extended: true });
    assert.deepEqual(
      report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}/${c.id}: ${f.message}`)),
      [],
    );
    assert.equal(report.counts.cases, CHANNELS.length * (FIXED_CASE_IDS.length + EXTENDED_CASE_IDS.length));
  });

  test('the command: --extended, --case voice-note, --case quality/auth, and an unknown case named with every case', async () => {
    const extended = await runCli([agent!.url, '--extended', '--channel', 'sms']);
    assert.equal(extended.code, 0, extended.stdout + extended.stderr);
    for (const id of EXTENDED_CASE_IDS) assert.match(extended.stdout, new RegExp(`^PASS {2}${id} +sms `, 'm'));
    assert.match(extended.stdout, /^9 of 9 cases passed\.$/m);
    const one = await runCli([agent!.url, '--case', 'voice-note']);
    assert.equal(one.code, 0);
    assert.match(one.stdout, /^1 of 1 case passed\.$/m);
    const auth = await runCli([agent!.url, '--case', 'quality/auth'], { env: { FLOW_FRAMEWORK_AGENT_TOKEN: undefined } });
    assert.match(auth.stdout, /^PASS {2}quality\/auth +whatsapp .*1 warning +problem 1$/m);
    const unknown = await runCli([agent!.url, '--case', 'voicenote']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--case voicenote is not one of typed, .*voice-note, document, video, quote-own, explore, quality\/auth/);
  });
});
