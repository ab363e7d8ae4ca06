/**
 * What reports keep of a request: an attachment's data over 1 KB of base64 as its decoded size and
 * SHA-256 digest, each digest right whatever files came before it (the digests of recent data are
 * kept, and reused only for the same data), data up to 1 KB inline.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentRequest } from '../src/core/request.js';
import { MAX_INLINE_ATTACHMENT_DATA, recordedRequest } from '../src/run/recorded-request.js';
import { recordedDigest } from './helpers.js';

function requestWith(data: string): AgentRequest {
  return {
    conversationId: 'whatsapp:chk_00000000.explore.1',
    messageId: 'chk_00000000.whatsapp.explore.p1',
    channel: 'whatsapp',
    message: { text: '', attachments: [{ kind: 'document', mime: 'application/pdf', name: 'a.pdf', data }] },
  };
}

function recordedAttachmentOf(data: string): Record<string, unknown> {
  return { ...recordedRequest(requestWith(data)).message.attachments![0] };
}

test('data over 1 KB of base64 is kept as its size and digest, each right in any order, alternating or again', () => {
  const files = [1, 2, 3, 700_000].map((seed) => Buffer.alloc(1000 + seed, seed % 251).toString('base64'));
  for (const data of [...files, ...[...files].reverse(), files[0]!, files[0]!, files[2]!]) {
    assert.deepEqual(recordedAttachmentOf(data), {
      kind: 'document',
      mime: 'application/pdf',
      name: 'a.pdf',
      ...recordedDigest(Buffer.from(data, 'base64')),
    });
  }
});

test('data of 1 KB of base64 or less is kept inline, the request itself', () => {
  const data = 'A'.repeat(MAX_INLINE_ATTACHMENT_DATA);
  const request = requestWith(data);
  assert.equal(recordedRequest(request), request);
});
