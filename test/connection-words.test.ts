/**
 * Words that name the cause and the fix when the URL reaches the wrong thing: http:// to an https
 * port and the reverse, a certificate the system does not trust, a server that is not the agent
 * (python3 -m http.server's 501, the 404s of express, Fastify and nginx, nginx's 405 and its 400 for
 * plain http on an https port), and a URL without a scheme. Real servers where this machine has
 * them (node:https with fixtures/tls, node:http, python3 -m http.server); the exact answers of the
 * others, captured from them, in fixtures/framework-answers/.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { checkEndpoint } from '../src/run/check-endpoint.js';
import { lacksScheme } from '../src/run/target-url.js';
import { ROOT, runCli } from './helpers.js';
import { type RawServer, startRawServer } from './raw-http-server.js';
import { NOT_AN_AGENT_ANSWERS } from './not-an-agent-answers.js';

const closers: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const close of closers) await close();
});

const TLS = {
  key: readFileSync(join(ROOT, 'fixtures/tls/localhost.key')),
  cert: readFileSync(join(ROOT, 'fixtures/tls/localhost.crt')),
};

/** A node:http or node:https server answering every request with one valid reply, on a loopback port. */
async function listen(server: http.Server): Promise<number> {
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"replies":[{"type":"message","text":"hi"}]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return (server.address() as AddressInfo).port;
}

/** The one error a run that could not start reports. */
async function couldNotReach(url: string): Promise<string> {
  const report = await checkEndpoint(url, { env: {}, cases: ['typed'] });
  assert.equal(report.outcome, 'error');
  return report.error!.message;
}

describe('the scheme that does not fit the port', () => {
  test('http:// to an https port: the TLS handshake that succeeds there says to use https://', async () => {
    const port = await listen(https.createServer(TLS));
    const message = await couldNotReach(`http://127.0.0.1:${port}/agent`);
    assert.match(
      message,
      new RegExp(
        `^Could not reach your agent at http://127\\.0\\.0\\.1:${port}/agent: .+\\. The agent speaks https on this port: use https://127\\.0\\.0\\.1:${port}/agent$`,
      ),
    );
    assert.doesNotMatch(message, /HEAD/, 'not taken for a handler that crashes on HEAD');
  });

  test('https:// to an http port: "wrong version number" says to use http://', async () => {
    const port = await listen(http.createServer());
    assert.equal(
      await couldNotReach(`https://127.0.0.1:${port}/agent`),
      `Could not reach your agent at https://127.0.0.1:${port}/agent: TLS: the server's answer is not TLS (wrong version number). The agent speaks plain http on this port, not https: use http://127.0.0.1:${port}/agent`,
    );
  });

  test('a server that resets plain connections and does not speak TLS either gets no https advice', async () => {
    const server = await startRawServer((_, socket) => socket.resetAndDestroy());
    closers.push(() => server.close());
    const message = await couldNotReach(server.url);
    assert.doesNotMatch(message, /https/);
    assert.match(message, /closed the connection on HEAD without answering/);
  });
});

