/**
 * Proxies from the environment, as curl reads them: a loopback proxy (plain forwarding and CONNECT
 * tunnels, behind basic auth) must see every request, and none with NO_PROXY; its credentials are
 * written nowhere.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { type IncomingMessage, type Server, createServer, request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { UsageError } from '../src/core/usage-error.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { bypassesProxy, parseProxyUrl, proxyFor } from '../src/http/proxy.js';
import { checkEndpoint } from '../src/run/check-endpoint.js';
import { ROOT, runCli, everyReport } from './helpers.js';

const { platforms } = bundledContract();
const rulesOf = (channel: string) => (Object.hasOwn(platforms, channel) ? platforms[channel] : undefined);

describe('which proxy, as curl reads the variables', () => {
  const http = new URL('http://agent.example.com/agent');
  const https = new URL('https://agent.example.com/agent');

  test('https targets take https_proxy, then HTTPS_PROXY; http targets http_proxy, then HTTP_PROXY; an empty one is unset', () => {
    assert.equal(proxyFor(https, { HTTPS_PROXY: 'http://a:1', https_proxy: 'http://b:2' })?.shown, 'http://b:2');
    assert.equal(proxyFor(https, { HTTPS_PROXY: 'http://a:1', https_proxy: '' })?.variable, 'HTTPS_PROXY');
    assert.equal(proxyFor(https, { HTTP_PROXY: 'http://a:1' }), undefined);
    assert.equal(proxyFor(http, { HTTPS_PROXY: 'http://a:1' }), undefined);
    assert.equal(proxyFor(http, { HTTP_PROXY: 'http://a:1', http_proxy: 'http://b:2' })?.shown, 'http://b:2');
    assert.equal(proxyFor(http, {}), undefined);
  });

  test('a proxy without a scheme is http; without a port, 1080 (443 for an https proxy), as curl has it', () => {
    assert.equal(proxyFor(http, { HTTP_PROXY: 'proxy.corp:3128' })?.shown, 'http://proxy.corp:3128');
    assert.equal(proxyFor(http, { HTTP_PROXY: 'http://proxy.corp' })?.shown, 'http://proxy.corp:1080');
    assert.equal(proxyFor(http, { HTTP_PROXY: 'https://proxy.corp' })?.shown, 'https://proxy.corp:443');
    assert.equal(proxyFor(http, { HTTP_PROXY: 'http://proxy.corp:80' })?.shown, 'http://proxy.corp:80');
  });

  test('credentials go to the proxy URL only: shown without them, the password known as a secret', () => {
    const choice = proxyFor(https, { HTTPS_PROXY: 'http://me:p%40ss@proxy.corp:3128' })!;
    assert.equal(choice.shown, 'http://proxy.corp:3128');
    assert.equal(choice.password, 'p@ss');
    assert.equal(choice.url.username, 'me');
  });

  test('a malformed proxy URL: a UsageError naming the variable, never its value', () => {
    for (const value of ['http://me:s3cret@', 'socks5://me:s3cret@proxy:1080', 'http://me:s3cret@pro xy:1', 'http://me:%E0%A4%A@proxy:1']) {
      assert.throws(
        () => parseProxyUrl(value, 'HTTPS_PROXY'),
        (error: unknown) =>
          error instanceof UsageError &&
          /^HTTPS_PROXY is not a proxy URL/.test(error.message) &&
          !error.message.includes('s3cret') &&
          !error.message.includes('%E0'),
        value,
      );
    }
  });

  test('NO_PROXY: *, host names, domain suffixes (with or without a leading dot), trailing dots, case', () => {
    assert.ok(bypassesProxy('anything.example', '*'));
    assert.ok(!bypassesProxy('anything.example', '*.example'), 'a * inside a list is no wildcard');
    assert.ok(bypassesProxy('example.com', 'example.com'));
    assert.ok(bypassesProxy('www.example.com', 'example.com'));
    assert.ok(bypassesProxy('www.example.com', '.example.com'));
    assert.ok(bypassesProxy('example.com', '.example.com'));
    assert.ok(!bypassesProxy('notexample.com', 'example.com'));
    assert.ok(bypassesProxy('WWW.Example.COM.', 'example.com.'));
    assert.ok(bypassesProxy('b.internal', ' a.internal , b.internal '));
    assert.ok(!bypassesProxy('example.com', ''));
  });

  test('NO_PROXY: IP addresses and CIDR ranges match IP hosts; a host name never does; localhost does not cover 127.0.0.1', () => {
    assert.ok(bypassesProxy('127.0.0.1', '127.0.0.1'));
    assert.ok(bypassesProxy('127.0.0.1', '127.0.0.0/8'));
    assert.ok(!bypassesProxy('128.0.0.1', '127.0.0.0/8'));
    assert.ok(bypassesProxy('10.1.2.3', '10.0.0.0/8,192.168.0.0/16'));
    assert.ok(!bypassesProxy('127.0.0.1', 'localhost'));
    assert.ok(!bypassesProxy('127.0.0.1', '0.0.1'), 'no suffix match on addresses');
    assert.ok(bypassesProxy('[::1]', '::1'));
    assert.ok(bypassesProxy('[fd00::5]', 'fd00::/8'));
    assert.ok(!bypassesProxy('[::1]', '127.0.0.1'));
    assert.ok(!bypassesProxy('localhost.', 'localhost.example'));
    assert.ok(bypassesProxy('localhost', 'localhost'));
  });

  test('NO_PROXY and no_proxy: the lower-case one first', () => {
    const env = { HTTPS_PROXY: 'http://proxy:1', no_proxy: 'other.example', NO_PROXY: 'agent.example.com' };
    assert.notEqual(proxyFor(https, env), undefined);
    assert.equal(proxyFor(https, { ...env, no_proxy: undefined }), undefined);
  });
});

/** A loopback proxy: forwards plain requests and opens CONNECT tunnels, for callers with the right Proxy-Authorization. */
interface LoopbackProxy {
  url: string;
  port: number;
  /** What it was asked: `GET http://…` and `CONNECT host:port`, in order. */
  seen: string[];
  /** The Proxy-Authorization of each request. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

const PROXY_USER = 'proxyuser';
const PROXY_PASSWORD = 'pr0xy-s3cret-9f1d';
const PROXY_AUTH = `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`;

async function startProxy(): Promise<LoopbackProxy> {
  const seen: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const sockets = new Set<Socket>();
  const allowed = (request: IncomingMessage): boolean => {
    authorizations.push(request.headers['proxy-authorization']);
    return request.headers['proxy-authorization'] === PROXY_AUTH;
  };
  const server: Server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    if (!allowed(request))
      return void response.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"', 'content-length': '0' }).end();
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(request.url!, { method: request.method, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${request.url}`);
    if (!allowed(request)) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\ncontent-length: 0\r\n\r\n');
    const [host, port] = [
      request.url!.slice(0, request.url!.lastIndexOf(':')),
      Number(request.url!.slice(request.url!.lastIndexOf(':') + 1)),
    ];
    const target = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    sockets.add(target);
    target.on('close', () => sockets.delete(target));
    target.on('error', () => client.destroy());
    client.on('error', () => target.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:${port}`,
    port,
    seen,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('through a loopback proxy', () => {
  let proxy: LoopbackProxy;
  let agent: RunningAgent;
  /** What reached the agent: method and the proxy headers it must never see. */
  let reached: { method: string; proxyAuthorization: string | undefined }[] = [];

