/**
 * An early answer is the answer. Servers that refuse a body by its size answer 413 and close before
 * reading it all: right away, after part of it, or with a reset; each is heard as curl hears it,
 * with its status and body, on a 300 KB body (a photo) and a 7 MB one (the contract's largest).
 * A reset before any status is reported as a close while sending, naming how much went and the
 * contract's limit; a body that got an answer is never sent again, and the HAR holds one attempt.
 *
 * curl 7.88.1 against the same raw servers (`curl -sS -i -X POST URL --data-binary @body`):
 * 413 and its body in every case below; it sends `expect: 100-continue` for a body over 1 MiB, so
 * the 7 MB body never goes. Without that header (`-H 'Expect:'`), curl fails on the 7 MB body when
 * the server closes right away or resets ("(55) Send failure: Connection reset by peer") and hears
 * the 413 when the server reads part of the body first.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { type AddressInfo, type Socket, createServer } from 'node:net';
import { after, describe, test } from 'node:test';
import { bundledContract } from '../src/contract/load-contract.js';
import { AgentClient, type HttpOutcome } from '../src/http/client.js';
import { HarRecorder } from '../src/report/har.js';
import { checkTurn } from '../src/validate/judge-exchange.js';
import { startRawServer, writeAnswer } from './raw-http-server.js';

const REFUSAL = '{"error":"PayloadTooLargeError: request entity too large"}';
const ANSWER_413 = [
  'HTTP/1.1 413 Payload Too Large',
  'content-type: application/json',
  `content-length: ${REFUSAL.length}`,
  'connection: close',
  '',
  REFUSAL,
].join('\r\n');
const HEAD_200 = 'HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n';

const PHOTO_BYTES = 300_000;
const LARGEST_BYTES = 7_000_000;

/** A JSON body of exactly `bytes` bytes. */
const bodyOf = (bytes: number): string => JSON.stringify('a'.repeat(bytes - 2));

interface SeenRequest {
  method: string;
  headers: Record<string, string>;
}

/** What the server does once a request's headers came: to the socket, with what came of the body so far. */
type OnHeaders = (socket: Socket, request: SeenRequest) => void;

interface EarlyServer {
  url: string;
  /** Every request's headers, in arrival order: a request sent twice shows twice. */
  requests: SeenRequest[];
  close(): Promise<void>;
}

const servers: { close(): Promise<void> }[] = [];
after(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

/**
 * A bare server on node:net that acts as soon as a request's headers came, before its body: HEAD
 * is answered 200 and the connection kept; anything else goes to `onHeaders`, which owns the socket.
 */
async function startEarlyServer(onHeaders: OnHeaders): Promise<EarlyServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      pending = Buffer.concat([pending, chunk]);
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [requestLine = '', ...lines] = pending.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(':')).trim().toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      const request = { method: requestLine.split(' ')[0]!, headers };
      requests.push(request);
      pending = pending.subarray(end + 4);
      if (request.method === 'HEAD') {
        socket.write(HEAD_200);
        return onData(Buffer.alloc(0));
      }
      socket.off('data', onData);
      onHeaders(socket, request);
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const running = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  servers.push(running);
  return running;
}

/** Closes once `bytes` more bytes of the body came, or at once when they never will (the client stopped). */
function closeAfterReading(socket: Socket, bytes: number, close: () => void): void {
  let read = 0;
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read >= bytes && !socket.destroyed) close();
  });
}

const REFUSALS: { how: string; onHeaders: OnHeaders }[] = [
  {
    how: 'closes right away, reading none of the body',
    onHeaders: (socket) => {
      socket.write(ANSWER_413);
      socket.destroy();
    },
  },
  {
    how: 'closes after reading 64 KiB of the body',
    onHeaders: (socket) => {
      socket.write(ANSWER_413);
      closeAfterReading(socket, 64 * 1024, () => socket.destroy());
    },
  },
  {
    how: 'resets the connection (RST) right away',
    onHeaders: (socket) => {
      socket.write(ANSWER_413);
      socket.resetAndDestroy();
    },
  },
];

interface Sent {
  outcome: HttpOutcome;
  /** The archive's entries: one per attempt. */
  entries: { request: { headers: { name: string; value: string }[] }; response: { status: number; _error?: string } }[];
}

/** Sends a HEAD first when asked (so the POST goes on a kept-alive connection), then the POST. */
async function post(url: string, bytes: number, options: { afterHead?: boolean } = {}): Promise<Sent> {
  const archive = new HarRecorder();
  const client = new AgentClient(new URL(url), { timeoutMs: 20_000, maxBodyBytes: 1 << 20, connections: 1, onExchange: archive.record });
  try {
    if (options.afterHead) assert.equal((await client.head()).kind, 'answer');
    const outcome = await client.post(bodyOf(bytes));
    const { log } = JSON.parse(archive.toHar()) as { log: { entries: Sent['entries'] } };
    return { outcome, entries: log.entries.slice(options.afterHead ? 1 : 0) };
  } finally {
    await client.close();
  }
}

