import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
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

describe('a hostile agent ends every turn with a clear finding on the right case', () => {
  test('no answer at all: timeout', async () => {
    const { findings } = await photoCase('/silent');
    assertOneFinding(findings, 'timeout', /expected a complete answer within 2 s; none came/);
  });
  test('a body that trickles one byte a second: one deadline for headers and body', async () => {
    const { findings } = await photoCase('/trickle');
    assertOneFinding(findings, 'timeout', /within 2 s/);
  });
  test('a body that never ends: timeout', async () => {
    const { findings } = await photoCase('/endless');
    assertOneFinding(findings, 'timeout', /within 2 s/);
  });
  test('a 1 GiB body: stopped at --max-body', async () => {
    const { findings } = await photoCase('/huge', { agentTimeoutSeconds: 30 });
    assertOneFinding(findings, 'json', /the body is larger than 10485760 bytes/);
  });
  for (const bomb of ['/gzip-bomb', '/deflate-bomb', '/brotli-bomb']) {
    test(`a compression bomb (${bomb.slice(1)}): the decoded size is held to --max-body`, async () => {
      const { findings } = await photoCase(bomb, { agentTimeoutSeconds: 30 });
      assertOneFinding(findings, 'json', /the body is larger than 10485760 bytes/);
    });
  }
  test('invalid UTF-8: json', async () => {
    assertOneFinding((await photoCase('/invalid-utf8')).findings, 'json', /not valid UTF-8/);
  });
  test('a UTF-8 byte order mark: json', async () => {
    assertOneFinding((await photoCase('/bom')).findings, 'json', /byte order mark/);
  });
  test('a body of null: schema', async () => {
    assertOneFinding((await photoCase('/null')).findings, 'schema', /expected an object, got null/);
  });
  test('a JSON number: schema', async () => {
    assertOneFinding((await photoCase('/number')).findings, 'schema', /expected an object, got an integer 42/);
  });
  test('JSON nested 100,000 levels: a schema finding, no stack overflow, and the report still serializes', async () => {
    const { report, findings, photo } = await photoCase('/deep');
    assertOneFinding(findings, 'schema', /expected an object, got an array/);
    assert.equal(photo.turns[0]!.answer, null, 'too deep to copy into the report');
    assert.ok(JSON.stringify(report).length > 0);
  });
  test('JSON nested 100,000 levels inside a reply: one unknown-property finding', async () => {
    const { report, findings } = await photoCase('/deep-inside');
    assertOneFinding(findings, 'schema', /unknown property "extra"/);
    assert.ok(JSON.stringify(report).length > 0);
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
  test('the connection reset in the middle of the body: status', async () => {
    assertOneFinding((await photoCase('/reset')).findings, 'status', /got none: connection (reset|closed)/);
  });
  test('a close-delimited HTTP/1.0 answer is read whole: the case passes', async () => {
    const { report } = await photoCase('/http10');
    assert.equal(report.outcome, 'passed');
  });
  test('an answer sent before the request body was read: the case passes', async () => {
    const { report } = await photoCase('/http10?early=1');
    assert.equal(report.outcome, 'passed');
  });
  test('not HTTP at all: status', async () => {
    assertOneFinding((await photoCase('/garbage')).findings, 'status', /not valid HTTP/);
  });
  test('headers larger than 16 KiB: status', async () => {
    assertOneFinding((await photoCase('/huge-headers')).findings, 'status', /headers are larger than 16 KiB/);
  });
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

  test('no output and no report of a run with a token set holds the token', async () => {
    const token = 'hostile-secret-9d2f61';
    const tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-hostile-'));
    try {
      const paths = ['/silent', '/reset', '/redirect-307', '/bom', '/deep', '/many-replies', '/garbage'];
      for (const [index, path] of paths.entries()) {
        const reports = join(tmp, `run-${index}`);
        const result = await runCli(
          [`${hostile.origin}${path}`, '--json', '--agent-timeout', '1', '--report-dir', reports, '--html', join(reports, 'report.html')],
          { env: { FLOW_FRAMEWORK_AGENT_TOKEN: token, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(tmp, 'summary.md') } },
        );
        assert.ok([1, 2].includes(result.code ?? -1), `${path}: exit ${result.code}`);
        assert.ok(!result.stdout.includes(token), `${path}: stdout`);
        assert.ok(!result.stderr.includes(token), `${path}: stderr`);
        assert.deepEqual(readdirSync(reports).sort(), ['junit.xml', 'report.html', 'report.json', 'traffic.har'], path);
        for (const file of readdirSync(reports)) assert.ok(!readFileSync(join(reports, file), 'utf8').includes(token), `${path}: ${file}`);
      }
      assert.ok(!readFileSync(join(tmp, 'summary.md'), 'utf8').includes(token), 'the step summary');
      assert.ok(
        hostile.received.some((head) => head.includes(`Bearer ${token}`)),
        'the token was sent to the agent',
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
