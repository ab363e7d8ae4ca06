/**
 * A Next.js route module (`app/agent/route.ts`: `export async function POST(request) {}`, and GET,
 * HEAD, … beside it) as a fetch handler: each request goes to the export named by its method, as
 * Next.js's app router does (its `autoImplementMethods`): HEAD with no HEAD export is answered by
 * GET, without the body; OPTIONS with no export is 204 with `allow` naming the methods there are;
 * any other method without an export is 405.
 *
 * The handler gets the request as a plain `Request` (NextRequest extends Request; `nextUrl` and
 * `cookies` are Next's additions, which this checker does not make), and as its second argument
 * Next's context for a route without dynamic segments: `{ params: Promise<{}> }`.
 */
import type { CalledHandler } from './fetch-handler.js';

/** The methods a route module may export (Next.js's HTTP_METHODS). */
export const ROUTE_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

type RouteMethod = (typeof ROUTE_METHODS)[number];

/** A route handler: `(request, context) => Response`. */
export type RouteHandler = (request: Request, context: { params: Promise<Record<string, never>> }) => unknown;

/** The exports of a route module, by method. */
export type RouteModule = Partial<Record<RouteMethod, RouteHandler>>;

function isRouteMethod(method: string): method is RouteMethod {
  return (ROUTE_METHODS as readonly string[]).includes(method);
}

/** The route handlers an object exports: none when it is not a route module. */
export function routeHandlers(target: object): RouteModule {
  const handlers: RouteModule = {};
  for (const method of ROUTE_METHODS) {
    const handler: unknown = (target as Partial<Record<RouteMethod, unknown>>)[method];
    if (typeof handler === 'function') handlers[method] = handler as RouteHandler;
  }
  return handlers;
}

/** The same answer without its body: what a server sends to HEAD. */
async function withoutBody(answer: Response): Promise<Response> {
  await answer.body?.cancel().catch(() => undefined);
  return new Response(null, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
}

/** The route module as a fetch handler, dispatching by method as Next.js does. */
export function routeModuleHandler(handlers: RouteModule): CalledHandler {
  const allowed = ROUTE_METHODS.filter(
    (method) => handlers[method] !== undefined || (method === 'HEAD' && handlers.GET !== undefined) || method === 'OPTIONS',
  );
  return async (request: Request): Promise<unknown> => {
    const method = request.method.toUpperCase();
    const context = { params: Promise.resolve({}) };
    const own = isRouteMethod(method) ? handlers[method] : undefined;
    // What a route handler returns is read by its shape by the transport, like any fetch handler's answer.
    if (own) return own(request, context);
    if (method === 'HEAD' && handlers.GET) {
      const answer: unknown = await handlers.GET(request, context);
      return answer instanceof Response ? withoutBody(answer) : answer;
    }
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: [...allowed].sort().join(', ') } });
    return new Response(null, { status: 405 });
  };
}
