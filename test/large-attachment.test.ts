/**
 * quality/large-attachment: a valid 5 MiB JPEG made from the photo, sent once on every channel
 * whose platform takes images, in a body under the contract's 7 MB. An agent whose body limit is
 * that body's size passes; one byte less fails, with rule large-attachment and a hint naming the
 * common servers' limits. The HAR records the 7 MB body by its size and digest.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundledContract } from '../src/contract/load-contract.js';
import type { PlatformRules } from '../src/contract/contract.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { checkEndpoint } from '../src/index.js';
import type { Report } from '../src/index.js';
import type { AgentRequest } from '../src/core/request.js';
import { requestBody } from '../src/run/request-body.js';
import { replayCommand } from '../src/run/reproduce.js';
import { planCheck } from '../src/run/plan.js';
import { reproduceFlags } from '../src/run/reproduce-target.js';
import { BROKEN_AGENTS } from '../fixtures/agents/catalogue.js';
import { paddedJpeg } from '../src/cases/quality/large-attachment.js';
import { harValidator } from './har-validator.js';
import { ROOT, recordedDigest, runCli, temporaryFolder } from './helpers.js';
import { IMAGE_CHANNELS, onlyOf } from './contract-ids.js';

const contract = bundledContract();
const PHOTO = readFileSync(join(ROOT, 'fixtures/photo.jpg'));
const CASE = 'quality/large-attachment';

/** The JPEG's segments up to the start of scan: each marker and its length field. */
function segmentsOf(jpeg: Buffer): { marker: number; length: number }[] {
  const segments: { marker: number; length: number }[] = [];
  let at = 2;
  for (;;) {
    assert.equal(jpeg[at], 0xff, `a marker at byte ${at}`);
    const marker = jpeg[at + 1]!;
    const length = jpeg.readUInt16BE(at + 2);
    segments.push({ marker, length });
    if (marker === 0xda) return segments;
    at += 2 + length;
  }
}

/** An agent answering as the reference agent does, taking bodies up to `maxRequestBytes`, recording the sizes it was sent. */
async function agentWithLimit(maxRequestBytes: number): Promise<RunningAgent & { sizes: number[] }> {
  const sizes: number[] = [];
  const agent = await serveAgent(
    (request, raw) => {
      sizes.push(Number(raw.headers['content-length']));
      return referenceAnswer(request, contract.platforms[request.channel]);
    },
    { maxRequestBytes },
  );
  return { ...agent, sizes };
}

