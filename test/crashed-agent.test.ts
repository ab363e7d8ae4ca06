/**
 * An agent that took the whole request, then reset the connection (its handler crashed on it), on
 * raw node:net servers: said as that, with a hint to find the crash, never as "connection refused"
 * after the request was sent again on a new connection.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { AgentClient, RESET_AFTER_REQUEST } from '../src/http/client.js';
import { checkEndpoint } from '../src/run/check-endpoint.js';
import { type RawAnswerer, type RawServer, referenceBody, startRawServer, writeAnswer } from './raw-http-server.js';

const servers: RawServer[] = [];
after(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function serve(answer: RawAnswerer): Promise<RawServer> {
  const server = await startRawServer(answer);
  servers.push(server);
  return server;
}

const BODY = JSON.stringify({ hello: 'agent' });

function client(url: string): AgentClient {
  return new AgentClient(new URL(url), { timeoutMs: 5000, maxBodyBytes: 1024 * 1024, connections: 1 });
}

describe('an agent that resets the connection after the whole request', () => {
  test('on a new connection: the crash is said as such, with the hint to find it', async () => {
    const server = await serve((request, socket) => {
      if (request.method === 'HEAD') return writeAnswer(socket, request, Buffer.alloc(0));
      socket.resetAndDestroy();
    });
    const agent = client(server.url);
    const outcome = await agent.post(BODY);
    await agent.close();
    assert.equal(server.requests.at(-1)!.body.toString(), BODY, 'the agent took the whole body');
    assert.equal(outcome.kind, 'network');
    assert.equal(outcome.kind === 'network' && outcome.message, RESET_AFTER_REQUEST);
    assert.equal(outcome.kind === 'network' && outcome.resetAfterRequest, true);

    const report = await checkEndpoint(server.url, { env: {}, cases: ['typed'] });
    const [finding] = report.cases[0]!.findings;
    assert.ok(finding, 'the case fails');
    assert.match(finding.message, /the agent received the whole request, then reset the connection: it crashed while handling it/);
    assert.match(finding.hint ?? '', /its handler crashed on this request/);
    assert.doesNotMatch(JSON.stringify(report), /connection refused/);
  });

  test('on a kept-alive connection, the agent then down: the crash, not "connection refused" after the resend', async () => {
    let crashed = false;
    const server = await serve((request, socket) => {
      if (request.onConnection === 1) return writeAnswer(socket, request, referenceBody({ ...request, method: 'HEAD' }));
      // The second request on the kept-alive connection: the whole of it read, then the process dies.
      crashed = true;
      socket.resetAndDestroy();
      void server.close();
    });
    const agent = client(server.url);
    assert.equal((await agent.head()).kind, 'answer');
    const outcome = await agent.post(BODY);
    await agent.close();
    assert.ok(crashed);
    assert.equal(server.requests.at(-1)!.body.toString(), BODY);
    assert.equal(outcome.kind, 'network');
    assert.ok(outcome.kind === 'network');
    assert.equal(outcome.resetAfterRequest, true, JSON.stringify(outcome));
    assert.equal(outcome.message, `${RESET_AFTER_REQUEST} (sent again on a new connection: connection refused; the agent is down)`);
  });

  test('a kept-alive connection closed before the request (the keep-alive race) is still sent again, and answered', async () => {
    const server = await serve((request, socket) => {
      writeAnswer(socket, request, Buffer.alloc(0));
      if (request.onConnection === 1) socket.end();
    });
    const agent = client(server.url);
    assert.equal((await agent.head()).kind, 'answer');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outcome = await agent.send({ method: 'POST', body: BODY });
    await agent.close();
    assert.equal(outcome.kind, 'answer');
  });
});
