/**
 * The bytes of a request on the wire. A text body goes as its UTF-8, and a header value's byte
 * 0x80-0xff (a --header value may hold one: RFC 9110's obs-text, which Node sends as latin1) as that
 * one byte, whether the body was given as text or as bytes. Node writes a text body in one string
 * with the headers, encoded as UTF-8 headers and all, so the client writes text only while every
 * header is ASCII: this holds both ways.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { AgentClient } from '../src/http/client.js';
import type { RequestHeader } from '../src/http/transport.js';
import { type RawServer, startRawServer, writeAnswer } from './raw-http-server.js';

const TEXT = '{"text":"héllo, 世界 👋"}';

let server: RawServer | undefined;
after(() => server?.close());

/** Posts `body` with `headers` to a bare server; the bytes it read of the body and of each header. */
async function sent(body: string | Buffer, headers: RequestHeader[]): Promise<{ body: Buffer; headers: Record<string, string> }> {
  server ??= await startRawServer((request, socket) => writeAnswer(socket, request, Buffer.from('{"replies":[]}')));
  const client = new AgentClient(new URL(server.url), { timeoutMs: 10_000, maxBodyBytes: 1 << 20, connections: 1, headers });
  try {
    const outcome = await client.send({ method: 'POST', body });
    assert.equal(outcome.kind, 'answer', JSON.stringify(outcome));
  } finally {
    await client.close();
  }
  const request = server.requests.at(-1)!;
  return { body: request.body, headers: request.headers };
}

test('a text body goes as its UTF-8, with its length in bytes', async () => {
  const request = await sent(TEXT, []);
  assert.deepEqual(request.body, Buffer.from(TEXT, 'utf8'));
  assert.equal(request.headers['content-length'], String(Buffer.byteLength(TEXT)));
});

test("a header value's byte 0xe9 goes as that one byte, beside a text body that goes as UTF-8", async () => {
  const request = await sent(TEXT, [{ name: 'x-tenant', value: 'café', secret: false }]);
  // The raw server reads header lines as latin1: one byte 0xe9 reads back as é, UTF-8's two bytes would not.
  assert.equal(request.headers['x-tenant'], 'café');
  assert.deepEqual(request.body, Buffer.from(TEXT, 'utf8'));
});

test('a body given as bytes goes as those bytes', async () => {
  const bytes = Buffer.from(TEXT, 'utf8');
  for (const headers of [[], [{ name: 'x-tenant', value: 'café', secret: false }]]) {
    const request = await sent(bytes, headers);
    assert.deepEqual(request.body, bytes);
  }
});
