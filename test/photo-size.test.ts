/**
 * The photo case sends a real phone-sized photo (fixtures/photo.jpg, 1280×960, 218 KB), so an agent
 * behind express's default body limit (`express.json()`: 100 kB) fails it, and only it. The
 * report, its HTML page and the reproduce line name the photo by size and digest, never inline it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundledContract } from '../src/contract/load-contract.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { checkEndpoint } from '../src/index.js';
import type { Report } from '../src/index.js';
import { renderHtmlReport } from '../src/report/html.js';
import { ROOT, recordedDigest } from './helpers.js';
import { CHANNELS } from './contract-ids.js';

const PHOTO = readFileSync(join(ROOT, 'fixtures/photo.jpg'));
/** express.json()'s default `limit: '100kb'`, in bytes as body-parser counts it. */
const EXPRESS_DEFAULT_LIMIT = 100 * 1024;

/** The width and height of a baseline or progressive JPEG, from its first SOF marker. */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  let at = 2;
  while (at < bytes.length) {
    assert.equal(bytes[at], 0xff, `a marker at byte ${at}`);
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc2) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  throw new Error('no SOF marker');
}

describe('fixtures/photo.jpg', () => {
  test('is a phone-sized JPEG: 1280×960, 200 to 300 KB, no metadata segments', () => {
    assert.deepEqual([...PHOTO.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    assert.deepEqual(jpegSize(PHOTO), { width: 1280, height: 960 });
    assert.ok(PHOTO.length >= 200_000 && PHOTO.length <= 300_000, `${PHOTO.length} bytes`);
    // Stripped: no EXIF (APP1) or comment (COM) segment before the image data.
    assert.equal(PHOTO.indexOf(Buffer.from('Exif')), -1);
    assert.equal(PHOTO.indexOf(Buffer.from([0xff, 0xfe])), -1);
  });
});

describe('an agent at express.json()’s default 100 kB limit', () => {
  const contract = bundledContract();
  let agent: RunningAgent;
  let report: Report;
  before(async () => {
    agent = await serveAgent((request) => referenceAnswer(request, contract.platforms[request.channel]), {
      maxRequestBytes: EXPRESS_DEFAULT_LIMIT,
    });
    report = await checkEndpoint(agent.url, { channels: ['all'], extended: true });
  });
  after(() => agent.close());

  test('fails exactly photo/status on every channel, and passes every other case', () => {
    const failed = report.cases.filter((c) => !c.passed).map((c) => `${c.channel}/${c.id}`);
    assert.deepEqual(
      failed,
      CHANNELS.map((channel) => `${channel}/photo`),
    );
    assert.ok(['whatsapp', 'sms', 'imessage', 'telegram', 'web'].every((channel) => failed.includes(`${channel}/photo`)));
    for (const photoCase of report.cases.filter((c) => c.id === 'photo')) {
      assert.deepEqual(
        photoCase.findings.map((f) => `${f.rule}:${f.severity}`),
        ['status:error'],
      );
      assert.match(photoCase.findings[0]!.message, /413/);
    }
    assert.equal(report.counts.passed, report.counts.cases - CHANNELS.length);
  });

  test('the report records the photo by its size and digest, not its base64', () => {
    const photoTurn = report.cases.find((c) => c.id === 'photo')!.turns[0]!;
    assert.deepEqual(photoTurn.request.message.attachments, [
      {
        kind: 'image',
        mime: 'image/jpeg',
        name: 'photo.jpg',
        ...recordedDigest(PHOTO),
      },
    ]);
    const someBase64 = PHOTO.subarray(1000, 1300).toString('base64');
    assert.ok(!JSON.stringify(report).includes(someBase64), 'no photo base64 in the JSON report');
    const page = renderHtmlReport(report);
    assert.ok(!page.includes(someBase64), 'no photo base64 in the HTML report');
  });

  test('its reproduce line replays the case by name instead of inlining the 290 KB body', () => {
    const lines = report.cases.flatMap((c) => c.findings.flatMap((f) => (f.reproduce ? [f.reproduce] : [])));
    assert.equal(lines.length, CHANNELS.length, 'one a channel');
    for (const line of lines) {
      assert.ok(line.length < 2000, `${line.length} characters`);
      assert.match(line, /^node bin\/check-endpoint\.cjs 'http:\/\/127\.0\.0\.1:\d+\/agent' --channel [a-z]+ --case photo$/);
    }
  });
});
