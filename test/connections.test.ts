/**
 * Connections as real servers close them, on raw node:net servers where the misbehaviour is the
 * point: a server that closes after every answer without saying so, one that drops a kept-alive
 * connection as the next request arrives, HTTP/1.0, `connection: close`; stacked and unknown
 * content-encodings; the user-agent header; a HEAD probe the agent drops.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Report } from '../src/core/report.js';
import { TOOL_VERSION } from '../src/core/version.js';
import { HarRecorder } from '../src/report/har.js';
import { checkEndpoint } from '../src/run/check-endpoint.js';
import { type RawAnswerer, type RawServer, referenceBody, startRawServer, writeAnswer } from './raw-http-server.js';
import { CHANNELS, FIXED_CASE_IDS } from './contract-ids.js';

const servers: RawServer[] = [];
after(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function serve(answer: RawAnswerer): Promise<RawServer> {
  const server = await startRawServer(answer);
  servers.push(server);
  return server;
}

/** Every case on every channel, with no token and no proxy. */
function checkAll(url: string, archive?: HarRecorder): Promise<Report> {
  return checkEndpoint(url, { channels: ['all'], env: {}, ...(archive ? { onExchange: archive.record } : {}) });
}

function assertPassed(report: Report): void {
  assert.deepEqual(
    report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}/${c.id}: ${f.rule}: ${f.message}`)),
    [],
  );
  assert.equal(report.outcome, 'passed');
}

const turnsOf = (report: Report): number => report.cases.reduce((sum, c) => sum + c.turns.length, 0);

describe('connections as real servers close them', () => {
  test('a server that closes the connection after every answer (HEAD included) without saying so: every case passes', async () => {
    const server = await serve((request, socket) => {
      writeAnswer(socket, request, referenceBody(request));
      socket.end();
    });
    const report = await checkAll(server.url);
    assertPassed(report);
    assert.equal(report.cases.length, CHANNELS.length * FIXED_CASE_IDS.length);
    // A request written before the client saw the close lands on the closed connection: it is sent once more.
    const onClosed = server.requests.filter((request) => request.onConnection > 1).length;
    assert.equal(server.requests.length, 1 + turnsOf(report) + onClosed);
  });

  test('a kept-alive connection dropped as the next request arrives: that request is sent once more, on a new connection, and the HAR shows both', async () => {
    // The second request on a kept-alive connection finds it closed (the server's keep-alive timeout
    // just expired): the server drops it unanswered. A request on a new connection is answered.
    const server = await serve((request, socket) => {
      if (request.onConnection > 1) return void socket.destroy();
      writeAnswer(socket, request, referenceBody(request));
      if (request.headers.connection === 'close') socket.end();
    });
    const archive = new HarRecorder();
    const report = await checkAll(server.url, archive);
    assertPassed(report);
    const dropped = server.requests.filter((request) => request.onConnection > 1);
    assert.ok(dropped.length > 0, 'the HEAD probe connection, at least, was reused and dropped');
    assert.equal(server.requests.length, 1 + turnsOf(report) + dropped.length, 'each dropped request sent exactly once more');
    // Every resend went on a new connection, announced as one-off.
    const resent = dropped.map((request) =>
      server.requests.find(
        (later) => later.connection !== request.connection && later.body.equals(request.body) && later.onConnection === 1,
      ),
    );
    assert.ok(resent.every((request) => request?.headers.connection === 'close'));
    const entries = (
      JSON.parse(archive.toHar()) as {
        log: { entries: { request: { postData?: { text: string } }; response: { status: number; _error?: string } }[] };
      }
    ).log.entries;
    assert.equal(entries.length, server.requests.length, 'one archive entry per attempt');
    const failed = entries.filter((entry) => entry.response._error !== undefined);
    assert.equal(failed.length, dropped.length);
    for (const entry of failed) {
      assert.match(entry.response._error!, /^network: .* on a kept-alive connection; sent again on a new one$/);
      assert.equal(
        entries.filter((other) => other.response.status === 200 && other.request.postData?.text === entry.request.postData?.text).length,
        1,
        'the same body, answered on the second attempt',
      );
    }
  });

  test('an HTTP/1.0 server that closes after every answer: every case passes', async () => {
    const server = await serve((request, socket) => {
      writeAnswer(socket, request, referenceBody(request), { version: 'HTTP/1.0' });
      socket.end();
    });
    assertPassed(await checkAll(server.url));
  });

  test('a server that says connection: close and closes: every case passes', async () => {
    const server = await serve((request, socket) => {
      writeAnswer(socket, request, referenceBody(request), { headers: { connection: 'close' } });
      socket.end();
    });
    assertPassed(await checkAll(server.url));
  });

  test('an agent that keeps connections open: they are kept (at most --concurrency of them), nothing is sent twice, and every request says user-agent: check-endpoint/<version>', async () => {
    const server = await serve((request, socket) => writeAnswer(socket, request, referenceBody(request)));
    const report = await checkEndpoint(server.url, { channels: ['all'], env: {}, concurrency: 4 });
    assertPassed(report);
    assert.equal(server.requests.length, 1 + turnsOf(report));
    assert.ok(server.connections() <= 4, `${server.connections()} connections`);
    assert.ok(
      server.requests.some((request) => request.onConnection > 1),
      'connections were reused',
    );
    assert.deepEqual(new Set(server.requests.map((request) => request.headers['user-agent'])), new Set([`check-endpoint/${TOOL_VERSION}`]));
    assert.deepEqual(new Set(server.requests.map((request) => request.method)), new Set(['HEAD', 'POST']));
  });
});

describe('content-encoding', () => {
  test('gzip, then brotli (content-encoding: gzip, br): decoded brotli first, every case passes', async () => {
    const server = await serve((request, socket) => {
      writeAnswer(socket, request, brotliCompressSync(gzipSync(referenceBody(request))), { headers: { 'content-encoding': 'gzip, br' } });
    });
    assertPassed(await checkAll(server.url));
  });

  test('an encoding the checker does not know: a json finding that names it', async () => {
    const server = await serve((request, socket) => {
      writeAnswer(socket, request, gzipSync(referenceBody(request)), { headers: { 'content-encoding': 'gzip, zstd' } });
    });
    const report = await checkEndpoint(server.url, { env: {}, cases: ['typed'] });
    assert.deepEqual(
      report.cases[0]!.findings.map((finding) => [finding.rule, finding.severity, finding.message]),
      [
        [
          'json',
          'error',
          'expected a JSON answer; the body is sent with content-encoding "zstd", which the checker cannot decode (it asks for gzip, deflate, br)',
        ],
      ],
    );
  });

  test('stacked codings written in the wrong order: a json finding on the one that does not decode', async () => {
    const server = await serve((request, socket) => {
      writeAnswer(socket, request, brotliCompressSync(gzipSync(referenceBody(request))), { headers: { 'content-encoding': 'br, gzip' } });
    });
    const report = await checkEndpoint(server.url, { env: {}, cases: ['typed'] });
    assert.deepEqual(
      report.cases[0]!.findings.map((finding) => [finding.rule, finding.message]),
      [['json', 'expected a JSON answer; the body does not decode as gzip (content-encoding br, gzip, undone last to first)']],
    );
  });
});

describe('the HEAD probe', () => {
  for (const [what, drop] of [
    ['reset', (socket: { resetAndDestroy(): unknown }) => socket.resetAndDestroy()],
    ['closed without a byte', (socket: { end(): unknown }) => socket.end()],
  ] as const) {
    test(`answered by a connection ${what}: the agent was reached, and must answer HEAD`, async () => {
      const server = await serve((request, socket) => {
        if (request.method === 'HEAD') return void drop(socket);
        writeAnswer(socket, request, referenceBody(request));
      });
      const report = await checkEndpoint(server.url, { env: {} });
      assert.equal(report.exitCode, 2);
      assert.match(
        report.error!.message,
        new RegExp(
          `^Your agent at ${server.url.replace(/\./g, '\\.')} closed the connection on HEAD without answering; it must answer HEAD with any status \\(a handler that parses every body crashes on HEAD\\): connection reset by the agent\\. The usual fixes: Node: .+; Go: if r\\.Method == http\\.MethodHead \\{ return \\} before decoding\\.$`,
        ),
      );
    });
  }

  test('a refused connection is still "Could not reach"', async () => {
    const server = await serve(() => undefined);
    await server.close();
    const report = await checkEndpoint(server.url, { env: {} });
    assert.match(report.error!.message, /^Could not reach your agent at .*: connection refused$/);
  });
});
