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
 * `{ fetch: handler }` or `{ listener: app }`. A Node http.Server (hapi's `server.listener`) is a
 * Node listener: its `request` listeners are called as its own socket would call them.
 *
 * An object with a `fetch` method (a Hono or h3 app, a class instance, a Workers module) is a fetch
 * handler called as a method of that object, as its framework calls it: `target.fetch(request)`,
 * so a method that reads `this` works. A wrapper's `fetch` may be the app itself, for its method to be
 * called on it: `{ fetch: app, path }` (a method read off its object, `{ fetch: app.fetch }`, has lost
 * its `this`: JavaScript keeps no owner on it; it is called on the wrapper). An object with none of
 * these, but route handlers by method (`GET`, `POST`, `HEAD`, …: a Next.js route module,
 * `import * as route from './app/agent/route'`, or `{ ...route, path }`), is dispatched by method as
 * Next.js does (route-module.ts). A wrapper may give the path requests are sent to (`/` by default).
 *
 * The transports are one table (TRANSPORTS), by kind: each says where its requests are planned to
 * go and opens itself for a run (its transport, the checks not applicable to it, where a reproduce
 * line can send a turn). A new kind of target is a variant of TargetOf, a line of resolveTarget and
 * an entry of the table, all here.
 */
import type { TransportReport } from '../core/report.js';
import { AgentClient, type AgentClientOptions } from '../http/client.js';
import { Server } from 'node:http';
import type { CalledHandler, FetchHandler } from '../http/fetch-handler.js';
import type { NodeListener } from '../http/listener-server.js';
import { type RouteModule, routeHandlers, routeModuleHandler } from '../http/route-module.js';
import { shownUrl } from '../http/redact.js';
import type { AgentTransport } from '../http/transport.js';
import type { CheckPlan } from './plan.js';
import { targetPath } from './target-path.js';
import type { ProbedSocket } from './wait-for-agent.js';

export type { FetchHandler } from '../http/fetch-handler.js';
export type { NodeListener } from '../http/listener-server.js';
export type { RouteHandler, RouteModule } from '../http/route-module.js';

/** A fetch handler named as such, with the path its requests carry (`/` by default). */
export interface FetchHandlerTarget {
  /** The handler, or the object whose `fetch` method it is (called on that object). */
  fetch: FetchHandler | { fetch: FetchHandler };
  path?: string;
}

/** A Node request listener named as such, with the path its requests are sent to (`/` by default). */
export interface NodeListenerTarget {
  /** The listener, or a Node http.Server whose `request` listeners answer (hapi's `server.listener`). */
  listener: NodeListener | Server;
  path?: string;
}

/** A Next.js route module: its exports by method (`import * as route from './app/agent/route'`), with a path or not. */
export type RouteModuleTarget = RouteModule & { path?: string };

export type CheckTarget = string | URL | FetchHandler | NodeListener | Server | FetchHandlerTarget | NodeListenerTarget | RouteModuleTarget;

/** What each kind of target holds once told apart. */
interface TargetOf {
  url: { url: string };
  'fetch-handler': { handler: CalledHandler; path: string; name: string };
  'node-listener': { listener: NodeListener; path: string };
}

export type TargetKind = keyof TargetOf;

/** A target told apart: its kind, and what that kind holds. */
export type ResolvedTarget<K extends TargetKind = TargetKind> = { [P in K]: { kind: P } & TargetOf[P] }[K];

/** The URL a fetch handler's requests carry: a name that resolves nowhere (RFC 6761), so nothing can leave the process. */
const IN_PROCESS_ORIGIN = 'http://check-endpoint.invalid';

const WHAT =
  'a URL, a fetch handler ((request) => Response), a Node request listener ((req, res) => void), a Node http.Server, ' +
  'an object with a fetch method, a Next.js route module ({ GET, POST, … }), { fetch: handler } or { listener: app }';

const FETCH_HANDLER = 'in-process fetch handler';

function isFunction(value: unknown): value is (...args: never[]) => unknown {
  return typeof value === 'function';
}

/** An object with a `fetch` method: a Hono or h3 app, a class instance, a Workers module. */
function hasFetchMethod(value: unknown): value is { fetch: FetchHandler } {
  return typeof value === 'object' && value !== null && isFunction((value as { fetch?: unknown }).fetch);
}

/** A Node http.Server as a listener: its `request` listeners called as its socket would call them (checkContinue's too, as one). */
function serverListener(server: Server): NodeListener {
  return (request, response) => server.emit('request', request, response);
}

/** A Node listener as it was given: a function, or an http.Server. */
function asListener(value: unknown): NodeListener | undefined {
  if (value instanceof Server) return serverListener(value);
  return isFunction(value) ? (value as NodeListener) : undefined;
}

/** Tells what the target is, by the rule above; a TypeError for anything else. */
export function resolveTarget(target: unknown): ResolvedTarget {
  if (typeof target === 'string') return { kind: 'url', url: target };
  if (target instanceof URL) return { kind: 'url', url: target.href };
  if (target instanceof Server) return { kind: 'node-listener', listener: serverListener(target), path: '/' };
  if (isFunction(target)) {
    return target.length >= 2
      ? { kind: 'node-listener', listener: target as NodeListener, path: '/' }
      : { kind: 'fetch-handler', handler: target as FetchHandler, path: '/', name: FETCH_HANDLER };
  }
  if (typeof target === 'object' && target !== null) {
    const { listener, fetch, path } = target as { listener?: unknown; fetch?: unknown; path?: unknown };
    const asNodeListener = asListener(listener);
    if (asNodeListener && fetch === undefined) return { kind: 'node-listener', listener: asNodeListener, path: targetPath(path) };
    if (listener !== undefined && !asNodeListener) throw new TypeError(notAListener(listener));
    if (listener === undefined) {
      // A method of its object (a Hono app's, a class instance's, a Workers module's): called on it, `this` its object.
      if (isFunction(fetch)) return fetchMethodOf(target as { fetch: FetchHandler }, path);
      // `{ fetch: app, path }`: the app's own method, called on the app.
      if (hasFetchMethod(fetch)) return fetchMethodOf(fetch, path);
      const handlers = routeHandlers(target);
      const methods = Object.keys(handlers);
      if (fetch === undefined && methods.length > 0) {
        return {
          kind: 'fetch-handler',
          handler: routeModuleHandler(handlers),
          path: targetPath(path),
          name: `in-process route module (${methods.join(', ')})`,
        };
      }
    }
  }
  throw new TypeError(`checkEndpoint's target must be ${WHAT}; got ${target === null ? 'null' : typeof target}`);
}

/** Why `{ listener: value }` is not a target, and what to pass instead. */
function notAListener(value: unknown): string {
  const given = value === null ? 'null' : typeof value;
  const instead = hasFetchMethod(value)
    ? ': it has a fetch method (a Hono, h3 or Elysia app, a Workers module), so pass it as { fetch: app }, or the app itself'
    : '';
  return `checkEndpoint's { listener } must be a Node request listener ((req, res) => void) or a Node http.Server; got ${given}${instead}`;
}

/** The `fetch` method of its object, called on it. */
function fetchMethodOf(owner: { fetch: FetchHandler }, path: unknown): ResolvedTarget<'fetch-handler'> {
  return { kind: 'fetch-handler', handler: (request) => owner.fetch(request), path: targetPath(path), name: FETCH_HANDLER };
}

/** A target opened for the run: its transport, how the report names it, and where reproduce lines send a turn. */
export interface OpenedTarget {
  transport: AgentTransport;
  /** How the report names what was checked: the URL, or what was served. */
  target: string;
  /** Where a reproduce line sends a turn; none when a curl line would reach nothing. */
  reproduceUrl: string | undefined;
  /** For a handler: how it was reached, and the checks that only make sense over the agent's own socket, each with why. */
  transportReport?: TransportReport;
  /** Where the HEAD probe goes over a socket, for advice on the connection; none for a fetch handler. */
  socket?: ProbedSocket;
}

/** One kind of target: where its requests are planned to go, and how it is opened for a run. */
interface Transport<T> {
  plannedUrl(target: T): string;
  open(target: T, plan: CheckPlan): Promise<OpenedTarget>;
}

/** The HTTP client's settings for a run. */
export function clientOptions(plan: CheckPlan): AgentClientOptions {
  const { hooks } = plan;
  return {
    timeoutMs: plan.timeoutSeconds * 1000,
    maxBodyBytes: plan.maxBodyBytes,
    // A case that keeps several conversations in flight at once (quality/concurrency) gets a connection for each.
    connections: plan.connections,
    insecure: plan.insecure,
    ...(plan.token ? { token: plan.token } : {}),
    ...(plan.headers.length ? { headers: plan.headers } : {}),
    ...(plan.proxy ? { proxy: plan.proxy.url } : {}),
    ...(hooks.onExchange ? { onExchange: hooks.onExchange } : {}),
    ...(hooks.signal ? { signal: hooks.signal } : {}),
  };
}

/** What the report says of a handler: how it was reached, and which checks were not applicable, each with why. */
function notApplicable(kind: TransportReport['kind'], checks: TransportReport['notApplicable']): TransportReport {
  return { kind, notApplicable: checks };
}

const NO_PROXY = 'requests never leave this process and the loopback port the checker opened: no proxy is used';
const NO_TLS = 'plain HTTP in this process: no certificate to check, so insecure has nothing to relax';

/** Every kind of target. The in-process transports are loaded only for a handler: the command never needs them. */
const TRANSPORTS: { [K in TargetKind]: Transport<ResolvedTarget<K>> } = {
  url: {
    plannedUrl: (target) => target.url,
    open: async (_target, plan) => ({
      transport: new AgentClient(plan.url, clientOptions(plan)),
      target: shownUrl(plan.url),
      reproduceUrl: shownUrl(plan.url),
      socket: { url: plan.url, direct: !plan.proxy },
    }),
  },
  'fetch-handler': {
    plannedUrl: (target) => new URL(target.path, IN_PROCESS_ORIGIN).href,
    open: async (target, plan) => {
      const { FetchHandlerTransport } = await import('../http/fetch-handler.js');
      const { timeoutMs, maxBodyBytes, token, headers, onExchange, signal } = clientOptions(plan);
      return {
        transport: new FetchHandlerTransport(target.handler, {
          url: TRANSPORTS['fetch-handler'].plannedUrl(target),
          timeoutMs,
          maxBodyBytes,
          ...(token ? { token } : {}),
          ...(headers ? { headers } : {}),
          ...(onExchange ? { onExchange } : {}),
          ...(signal ? { signal } : {}),
        }),
        target: target.name,
        reproduceUrl: undefined,
        transportReport: notApplicable('fetch-handler', [
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
        ]),
      };
    },
  },
  'node-listener': {
    plannedUrl: (target) => new URL(target.path, 'http://127.0.0.1').href,
    // Served on loopback by the checker itself: no proxy, no TLS.
    open: async (target, plan) => {
      const { serveListener } = await import('../http/listener-server.js');
      const served = await serveListener(target.listener, target.path);
      const { proxy: _proxy, ...direct } = clientOptions(plan);
      const client = new AgentClient(served.url, { ...direct, insecure: false });
      return {
        transport: {
          send: (sent) => client.send(sent),
          recordedHeaders: (sent) => client.recordedHeaders(sent),
          close: async () => {
            await client.close();
            await served.close();
          },
        },
        target: `Node request listener, served by check-endpoint at ${served.url.href}`,
        socket: { url: served.url, direct: true },
        reproduceUrl: undefined,
        transportReport: notApplicable('node-listener', [
          { check: 'proxy', reason: NO_PROXY },
          { check: 'tls', reason: NO_TLS },
          { check: 'reproduce', reason: 'the port the listener was served on is closed after the run: a curl line would reach nothing' },
        ]),
      };
    },
  },
};

function transportOf<K extends TargetKind>(target: ResolvedTarget<K>): Transport<ResolvedTarget<K>> {
  return TRANSPORTS[target.kind];
}

/** The URL a target's requests carry, for planning the run before anything is opened. */
export function plannedUrl<K extends TargetKind>(target: ResolvedTarget<K>): string {
  return transportOf(target).plannedUrl(target);
}

/** Opens a target for the run, by its kind's entry in the table. */
export function openTarget<K extends TargetKind>(target: ResolvedTarget<K>, plan: CheckPlan): Promise<OpenedTarget> {
  return transportOf(target).open(target, plan);
}
