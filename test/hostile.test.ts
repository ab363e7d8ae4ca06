import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type HostileServer, startHostileServer } from '../fixtures/agents/hostile.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { checkEndpoint } from '../src/index.js';
import { MAX_FINDINGS } from '../src/core/findings.js';
import { CLI, ROOT, runCli } from './helpers.js';

let hostile: HostileServer;
let elsewhere: RunningAgent;
let elsewhereHits = 0;

before(async () => {
  hostile = await startHostileServer();
  elsewhere = await serveAgent(() => {
    elsewhereHits++;
    return { replies: [] };
  });
});
after(async () => {
  await Promise.all([hostile.close(), elsewhere.close()]);
});

/**
 * The agent timeout of the tests that wait for it: short, so the suite does not wait long, and still
 * long enough for the other cases' valid answers on a loaded machine.
 */
const SHORT_TIMEOUT_SECONDS = 0.5;
/** Long enough that the body size limit, not the clock, ends the turn. */
const LONG_TIMEOUT_SECONDS = 30;

/** Runs the check with the misbehaviour on the photo case only; the other cases get valid answers. */
async function photoCase(path: string, options: { agentTimeoutSeconds?: number; maxBodyBytes?: number } = {}) {
  const url = `${hostile.origin}${path}${path.includes('?') ? '&' : '?'}case=photo`;
  const report = await checkEndpoint(url, { channels: ['whatsapp'], agentTimeoutSeconds: 2, ...options });
  const others = report.cases.filter((c) => c.id !== 'photo');
  assert.equal(others.length, 4);
  assert.ok(
    others.every((c) => c.passed && c.findings.length === 0),
    'the other cases finish and pass',
  );
  const photo = report.cases.find((c) => c.id === 'photo')!;
  return { report, photo, findings: photo.findings };
}

function assertOneFinding(findings: { rule: string; message: string }[], rule: string, message: RegExp): void {
  assert.deepEqual(
    findings.map((f) => f.rule),
    [rule],
  );
  assert.match(findings[0]!.message, message);
}

/** Misbehaviours that end the photo turn with exactly one finding: the path, the rule, and what the message says. */
const ONE_FINDING: { what: string; path: string; rule: string; message: RegExp; agentTimeoutSeconds?: number }[] = [
  {
    what: 'no answer at all: timeout',
    path: '/silent',
    rule: 'timeout',
    message: /expected a complete answer within 0\.5 s; none came/,
    agentTimeoutSeconds: SHORT_TIMEOUT_SECONDS,
  },
  {
    // A byte every 100 ms would hold off an idle timer of 0.5 s forever.
    what: 'a body that trickles one byte every 100 ms: one deadline for headers and body',
    path: '/trickle',
    rule: 'timeout',
    message: /within 0\.5 s/,
    agentTimeoutSeconds: SHORT_TIMEOUT_SECONDS,
  },
  {
    what: 'a body that never ends: timeout',
    path: '/endless',
    rule: 'timeout',
    message: /within 0\.5 s/,
    agentTimeoutSeconds: SHORT_TIMEOUT_SECONDS,
  },
  {
    what: 'a 1 GiB body: stopped at --max-body',
    path: '/huge',
    rule: 'json',
    message: /the body is larger than 10485760 bytes/,
    agentTimeoutSeconds: LONG_TIMEOUT_SECONDS,
  },
  ...['/gzip-bomb', '/deflate-bomb', '/brotli-bomb'].map((bomb) => ({
    what: `a compression bomb (${bomb.slice(1)}): the decoded size is held to --max-body`,
    path: bomb,
    rule: 'json',
    message: /the body is larger than 10485760 bytes/,
    agentTimeoutSeconds: LONG_TIMEOUT_SECONDS,
  })),
  { what: 'invalid UTF-8: json', path: '/invalid-utf8', rule: 'json', message: /not valid UTF-8/ },
  { what: 'a UTF-8 byte order mark: json', path: '/bom', rule: 'json', message: /byte order mark/ },
  { what: 'a body of null: schema', path: '/null', rule: 'schema', message: /expected an object, got null/ },
  { what: 'a JSON number: schema', path: '/number', rule: 'schema', message: /expected an object, got an integer 42/ },
  {
    what: 'the connection reset in the middle of the body: status',
    path: '/reset',
    rule: 'status',
    message: /got none: connection (reset|closed)/,
  },
  { what: 'not HTTP at all: status', path: '/garbage', rule: 'status', message: /not valid HTTP/ },
  { what: 'headers larger than 16 KiB: status', path: '/huge-headers', rule: 'status', message: /headers are larger than 16 KiB/ },
];

