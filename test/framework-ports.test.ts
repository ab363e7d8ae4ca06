/**
 * Framework authors' ports, as they are written (docs/frameworks.md): a class whose `fetch` method
 * reads `this`; a Next.js route module dispatched by method; the one-line target of hapi, NestJS,
 * polka, h3 and Elysia, each a real app of that framework checked in this process; and hapi's real
 * 413 over its payload.maxBytes, named with its setting by the large-attachment hint.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, describe, test } from 'node:test';
import Hapi from '@hapi/hapi';
import { Controller, Module, Post, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Elysia } from 'elysia';
import { H3, toNodeHandler } from 'h3';
import polka from 'polka';
import 'reflect-metadata';
import { type CheckTarget, type Report, checkEndpoint } from '../src/index.js';
import { routeModuleHandler } from '../src/http/route-module.js';
import { resolveTarget } from '../src/run/agent-target.js';
import { hapiAgentServer } from '../fixtures/agents/frameworks/hapi-agent.js';
import * as nextRoute from '../fixtures/agents/ports/next-route.js';
import * as nextRouteWithGet from '../fixtures/agents/ports/next-route-with-get.js';
import { referenceExchange } from './in-process-agents.js';

const AGENT_PATH = '/agent';

/** One channel's fixed cases, no token, no .env: the run depends on nothing around it. */
function check(target: CheckTarget): Promise<Report> {
  return checkEndpoint(target, { env: {}, channels: ['whatsapp'] });
}

/** quality/large-attachment alone: the 5 MiB image, a body under 7 MB. */
function checkLargeAttachment(target: CheckTarget): Promise<Report> {
  return checkEndpoint(target, { env: {}, channels: ['whatsapp'], cases: ['quality/large-attachment'] });
}

function assertPassed(report: Report): void {
  assert.deepEqual(
    report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}/${c.id}: ${f.rule}: ${f.message}`)),
    [],
  );
  assert.equal(report.outcome, 'passed');
  assert.ok(report.cases.length > 0);
}

/** The whole body of a Node request, as text. */
async function bodyText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The reference agent's answer written to a Node response. */
async function answerNode(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { status, body } = referenceExchange(request.method ?? '', await bodyText(request));
  response.writeHead(status, { 'content-type': 'application/json' }).end(body);
}

/** The reference agent's answer to a fetch Request. */
async function answerFetch(request: Request): Promise<Response> {
  const { status, body } = referenceExchange(request.method, await request.text());
  return new Response(request.method === 'HEAD' ? null : body, { status, headers: { 'content-type': 'application/json' } });
}

describe('an object with a fetch method, called as its framework calls it', () => {
  /** An agent written as a class: its fetch method reads `this`. */
  class ClassAgent {
    readonly #answer = answerFetch;
    calls = 0;
    fetch(request: Request): Promise<Response> {
      this.calls++;
      return this.#answer(request);
    }
  }

  test('a class instance: its fetch method is called on it, `this` and all', async () => {
    const agent = new ClassAgent();
    assertPassed(await check(agent));
    assert.ok(agent.calls > 0);
  });

  test('{ fetch: app, path }: the app`s own method, called on the app, with the path', async () => {
    const agent = new ClassAgent();
    const paths: string[] = [];
    const report = await check({
      fetch: {
        fetch: (request: Request) => {
          paths.push(new URL(request.url).pathname);
          return agent.fetch(request);
        },
      },
      path: AGENT_PATH,
    });
    assertPassed(report);
    assert.deepEqual([...new Set(paths)], [AGENT_PATH]);
    const direct = new ClassAgent();
    assertPassed(await check({ fetch: direct, path: AGENT_PATH }));
    assert.ok(direct.calls > 0);
  });

  test('{ fetch: app.fetch.bind(app) } works; { fetch: app.fetch } has lost its `this`, and the finding says the handler threw', async () => {
    const agent = new ClassAgent();
    assertPassed(await check({ fetch: agent.fetch.bind(agent) }));
    const unbound = await check({ fetch: agent.fetch });
    assert.equal(unbound.outcome, 'failed');
    assert.match(JSON.stringify(unbound.cases[0]!.findings), /the handler threw TypeError/);
  });
});

describe('a Next.js route module, dispatched by method', () => {
  test('import * as route: POST answers, HEAD gets the 405 Next.js gives an unexported method, and every case passes', async () => {
    const report = await check(nextRoute);
    assertPassed(report);
    assert.equal(report.target, 'in-process route module (POST)');
    const handler = routeModuleHandler({ POST: nextRoute.POST });
    const head = (await handler(new Request('http://check-endpoint.invalid/', { method: 'HEAD' }))) as Response;
    assert.equal(head.status, 405);
  });

  test('{ ...route, path }: the path is carried', async () => {
    assertPassed(await check({ ...nextRoute, path: AGENT_PATH }));
    assert.throws(() => resolveTarget({ ...nextRoute, path: '//elsewhere/agent' }), /path/);
  });

  test('HEAD with GET and no HEAD export: GET answers it, without the body, as Next.js does; OPTIONS names the methods; PUT is 405', async () => {
    const handler = routeModuleHandler({ GET: nextRouteWithGet.GET, POST: nextRouteWithGet.POST });
    const head = (await handler(new Request('http://check-endpoint.invalid/', { method: 'HEAD' }))) as Response;
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('x-answered-by'), 'GET');
    assert.equal(await head.text(), '');
    const options = (await handler(new Request('http://check-endpoint.invalid/', { method: 'OPTIONS' }))) as Response;
    assert.equal(options.status, 204);
    assert.equal(options.headers.get('allow'), 'GET, HEAD, OPTIONS, POST');
    const put = (await handler(new Request('http://check-endpoint.invalid/', { method: 'PUT', body: '{}' }))) as Response;
    assert.equal(put.status, 405);
    assertPassed(await check(nextRouteWithGet));
  });

  test('an object with no route handler is still refused, naming what a target may be', () => {
    assert.throws(() => resolveTarget({ get: () => new Response() }), /a Next\.js route module \(\{ GET, POST, … \}\)/);
  });
});