function assertRefused({ outcome, entries }: Sent): void {
  assert.equal(outcome.kind, 'answer', outcome.kind === 'answer' ? '' : outcome.message);
  assert.equal(outcome.status, 413);
  assert.equal(outcome.body.toString(), REFUSAL);
  assert.deepEqual(
    entries.map((entry) => entry.response.status),
    [413],
    'one attempt, as it happened',
  );
}

const turn = {
  channel: 'whatsapp',
  contract: bundledContract(),
  personMessageIds: ['p1'],
  expectsReply: true,
  timeoutSeconds: 60,
};

describe('a server that answers 413 before reading the whole body', () => {
  for (const { how, onHeaders } of REFUSALS) {
    for (const bytes of [PHOTO_BYTES, LARGEST_BYTES]) {
      test(`${how}: a ${bytes / 1000} kB body gets the 413 and its body, sent once`, async () => {
        const server = await startEarlyServer(onHeaders);
        assertRefused(await post(server.url, bytes));
        assert.equal(server.requests.length, 1);
        // Over 1 MiB the body waits for 100 Continue, as curl's does: a server that refuses at the headers never gets it.
        assert.equal(server.requests[0]!.headers.expect, bytes > 1024 * 1024 ? '100-continue' : undefined);
      });
    }
  }

  test('on a kept-alive connection: the 413 is the answer, and the body is not sent again', async () => {
    for (const bytes of [PHOTO_BYTES, LARGEST_BYTES]) {
      const server = await startEarlyServer(REFUSALS[2]!.onHeaders);
      assertRefused(await post(server.url, bytes, { afterHead: true }));
      assert.deepEqual(
        server.requests.map((request) => request.method),
        ['HEAD', 'POST'],
      );
    }
  });

  test("a node:http handler that answers 413 without reading the body (express's raw-body over its limit)", async () => {
    const page =
      '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>PayloadTooLargeError: request entity too large</pre>\n</body>\n</html>\n';
    const server = http.createServer((request, response) => {
      response.writeHead(413, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(page) });
      response.end(page);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    server.on('connection', (socket) => servers.push({ close: async () => void socket.destroy() }));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
    for (const bytes of [PHOTO_BYTES, LARGEST_BYTES]) {
      const { outcome, entries } = await post(url, bytes);
      assert.equal(outcome.kind === 'answer' && outcome.status, 413);
      assert.equal(outcome.kind === 'answer' && outcome.body.toString(), page);
      assert.equal(entries.length, 1);
    }
  });
});

describe('expect: 100-continue', () => {
  test('a server that ignores it (never says 100 Continue) still gets the whole 7 MB body, once, and its answer is heard', async () => {
    const server = await startRawServer((request, socket) => writeAnswer(socket, request, Buffer.from(`{"bytes":${request.body.length}}`)));
    servers.push(server);
    const { outcome, entries } = await post(server.url, LARGEST_BYTES);
    assert.equal(outcome.kind === 'answer' && outcome.body.toString(), `{"bytes":${LARGEST_BYTES}}`);
    assert.deepEqual(
      server.requests.map((request) => [request.method, request.headers.expect]),
      [['POST', '100-continue']],
    );
    assert.equal(entries.length, 1);
  });
});

describe('a server that resets while the body is being sent, before any status', () => {
  /** Says 100 Continue (as node:http does), reads 1 MB of the body, then resets without a word. */
  const resetAfterOneMegabyte: OnHeaders = (socket, request) => {
    if (request.headers.expect === '100-continue') socket.write('HTTP/1.1 100 Continue\r\n\r\n');
    closeAfterReading(socket, 1_000_000, () => socket.resetAndDestroy());
  };

  for (const afterHead of [false, true]) {
    test(`${afterHead ? 'on a kept-alive connection' : 'on a new connection'}: a close while sending, how much went, the contract's 7 MB; not sent again`, async () => {
      const server = await startEarlyServer(resetAfterOneMegabyte);
      const { outcome, entries } = await post(server.url, LARGEST_BYTES, { afterHead });
      assert.equal(outcome.kind, 'network');
      assert.ok(outcome.kind === 'network' && outcome.closedWhileSending, 'closed while sending');
      const { sentBytes, bodyBytes } = outcome.closedWhileSending;
      assert.equal(bodyBytes, LARGEST_BYTES);
      assert.ok(sentBytes < bodyBytes, `${sentBytes} of ${bodyBytes}`);
      assert.equal(
        outcome.message,
        `the agent closed the connection while the body was being sent (${sentBytes} of ${bodyBytes} bytes sent): connection reset by the agent`,
      );
      assert.equal(entries.length, 1, 'one attempt in the archive');
      assert.match(entries[0]!.response._error!, /^network: the agent closed the connection while the body was being sent/);
      assert.equal(server.requests.filter((request) => request.method === 'POST').length, 1, 'the body was not sent again');

      const [finding] = checkTurn(outcome, turn).findings;
      assert.equal(finding!.rule, 'status');
      assert.equal(finding!.message, `expected an HTTP answer with status 200; got none: ${outcome.message}`);
      assert.match(finding!.hint ?? '', /a server that refuses bodies over its size limit closes like this/);
      assert.match(finding!.hint ?? '', /up to the contract's 7 MB/);
      assert.match(finding!.hint ?? '', / of a 7 MB body, without an answer/);
    });
  }
});