describe('a certificate the system does not trust', () => {
  let port: number;
  before(async () => {
    port = await listen(https.createServer(TLS));
  });

  test('the message names NODE_EXTRA_CA_CERTS and --insecure', async () => {
    assert.equal(
      await couldNotReach(`https://localhost:${port}/agent`),
      `Could not reach your agent at https://localhost:${port}/agent: TLS: the certificate is self-signed. Trust the certificate authority that signed it with NODE_EXTRA_CA_CERTS=/path/ca.pem (for a self-signed certificate, the certificate itself), or pass --insecure (local use only: the certificate is then not checked).`,
    );
  });

  test('NODE_EXTRA_CA_CERTS naming the certificate is trusted, as the message says', async () => {
    const result = await runCli([`https://localhost:${port}/agent`, '--case', 'typed'], {
      env: { NODE_EXTRA_CA_CERTS: join(ROOT, 'fixtures/tls/localhost.crt') },
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
  });
});

interface CapturedAnswer {
  producedBy: string;
  answer: { status: number; statusText: string; httpVersion?: string; headers: Record<string, string>; body: string };
}

/** A raw server that answers every request with a captured answer, byte for byte (no body on HEAD). */
async function replay(name: string): Promise<RawServer> {
  const { answer } = JSON.parse(readFileSync(join(ROOT, `fixtures/framework-answers/${name}.json`), 'utf8')) as CapturedAnswer;
  const head = [
    `HTTP/${answer.httpVersion ?? '1.1'} ${answer.status} ${answer.statusText}`,
    ...Object.entries(answer.headers).map(([header, value]) => `${header}: ${value}`),
  ].join('\r\n');
  const server = await startRawServer((request, socket) => {
    socket.write(`${head}\r\n\r\n${request.method === 'HEAD' ? '' : answer.body}`);
    if (answer.headers.connection === 'close') socket.end();
  });
  closers.push(() => server.close());
  return server;
}

/** The one finding of the typed case against a server. */
async function typedFinding(url: string): Promise<{ rule: string; message: string; hint: string }> {
  const report = await checkEndpoint(url, { env: {}, cases: ['typed'] });
  const findings = report.cases.flatMap((played) => played.findings);
  assert.equal(findings.length, 1, JSON.stringify(findings));
  return { rule: findings[0]!.rule, message: findings[0]!.message, hint: findings[0]!.hint ?? '' };
}

describe('a server that is not the agent, in its own words', () => {
  for (const { name, status, hint } of NOT_AN_AGENT_ANSWERS) {
    test(`${name}: ${hint.slice(0, 60)}…`, async () => {
      const server = await replay(name);
      const finding = await typedFinding(server.url);
      assert.equal(finding.rule, 'status');
      assert.match(finding.message, new RegExp(`^expected status 200, got ${status}: `));
      assert.equal(finding.hint, hint);
    });
  }

  test('python3 -m http.server itself: HEAD answered, POST 501, "probably a static file server"', async () => {
    const python: ChildProcess = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1'], {
      cwd: join(ROOT, 'fixtures'),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    closers.push(() => void python.kill());
    const port = await new Promise<string>((resolve, reject) => {
      let printed = '';
      python.stdout!.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const found = / port (\d+) /.exec(printed);
        if (found) resolve(found[1]!);
      });
      python.on('exit', (code) => reject(new Error(`python3 -m http.server exited (${code}): ${printed}`)));
    });
    const finding = await typedFinding(`http://127.0.0.1:${port}/agent`);
    assert.match(finding.message, /^expected status 200, got 501: /);
    assert.match(
      finding.hint,
      /^The server at this URL does not take POST \(server: SimpleHTTP\/[\d.]+ Python\/[\d.]+\): "Unsupported method \('POST'\)"\. It is probably a static file server/,
    );
  });
});

describe('a URL without a scheme', () => {
  test('a host with a port, a dotted name, localhost or an IPv6 literal is taken for http://, as curl does; a bare word is not', () => {
    const taken = ['localhost:8080', 'localhost:8080/agent', '127.0.0.1:8080', '[::1]:8080/agent', 'agent.example.com/chat', 'localhost'];
    const notTaken = ['localhost-agent', 'http://127.0.0.1/agent', 'ftp://127.0.0.1/agent', 'mailto:someone', ''];
    assert.deepEqual(
      taken.filter((text) => !lacksScheme(text)),
      [],
    );
    assert.deepEqual(
      notTaken.filter((text) => lacksScheme(text)),
      [],
    );
  });

  test('127.0.0.1:PORT/agent: checks http://127.0.0.1:PORT/agent and says so on stderr, never "the scheme is 127.0.0.1"', async () => {
    const agent: RunningAgent = await startReferenceAgent();
    closers.push(() => agent.close());
    const given = agent.url.replace(/^http:\/\//, '');
    const result = await runCli([given, '--case', 'typed', '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`"${given.replace(/\./g, '\\.')}" has no scheme: checking ${agent.url.replace(/\./g, '\\.')} \\(as curl does\\)`),
    );
    assert.equal((JSON.parse(result.stdout) as { target: string }).target, agent.url);
  });
});