describe('a hostile agent ends every turn with a clear finding on the right case', () => {
  for (const { what, path, rule, message, agentTimeoutSeconds } of ONE_FINDING) {
    test(what, async () => {
      const { findings } = await photoCase(path, agentTimeoutSeconds === undefined ? {} : { agentTimeoutSeconds });
      assertOneFinding(findings, rule, message);
    });
  }
  test('JSON nested 100,000 levels: a schema finding, no stack overflow, and the report still serializes', async () => {
    const { report, findings, photo } = await photoCase('/deep');
    assertOneFinding(findings, 'schema', /expected an object, got an array/);
    assert.equal(photo.turns[0]!.answer, null, 'too deep to copy into the report');
    assert.equal(JSON.parse(JSON.stringify(report)).cases.length, report.cases.length, 'the report serializes whole');
  });
  test('JSON nested 100,000 levels inside a reply: one unknown-property finding', async () => {
    const { report, findings } = await photoCase('/deep-inside');
    assertOneFinding(findings, 'schema', /unknown property "extra"/);
    assert.equal(JSON.parse(JSON.stringify(report)).cases.length, report.cases.length, 'the report serializes whole');
  });
  test('50,000 broken replies: findings capped, with one line for the rest', async () => {
    const { findings } = await photoCase('/many-replies');
    assert.equal(findings.length, MAX_FINDINGS);
    const flood = findings.filter((finding) => finding.path === '/replies');
    assert.deepEqual(
      flood.map((finding) => finding.message),
      ['more than 49 replies do not match the schema; the first 49 are described, the rest were not checked'],
    );
  });
  for (const [what, path] of [
    ['a close-delimited HTTP/1.0 answer is read whole', '/http10'],
    ['an answer sent before the request body was read', '/http10?early=1'],
  ] as const) {
    test(`${what}: the case passes`, async () => {
      assert.equal((await photoCase(path)).report.outcome, 'passed');
    });
  }
  for (const code of [301, 302, 307, 308]) {
    test(`a ${code} redirect is not followed: the finding names the location; the token goes nowhere else`, async () => {
      elsewhereHits = 0;
      const { findings } = await photoCase(`/redirect-${code}?to=${encodeURIComponent(elsewhere.url)}`);
      assertOneFinding(
        findings,
        'status',
        new RegExp(`expected status 200, got ${code} \\(location: ${elsewhere.url.replace(/[.]/g, '\\.')}\\)`),
      );
      assert.match((findings[0] as { hint: string }).hint, /point check-endpoint at the final URL/);
      assert.equal(elsewhereHits, 0);
    });
  }
});

describe('targets', () => {
  test('an IPv6 literal host works', async () => {
    const v6 = await serveAgent(() => ({ replies: [{ type: 'message', text: 'hi' }] }), { host: '::1' });
    try {
      assert.match(v6.url, /^http:\/\/\[::1\]:\d+\/agent$/);
      const report = await checkEndpoint(v6.url);
      assert.equal(report.outcome, 'passed');
    } finally {
      await v6.close();
    }
  });

  describe('https with a certificate the system does not trust', () => {
    let server: ReturnType<typeof createHttpsServer>;
    let url: string;
    before(async () => {
      server = createHttpsServer(
        { key: readFileSync(join(ROOT, 'fixtures/tls/localhost.key')), cert: readFileSync(join(ROOT, 'fixtures/tls/localhost.crt')) },
        (request, response) => {
          request.resume();
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"replies":[{"type":"message","text":"hi"}]}');
        },
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
    });
    after(() => {
      server.closeAllConnections();
      server.close();
    });
    test('fails with exit 2 and a message naming the problem', async () => {
      const result = await runCli([url]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /Could not reach your agent at https:\/\/127\.0\.0\.1:\d+\/agent: TLS: the certificate is self-signed/);
    });
    test('--insecure accepts it, and says so loudly', async () => {
      const result = await runCli([url, '--insecure']);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stdout, /WARNING: --insecure: the agent's TLS certificate is NOT verified/);
    });
  });
});

describe('the command against the hostile agent', () => {
  test('peak memory stays under 150 MiB while a 1 GiB body streams in', async () => {
    const child = spawn(
      process.execPath,
      ['-r', join(ROOT, 'test/peak-memory.cjs'), CLI, `${hostile.origin}/huge?case=photo`, '--case', 'photo', '--json'],
      {
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    let stdout = '';
    let rss = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdio[3]!.on('data', (chunk: Buffer) => (rss += chunk.toString()));
    child.stderr!.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 1);
    assert.equal(JSON.parse(stdout).cases[0].findings[0].rule, 'json');
    const peakMiB = Number(rss.trim()) / 1024;
    assert.ok(peakMiB > 0 && peakMiB < 150, `peak memory ${peakMiB.toFixed(1)} MiB`);
  });
});