const findingsOf = (report: Report) => report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}/${c.id}:${f.rule}:${f.severity}`));

describe('the 5 MiB JPEG', () => {
  const jpeg = paddedJpeg(PHOTO, contract.largeAttachmentBytes!);

  test('is exactly x-large-attachment-bytes (5 MiB), and a valid JPEG: the photo with COM segments after its SOI', () => {
    assert.equal(contract.largeAttachmentBytes, 5 * 1024 * 1024);
    assert.equal(jpeg.length, 5_242_880);
    assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8]);
    assert.deepEqual([...jpeg.subarray(-2)], [0xff, 0xd9]);
    const segments = segmentsOf(jpeg);
    const comments = segments.filter((segment) => segment.marker === 0xfe);
    assert.ok(comments.length > 70, `${comments.length} COM segments`);
    for (const { length } of comments) assert.ok(length >= 2 && length <= 65_535, `a COM length field of ${length}`);
    // What follows the padding is the photo, byte for byte.
    assert.ok(jpeg.subarray(jpeg.length - (PHOTO.length - 2)).equals(PHOTO.subarray(2)));
    assert.deepEqual(
      segments.filter((segment) => segment.marker !== 0xfe),
      segmentsOf(PHOTO),
    );
  });

  test('pads to any size from the photo up, and refuses a size it cannot reach', () => {
    for (const size of [PHOTO.length, PHOTO.length + 4, PHOTO.length + 65_537, PHOTO.length + 65_538, PHOTO.length + 131_074]) {
      const padded = paddedJpeg(PHOTO, size);
      assert.equal(padded.length, size);
      segmentsOf(padded);
    }
    assert.throws(() => paddedJpeg(PHOTO, PHOTO.length + 3), /cannot be padded/);
    assert.throws(() => paddedJpeg(PHOTO, PHOTO.length - 1), /cannot be padded/);
    assert.throws(() => paddedJpeg(Buffer.from('GIF89a'), 1000), /not a JPEG/);
  });
});

describe('an agent whose body limit is the body exactly passes; one byte less fails', () => {
  let bodyBytes: number;
  let exact: RunningAgent & { sizes: number[] };
  let under: RunningAgent & { sizes: number[] };
  before(async () => {
    const probe = await agentWithLimit(16 * 1024 * 1024);
    try {
      await checkEndpoint(probe.url, { cases: [CASE] });
      bodyBytes = probe.sizes[0]!;
    } finally {
      await probe.close();
    }
    exact = await agentWithLimit(bodyBytes);
    under = await agentWithLimit(bodyBytes - 1);
  });
  after(async () => {
    await exact?.close();
    await under?.close();
  });

  test('the body is under the contract’s x-max-request-bytes (7,000,000)', () => {
    assert.equal(contract.maxRequestBytes, 7_000_000);
    assert.ok(bodyBytes > 6_990_508 && bodyBytes <= 7_000_000, `${bodyBytes} bytes`);
  });

  test('at the limit: passes with no finding', async () => {
    const report = await checkEndpoint(exact.url, { cases: [CASE] });
    assert.deepEqual(findingsOf(report), []);
    assert.equal(report.outcome, 'passed');
  });

  test('one byte over: fails exactly quality/large-attachment, naming the size and the Node frameworks’ limits', async () => {
    const report = await checkEndpoint(under.url, { cases: [CASE] });
    assert.deepEqual(findingsOf(report), [`whatsapp/${CASE}:large-attachment:error`]);
    const [finding] = report.cases[0]!.findings;
    assert.match(finding!.message, /^expected a message carrying a 5 MiB JPEG to be answered with status 200 .*; got status 413/);
    const hint = finding!.hint ?? '';
    assert.ok(hint.includes(`The body was ${bodyBytes.toLocaleString('en-US')} bytes`), hint);
    for (const named of ['express.json(', 'bodyLimit', 'jsonLimit', 'sizeLimit', 'Vercel', 'AWS Lambda', '7,000,000']) {
      assert.ok(hint.includes(named), `the hint names ${named}`);
    }
    // A Node agent (its Keep-Alive header tells it) gets the Node frameworks' settings, not Django's or nginx's.
    assert.ok(!hint.includes('DATA_UPLOAD_MAX_MEMORY_SIZE') && !hint.includes('client_max_body_size'), hint);
    assert.equal(finding!.reproduce, `node bin/check-endpoint.cjs '${under.url}' --channel whatsapp --case ${CASE}`);
    // The report keeps the image by its size and digest.
    const jpeg = paddedJpeg(PHOTO, contract.largeAttachmentBytes!);
    assert.deepEqual(report.cases[0]!.turns[0]!.request.message.attachments, [
      {
        kind: 'image',
        mime: 'image/jpeg',
        name: 'large-photo.jpg',
        ...recordedDigest(jpeg),
      },
    ]);
  });
});

describe('played on the channels whose platform takes images', () => {
  let agent: RunningAgent & { sizes: number[] };
  before(async () => {
    agent = await agentWithLimit(16 * 1024 * 1024);
  });
  after(() => agent.close());

  const channelsOf = (report: Report) => report.cases.filter((c) => c.id === CASE).map((c) => c.channel);

  test('every platform of the contract but SMS (image: no)', async () => {
    assert.equal(contract.platforms.sms!.image?.support, 'no');
    const report = await checkEndpoint(agent.url, { cases: [CASE], channels: ['all'] });
    assert.deepEqual(channelsOf(report), IMAGE_CHANNELS);
    assert.deepEqual(onlyOf(channelsOf(report), ['whatsapp', 'sms', 'imessage', 'telegram', 'web'], String), [
      'whatsapp',
      'imessage',
      'telegram',
      'web',
    ]);
    assert.equal(report.outcome, 'passed');
  });

  test('a custom channel without limits is played (nothing says it takes no images); one whose limits say image: no is not', async () => {
    const noImages: PlatformRules = { title: 'Pager', counting: 'codepoints', image: { support: 'no' } };
    const report = await checkEndpoint(agent.url, { cases: [CASE], channels: ['matrix', 'pager'], limits: { pager: noImages } });
    assert.deepEqual(channelsOf(report), ['matrix']);
  });
});

describe('the HAR of a run with the 5 MiB image', () => {
  let agent: RunningAgent & { sizes: number[] };
  let tmp: string;
  before(async () => {
    agent = await agentWithLimit(16 * 1024 * 1024);
    tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-large-'));
  });
  after(async () => {
    await agent.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  test('records the 7 MB body by its size and digest, says so in the entry’s comment, and is valid HAR 1.2', async () => {
    const file = join(tmp, 'traffic.har');
    const result = await runCli([agent.url, '--case', CASE, '--case', 'photo', '--har', file]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.ok(statSync(file).size < 1_000_000, `${statSync(file).size} bytes`);
    const har = JSON.parse(readFileSync(file, 'utf8')) as {
      log: { entries: { comment?: string; request: { bodySize: number; postData?: { text?: string; comment?: string } } }[] };
    };
    const validate = harValidator();
    assert.ok(validate(har), JSON.stringify(validate.errors));
    const large = har.log.entries.filter((entry) => entry.request.bodySize > 1024 * 1024);
    assert.equal(large.length, 1);
    assert.match(large[0]!.comment ?? '', /^the request body is over 1048576 bytes: recorded by size and sha256 digest, not inline$/);
    assert.equal(large[0]!.request.postData!.text, undefined);
    assert.match(
      large[0]!.request.postData!.comment ?? '',
      new RegExp(`^the body is not kept: ${agent.sizes.at(-1) ?? 0} bytes, sha256 [0-9a-f]{64} `),
    );
    // The photo (290 KB of base64) is small enough to keep: a replayable request.
    const photo = har.log.entries.find((entry) => entry.request.postData?.text?.includes('"photo.jpg"'));
    assert.ok(photo, 'the photo request is kept inline');
  });
});

describe('the body of a request with a large attachment', () => {
  const large = paddedJpeg(PHOTO, 2 * 1024 * 1024).toString('base64');
  const request = (text: string, data: string): AgentRequest => ({
    conversationId: 'whatsapp:chk_1.quality-large-attachment.1',
    messageId: 'm1',
    channel: 'whatsapp',
    message: {
      text,
      attachments: [{ kind: 'image', mime: 'image/jpeg', name: 'large-photo.jpg', data }],
      choice: { id: 'a', title: 'b"c' },
    },
  });

  test("a large attachment's body is built as bytes, never as one long string; a small one stays text", () => {
    assert.ok(Buffer.isBuffer(requestBody(request('', large))));
    assert.equal(typeof requestBody(request('small', 'AAAA')), 'string');
  });

  test('is JSON.stringify’s text exactly, the data spliced in or not', () => {
    for (const [text, data] of [
      ['', large],
      ['chk-attachment-data', large],
      ['"chk-attachment-data"', large],
      ['quote " and \\ and \u2028', large],
      ['small', 'AAAA'],
    ] as const) {
      const sent = request(text, data);
      const body = requestBody(sent);
      assert.equal(typeof body === 'string' ? body : body.toString('utf8'), JSON.stringify(sent), text);
    }
  });
});

describe('the reproduce line of a body over 1 KB', () => {
  test('names the case and channel, and the headers as the run sent them (secrets by variable)', () => {
    assert.equal(
      replayCommand('node bin/check-endpoint.cjs', 'http://127.0.0.1:8080/agent', 'telegram', CASE, [
        { name: 'authorization', variable: 'FLOW_FRAMEWORK_AGENT_TOKEN', prefix: 'Bearer ' },
        { name: 'x-team', value: "o'brien" },
        { name: 'x-api-key', variable: 'API_KEY' },
      ]),
      `node bin/check-endpoint.cjs 'http://127.0.0.1:8080/agent' --channel telegram --case ${CASE} --token-env FLOW_FRAMEWORK_AGENT_TOKEN --header 'x-team: o'\\''brien' --header-env 'x-api-key=API_KEY'`,
    );
  });
});

