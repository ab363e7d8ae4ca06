import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentRequest } from '../core/request.js';

/** Answers one request body: an answer object to send as JSON with status 200, or a raw response. */
export type AgentHandler = (request: AgentRequest, raw: IncomingMessage) => unknown | Promise<unknown>;

/** A raw HTTP response a handler may return instead of an answer: any status, headers and body. */
export class RawResponse {
  constructor(
    readonly status: number,
    readonly body: string | Buffer,
    readonly headers: Record<string, string> = {},
  ) {}
}

export interface RunningAgent {
  url: string;
  close(): Promise<void>;
}

/** The largest body served by default: above the contract's 7 MB (x-max-request-bytes), so the reference agent takes every body the contract promises. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

function send(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>): void {
  response.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
  response.end(body);
}

/** The body, or undefined when it is over the limit: then the rest is read and dropped, so the 413 reaches a client still sending. */
async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  }
  return size > maxBytes ? undefined : Buffer.concat(chunks);
}

export interface ServeAgentOptions {
  port?: number;
  host?: string;
  /** How to answer a POST body that is not JSON: 400 when left out (a fixture agent may crash instead). */
  onBodyNotJson?: (body: Buffer, raw: IncomingMessage) => RawResponse;
  /**
   * Hand the handler any JSON body, even one with no `message` object (a sloppy agent that takes
   * anything): by default such a body is answered 400 before the handler sees it.
   */
  anyJson?: boolean;
  /** The largest request body taken (default 16 MiB); a larger one is answered 413. */
  maxRequestBytes?: number;
  /** Looked at before a POST's body is read (the token, say): a response to send instead, or undefined to go on. */
  guard?: (raw: IncomingMessage) => RawResponse | undefined;
}

/** Serves a handler as an agent endpoint on loopback: HEAD answers 200, POST takes JSON. */
export async function serveAgent(handler: AgentHandler, options: ServeAgentOptions = {}): Promise<RunningAgent> {
  const server = createServer(async (request, response) => {
    try {
      if (request.method === 'HEAD') return send(response, 200, '', {});
      if (request.method !== 'POST')
        return send(response, 405, 'POST a JSON message\n', { allow: 'POST, HEAD', 'content-type': 'text/plain' });
      const refused = options.guard?.(request);
      if (refused) return send(response, refused.status, refused.body, refused.headers);
      const body = await readBody(request, options.maxRequestBytes ?? MAX_REQUEST_BYTES);
      if (body === undefined) return send(response, 413, 'request too large\n', { 'content-type': 'text/plain' });
      let message: AgentRequest;
      try {
        message = JSON.parse(body.toString('utf8')) as AgentRequest;
      } catch {
        if (options.onBodyNotJson) {
          const answer = options.onBodyNotJson(body, request);
          return send(response, answer.status, answer.body, answer.headers);
        }
        return send(response, 400, '{"error":"the body is not JSON"}', { 'content-type': 'application/json' });
      }
      const shaped = typeof message === 'object' && message !== null && typeof message.message === 'object' && message.message !== null;
      if (!shaped && !options.anyJson) {
        return send(response, 400, '{"error":"expected a message"}', { 'content-type': 'application/json' });
      }
      const result = await handler(message, request);
      if (result instanceof RawResponse) return send(response, result.status, result.body, result.headers);
      return send(response, 200, JSON.stringify(result), { 'content-type': 'application/json' });
    } catch (cause) {
      if (!response.headersSent) send(response, 500, `{"error":${JSON.stringify(String(cause))}}`, { 'content-type': 'application/json' });
      else response.destroy();
    }
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/agent`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
