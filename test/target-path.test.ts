/**
 * A `{ listener }` or `{ fetch }` target's `path` is a path on the origin the checker gives the
 * handler: a value a URL reads as another host (`//host`, `/\host`), a scheme, `..` above the root,
 * or a control character is a TypeError naming the field, and nothing is sent anywhere: a second
 * loopback server, the host such a path names, receives no request.
 */
import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { checkEndpoint } from '../src/index.js';
import { referenceFetchHandler, referenceListener } from './in-process-agents.js';

const TOKEN = 'sk-path-test-0123456789';
const OPTIONS = { env: { AGENT_TOKEN: TOKEN }, tokenEnv: 'AGENT_TOKEN', channels: ['whatsapp'] };

let other: Server;
let otherPort = 0;
const received: string[] = [];

before(async () => {
  other = createServer((request, response) => {
    received.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"replies":[]}');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherPort = (other.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => other.close(() => resolve())));

/** Values that are not paths, each with what the message says of it. */
function notPaths(): [string, RegExp][] {
  return [
    [`//127.0.0.1:${otherPort}/agent`, /starts with \/\/, which a URL reads as another host/],
    [`/\\127.0.0.1:${otherPort}/agent`, /contains a backslash/],
    [`/agent\\..\\..`, /contains a backslash/],
    [`http://127.0.0.1:${otherPort}/agent`, /must start with \//],
    [`/../agent`, /its \.\. segments go above the root/],
    [`/a/%2E%2e/../agent`, /its \.\. segments go above the root/],
    [`/agent\n`, /contains a control character/],
    [`/ag\u0000ent`, /contains a control character/],
  ];
}

const listener = referenceListener;

describe("a target's path", () => {
  for (const kind of ['listener', 'fetch'] as const) {
    test(`{ ${kind}, path } that is not a path is a TypeError naming path, and nothing reaches the host it names`, async () => {
      for (const [path, why] of notPaths()) {
        const target = kind === 'listener' ? { listener, path } : { fetch: referenceFetchHandler, path };
        await assert.rejects(checkEndpoint(target, OPTIONS), (cause: unknown) => {
          assert.ok(cause instanceof TypeError, String(cause));
          assert.match(cause.message, /^the target's path must be a path such as \/agent; /);
          assert.match(cause.message, why);
          return true;
        });
      }
      assert.deepEqual(received, [], 'the second server received nothing');
    });
  }

  test("a path, with . and .. inside it and a query, is checked at that path of the checker's own origin", async () => {
    const report = await checkEndpoint({ listener, path: '/v1/../agent/./?tenant=a' }, OPTIONS);
    assert.equal(report.outcome, 'passed', JSON.stringify(report.cases.map((entry) => entry.findings)));
    assert.match(report.target, /^Node request listener, served by check-endpoint at http:\/\/127\.0\.0\.1:\d+\/agent\/\?tenant=a$/);
    assert.deepEqual(received, []);
  });

  test('a query is never echoed in the message', async () => {
    await assert.rejects(checkEndpoint({ listener, path: '//host/agent?key=sk-in-the-query' }, OPTIONS), (cause: unknown) => {
      assert.ok(cause instanceof TypeError);
      assert.doesNotMatch(cause.message, /sk-in-the-query/);
      return true;
    });
  });
});