describe('the replay carries what judged and sent the run', () => {
  test('--spec, --limits, the timeout, the body limit, --strict and --insecure, as the run had them', async () => {
    const limits = join(temporaryFolder('check-endpoint-replay-'), 'kiosk.json');
    writeFileSync(limits, JSON.stringify({ title: 'Kiosk', counting: 'codepoints', text: { maxLength: 4096 } }));
    const plan = await planCheck('https://127.0.0.1:8080/agent', {
      spec: join(ROOT, 'spec/agent-endpoint.openapi.yaml'),
      channels: ['kiosk'],
      limits: [`kiosk=${limits}`],
      agentTimeoutSeconds: 30,
      maxBodyBytes: 4096,
      strict: true,
      insecure: true,
    });
    assert.deepEqual(reproduceFlags(plan), [
      '--spec',
      `'${join(ROOT, 'spec/agent-endpoint.openapi.yaml')}'`,
      '--limits',
      `'kiosk=${limits}'`,
      '--agent-timeout',
      '30',
      '--max-body',
      '4096',
      '--strict',
      '--insecure',
    ]);
    assert.deepEqual(reproduceFlags(await planCheck('http://127.0.0.1:8080/agent')), [], 'a run with the defaults needs none');
  });

  test('a live run: the photo case refused, replayed with the run’s flags', async () => {
    const agent = await serveAgent(BROKEN_AGENTS.find((candidate) => candidate.name === 'status-500-on-photo')!.handler);
    try {
      const report = await checkEndpoint(agent.url, { cases: ['photo'], strict: true, agentTimeoutSeconds: 30 });
      assert.equal(
        report.cases[0]!.findings[0]!.reproduce,
        `node bin/check-endpoint.cjs '${agent.url}' --channel whatsapp --case photo --agent-timeout 30 --strict`,
      );
    } finally {
      await agent.close();
    }
  });
});
