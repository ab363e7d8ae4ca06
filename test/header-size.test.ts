/**
 * Request headers too large for the agent's server, when they are the user's own: a 431 says so,
 * naming the added headers and their sizes (never their values), and a connection closed on the
 * probe for a 10 MB header is put on the header, not on the agent's HEAD handling.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from './helpers.js';

/** A Node server with Node's own header limit (16 kB): it answers every message validly. */
let server: Server;
let url = '';
const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-headers-'));

before(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"replies":[]}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(folder, { recursive: true, force: true });
});

describe('request headers too large', () => {
  test("a 431 for the user's own 20 kB header says whose headers and their size, not 'answer with 200'", async () => {
    const value = 'b'.repeat(20_000);
    const result = await runCli([url, '--header', `X-Mid: ${value}`, '--case', 'typed', '--json'], { cwd: folder });
    assert.equal(result.code, 1, result.stderr);
    const report = JSON.parse(result.stdout) as { cases: { findings: { message: string; hint: string }[] }[] };
    const [finding] = report.cases[0]!.findings;
    assert.match(finding!.message, /got 431/);
    assert.match(
      finding!.hint,
      /^The agent's server refused the request's headers as too large \(431\): the headers you added are 20\.0 kB \(X-Mid 20\.0 kB\); the checker's own are a few hundred bytes\./,
    );
    assert.doesNotMatch(finding!.hint, /Answer every message with 200/);
  });

  test('a 10 MB header read from a variable: the closed probe is put on the header, by name and size, never its value', async () => {
    // A server that closes a connection once 16 kB came without the headers' end, answering nothing.
    const closing = createNetServer((socket) => {
      let received = 0;
      socket.on('error', () => {});
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > 16 * 1024) socket.destroy();
      });
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const closingUrl = `http://127.0.0.1:${(closing.address() as AddressInfo).port}/agent`;
    writeFileSync(join(folder, 'big.env'), `BIG_HEADER=${'a'.repeat(10_000_000)}\n`);
    const result = await runCli([closingUrl, '--dotenv', 'big.env', '--header-env', 'X-Big=BIG_HEADER'], { cwd: folder });
    await new Promise<void>((resolve) => closing.close(() => resolve()));
    assert.equal(result.code, 2, result.stderr.slice(0, 2000));
    assert.match(
      result.stderr,
      /closed the connection on HEAD without answering: the request's headers were too large for it: the headers you added are 10\.0 MB \(X-Big 10\.0 MB, read from \$BIG_HEADER\)/,
    );
    assert.doesNotMatch(result.stderr, /must answer HEAD/);
    assert.doesNotMatch(result.stdout + result.stderr, /a{100}/, 'the value is never printed');
  });
});
