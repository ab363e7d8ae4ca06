/**
 * What `checkEndpoint` checks: an agent's URL, a fetch handler called in this process, or a Node
 * request listener served on a loopback port for the run. Each is opened as a transport; the
 * cases, the judging and the report are the same. Where a check only makes sense over the agent's
 * own socket, the report says it was not applicable, and why.
 *
 * How a bare function is told apart (its declared parameters, `function.length`): none or one
 * (`(request) => Response`: Hono's `app.fetch`, a route handler) is a fetch handler; two or more
 * (`(req, res)`, Express's `(req, res, next)`) is a Node listener. A function declared otherwise
 * (a Next.js handler `(request, context)`, a listener written `(...args)`) is named by a wrapper:
 * `{ fetch: handler }` or `{ listener: app }`. An object with a `fetch` method (a Hono app, a
 * Workers module) is a fetch handler. A wrapper may give the path requests are sent to (`/` by default).
 */
import type { TransportReport } from '../core/report.js';
import type { FetchHandler } from '../http/fetch-handler.js';
import type { NodeListener } from '../http/listener-server.js';
import { targetPath } from './target-path.js';

export type { FetchHandler } from '../http/fetch-handler.js';
export type { NodeListener } from '../http/listener-server.js';

/** A fetch handler named as such, with the path its requests carry (`/` by default). */
export interface FetchHandlerTarget {
  fetch: FetchHandler;
  path?: string;
}

/** A Node request listener named as such, with the path its requests are sent to (`/` by default). */
export interface NodeListenerTarget {
  listener: NodeListener;
  path?: string;
}

export type CheckTarget = string | URL | FetchHandler | NodeListener | FetchHandlerTarget | NodeListenerTarget;

export type ResolvedTarget =
  | { kind: 'url'; url: string }
  | { kind: 'fetch-handler'; handler: FetchHandler; path: string }
  | { kind: 'node-listener'; listener: NodeListener; path: string };

/** The URL a fetch handler's requests carry: a name that resolves nowhere (RFC 6761), so nothing can leave the process. */
const IN_PROCESS_ORIGIN = 'http://check-endpoint.invalid';

const WHAT =
  'a URL, a fetch handler ((request) => Response), a Node request listener ((req, res) => void), { fetch: handler } or { listener: app }';

function isFunction(value: unknown): value is (...args: never[]) => unknown {
  return typeof value === 'function';
}

/** Tells what the target is, by the rule above; a TypeError for anything else. */
export function resolveTarget(target: unknown): ResolvedTarget {
  if (typeof target === 'string') return { kind: 'url', url: target };
  if (target instanceof URL) return { kind: 'url', url: target.href };
  if (isFunction(target)) {
    return target.length >= 2
      ? { kind: 'node-listener', listener: target as NodeListener, path: '/' }
      : { kind: 'fetch-handler', handler: target as FetchHandler, path: '/' };
  }
  if (typeof target === 'object' && target !== null) {
    const { listener, fetch, path } = target as { listener?: unknown; fetch?: unknown; path?: unknown };
    if (isFunction(listener) && fetch === undefined)
      return { kind: 'node-listener', listener: listener as NodeListener, path: targetPath(path) };
    if (isFunction(fetch) && listener === undefined) {
      // A method of its object (a Hono app's, a Workers module's): called on it.
      return { kind: 'fetch-handler', handler: (request) => (fetch as FetchHandler).call(target, request), path: targetPath(path) };
    }
  }
  throw new TypeError(`checkEndpoint's target must be ${WHAT}; got ${target === null ? 'null' : typeof target}`);
}

/** The URL a target's requests carry, for planning the run before anything is opened. */
export function plannedUrl(target: ResolvedTarget): string {
  if (target.kind === 'url') return target.url;
  return new URL(target.path, target.kind === 'fetch-handler' ? IN_PROCESS_ORIGIN : 'http://127.0.0.1').href;
}

const NO_PROXY = 'requests never leave this process and the loopback port the checker opened: no proxy is used';
const NO_TLS = 'plain HTTP in this process: no certificate to check, so insecure has nothing to relax';

/** What the report says of a handler: how it was reached, and which checks were not applicable, each with why. */
export function transportReport(kind: 'fetch-handler' | 'node-listener'): TransportReport {
  if (kind === 'node-listener') {
    return {
      kind,
      notApplicable: [
        { check: 'proxy', reason: NO_PROXY },
        { check: 'tls', reason: NO_TLS },
        { check: 'reproduce', reason: 'the port the listener was served on is closed after the run: a curl line would reach nothing' },
      ],
    };
  }
  return {
    kind,
    notApplicable: [
      {
        check: 'http-framing',
        reason:
          "no HTTP is parsed: the handler's Response is read as it is; the status line, header size limit, chunking and content-length checks need a socket",
      },
      { check: 'reused-connection-retry', reason: 'no connection to reuse: each request is one call of the handler' },
      { check: 'proxy', reason: NO_PROXY },
      { check: 'tls', reason: NO_TLS },
      {
        check: 'reproduce',
        reason: "no URL to send a curl command to: the handler runs inside this process; each turn's request is in the report",
      },
    ],
  };
}