  before(async () => {
    proxy = await startProxy();
    agent = await serveAgent((body, raw) => {
      reached.push({ method: raw.method!, proxyAuthorization: raw.headers['proxy-authorization'] });
      return referenceAnswer(body, rulesOf(body.channel));
    });
  });
  after(async () => {
    await Promise.all([proxy.close(), agent.close()]);
  });
  const reset = (): void => {
    proxy.seen.length = 0;
    proxy.authorizations.length = 0;
    reached = [];
  };

  test('HTTP_PROXY for an http target: the proxy sees every request, HEAD included, with its credentials; the agent never sees them', async () => {
    reset();
    const report = await checkEndpoint(agent.url, { channels: ['all'], env: { HTTP_PROXY: proxy.url } });
    assert.equal(report.outcome, 'passed');
    const turns = report.cases.reduce((sum, c) => sum + c.turns.length, 0);
    assert.equal(proxy.seen.length, 1 + turns);
    assert.equal(proxy.seen[0], `HEAD ${agent.url}`);
    assert.ok(proxy.seen.slice(1).every((line) => line === `POST ${agent.url}`));
    assert.ok(proxy.authorizations.every((value) => value === PROXY_AUTH));
    assert.equal(reached.length, turns);
    assert.ok(reached.every((request) => request.proxyAuthorization === undefined));
  });

  test('NO_PROXY naming the host: the proxy sees nothing', async () => {
    for (const noProxy of ['127.0.0.1', '127.0.0.0/8', '*', 'example.com, 127.0.0.1']) {
      reset();
      const report = await checkEndpoint(agent.url, { env: { HTTP_PROXY: proxy.url, NO_PROXY: noProxy } });
      assert.equal(report.outcome, 'passed', noProxy);
      assert.deepEqual(proxy.seen, [], noProxy);
    }
  });