describe('the one-line target of each framework, checked in this process', () => {
  const closers: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const close of closers) await close();
  });

  test('hapi: server.listener, after await server.initialize()', async () => {
    const server = hapiAgentServer();
    await server.initialize();
    closers.push(() => server.stop());
    assertPassed(await check({ listener: server.listener, path: AGENT_PATH }));
  });

  test('NestJS: app.getHttpAdapter().getInstance(), after await app.init()', async () => {
    // The decorators applied as functions: the same metadata `@Controller('agent')`, `@Post()`, `@Req()`, `@Res()` write.
    class AgentController {
      answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
        return answerNode(request, response);
      }
    }
    const answer = Object.getOwnPropertyDescriptor(AgentController.prototype, 'answer')!;
    Req()(AgentController.prototype, 'answer', 0);
    Res()(AgentController.prototype, 'answer', 1);
    Post()(AgentController.prototype, 'answer', answer);
    Controller('agent')(AgentController);
    class AppModule {}
    Module({ controllers: [AgentController] })(AppModule);
    // The body is read by the handler itself: Nest's JSON parser (express.json(), 100 kB) is not in the way.
    const app = await NestFactory.create<NestExpressApplication>(AppModule, { logger: false, bodyParser: false });
    await app.init();
    closers.push(() => app.close());
    assertPassed(await check({ listener: app.getHttpAdapter().getInstance(), path: AGENT_PATH }));
  });

  test('polka: app.handler', async () => {
    const app = polka().post(AGENT_PATH, (request: IncomingMessage, response: ServerResponse) => void answerNode(request, response));
    assertPassed(await check({ listener: app.handler, path: AGENT_PATH }));
  });

  test('h3: the app (its fetch method), and toNodeHandler(app); the 5 MiB image taken in process', async () => {
    const app = new H3().post(AGENT_PATH, (event) => answerFetch(event.req));
    assertPassed(await check({ fetch: app, path: AGENT_PATH }));
    assertPassed(await check({ listener: toNodeHandler(app), path: AGENT_PATH }));
    assertPassed(await checkLargeAttachment({ fetch: app, path: AGENT_PATH }));
  });

  test('Elysia on Node: app.fetch, and { fetch: app.handle }; the 5 MiB image taken in process', async () => {
    const app = new Elysia().post(AGENT_PATH, ({ request }) => answerFetch(request), { parse: 'none' });
    assertPassed(await check({ fetch: app.fetch, path: AGENT_PATH }));
    assertPassed(await check({ fetch: app.handle, path: AGENT_PATH }));
    assertPassed(await checkLargeAttachment({ fetch: app.fetch, path: AGENT_PATH }));
  });
});

describe("hapi's 413 over payload.maxBytes (1 MiB by default), from a real hapi server", () => {
  test('the large-attachment hint names hapi, quotes its 413 with the limit, and gives the setting', async () => {
    const server = hapiAgentServer();
    await server.initialize();
    try {
      const report = await checkEndpoint(
        { listener: server.listener, path: AGENT_PATH },
        { env: {}, channels: ['whatsapp'], cases: ['quality/large-attachment'] },
      );
      const [finding] = report.cases[0]!.findings;
      assert.equal(finding?.rule, 'large-attachment');
      assert.match(finding.message, /got status 413: \{"statusCode":413,"error":"Request Entity Too Large"/);
      assert.ok(
        finding.hint!.startsWith(
          "hapi refused it (Payload content length greater than maximum allowed: 1048576): raise its limit with the route's options: { payload: { maxBytes: 7 * 1024 * 1024 } }",
        ),
        finding.hint ?? 'no hint',
      );
      // hapi told itself: no other server's setting.
      assert.doesNotMatch(finding.hint!, /express|Fastify|Django|nginx/);
    } finally {
      await server.stop();
    }
  });

  test('a body at the limit is taken; one byte over is refused with that 413', async () => {
    const server = Hapi.server({ port: 0, host: '127.0.0.1' });
    server.route({ method: 'POST', path: AGENT_PATH, options: { payload: { parse: false } }, handler: () => 'taken' });
    await server.initialize();
    const post = (bytes: number) =>
      server.inject({ method: 'POST', url: AGENT_PATH, payload: Buffer.alloc(bytes, 0x61), headers: { 'content-type': 'text/plain' } });
    assert.equal((await post(1024 * 1024)).statusCode, 200);
    const over = await post(1024 * 1024 + 1);
    assert.equal(over.statusCode, 413);
    assert.equal(
      over.payload,
      '{"statusCode":413,"error":"Request Entity Too Large","message":"Payload content length greater than maximum allowed: 1048576"}',
    );
    await server.stop();
  });
});