  test('NO_PROXY=localhost does not cover 127.0.0.1 (curl does not either): the proxy sees the requests', async () => {
    reset();
    const report = await checkEndpoint(agent.url, { env: { http_proxy: proxy.url, NO_PROXY: 'localhost' } });
    assert.equal(report.outcome, 'passed');
    assert.ok(proxy.seen.length > 0);
  });

  test('a wrong proxy password: 407 on every turn, with a hint about the proxy', async () => {
    reset();
    const report = await checkEndpoint(agent.url, { cases: ['typed'], env: { HTTP_PROXY: proxy.url.replace(PROXY_PASSWORD, 'wrong') } });
    const [finding] = report.cases[0]!.findings;
    assert.equal(finding?.message, 'expected status 200, got 407');
    assert.match(finding?.hint ?? '', /proxy .* wants credentials/);
    assert.deepEqual(reached, []);
  });

  describe('HTTPS_PROXY for an https target: a CONNECT tunnel for every connection', () => {
    let server: ReturnType<typeof createHttpsServer>;
    let url: string;
    let connections = 0;
    let requests = 0;
    before(async () => {
      server = createHttpsServer(
        { key: readFileSync(join(ROOT, 'fixtures/tls/localhost.key')), cert: readFileSync(join(ROOT, 'fixtures/tls/localhost.crt')) },
        (request, response) => {
          requests++;
          const chunks: Buffer[] = [];
          request.on('data', (chunk: Buffer) => chunks.push(chunk));
          request.on('end', () => {
            if (request.method === 'HEAD') return void response.writeHead(200).end();
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            response
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify(referenceAnswer(body, rulesOf(body.channel))));
          });
        },
      );
      server.on('secureConnection', () => connections++);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
    });
    after(() => {
      server.closeAllConnections();
      server.close();
    });

    test('every connection to the agent came through the proxy; every case passes', async () => {
      reset();
      const report = await checkEndpoint(url, { channels: ['all'], insecure: true, env: { HTTPS_PROXY: proxy.url } });
      assert.equal(report.outcome, 'passed', JSON.stringify(report.error));
      const turns = report.cases.reduce((sum, c) => sum + c.turns.length, 0);
      assert.equal(requests, 1 + turns);
      const host = new URL(url).host;
      assert.ok(proxy.seen.length > 0 && proxy.seen.every((line) => line === `CONNECT ${host}`));
      assert.equal(proxy.seen.length, connections, 'one tunnel per connection');
      assert.ok(proxy.authorizations.every((value) => value === PROXY_AUTH));
    });

    test('the certificate is still checked through the tunnel (without --insecure)', async () => {
      const report = await checkEndpoint(url, { env: { HTTPS_PROXY: proxy.url } });
      assert.match(report.error?.message ?? '', /TLS: the certificate is self-signed/);
    });
  });

  test('the command says which proxy, and its password is in no output or report file', async () => {
    reset();
    const dir = mkdtempSync(join(tmpdir(), 'check-endpoint-proxy-'));
    try {
      const result = await runCli([agent.url, ...everyReport(dir)], {
        env: { HTTP_PROXY: proxy.url, NO_PROXY: undefined, no_proxy: undefined, http_proxy: undefined },
      });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, new RegExp(`proxy: http://127\\.0\\.0\\.1:${proxy.port} \\(HTTP_PROXY\\)`));
      assert.ok(proxy.seen.length > 0);
      const files = [
        join(dir, 'a.har'),
        join(dir, 'a.xml'),
        join(dir, 'a.html'),
        ...readdirSync(join(dir, 'r')).map((name) => join(dir, 'r', name)),
      ];
      for (const [where, text] of [
        ['stdout', result.stdout],
        ['stderr', result.stderr],
        ...files.map((file) => [file, readFileSync(file, 'utf8')]),
      ]) {
        assert.ok(!text!.includes(PROXY_PASSWORD), `${where} holds the proxy's password`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a malformed proxy variable: exit 2 naming it, and not its password', async () => {
    const result = await runCli([agent.url], {
      env: { HTTP_PROXY: `http://me:${PROXY_PASSWORD}@`, NO_PROXY: undefined, no_proxy: undefined },
    });
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /HTTP_PROXY is not a proxy URL check-endpoint can use \(it does not parse as a URL\); write http:\/\/\[user:password@\]host:port/,
    );
    assert.ok(!result.stderr.includes(PROXY_PASSWORD) && !result.stdout.includes(PROXY_PASSWORD));
  });
});
