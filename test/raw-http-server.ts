/**
 * A bare HTTP server on node:net, for agents whose misbehaviour is the point: each request parsed
 * by hand, and answered, or not, by writing bytes to the socket, closing it when the test says.
 */
import { type AddressInfo, type Socket, createServer } from 'node:net';
import type { AgentRequest } from '../src/core/request.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';

export interface RawRequest {
  method: string;
  path: string;
  /** `HTTP/1.1`. */
  version: string;
  /** Names in lower case. */
  headers: Record<string, string>;
  body: Buffer;
  /** Which connection it came on (from 1), and its place on that connection (from 1). */
  connection: number;
  onConnection: number;
}

export interface RawServer {
  url: string;
  /** Every request, in arrival order. */
  requests: RawRequest[];
  /** How many connections were opened. */
  connections(): number;
  close(): Promise<void>;
}

/** Answers (or drops) one request by writing to its socket. */
export type RawAnswerer = (request: RawRequest, socket: Socket) => void;

export async function startRawServer(answer: RawAnswerer): Promise<RawServer> {
  const requests: RawRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    const connection = ++connections;
    let onConnection = 0;
    let pending = Buffer.alloc(0);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [requestLine = '', ...lines] = pending.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (pending.length < end + 4 + length) return;
        const [method = '', path = '', version = ''] = requestLine.split(' ');
        const request = {
          method,
          path,
          version,
          headers,
          body: pending.subarray(end + 4, end + 4 + length),
          connection,
          onConnection: ++onConnection,
        };
        pending = pending.subarray(end + 4 + length);
        requests.push(request);
        if (!socket.destroyed) answer(request, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const { platforms } = bundledContract();

/** The reference agent's answer to a request, as bytes of JSON (an empty body for HEAD). */
export function referenceBody(request: RawRequest): Buffer {
  if (request.method === 'HEAD') return Buffer.alloc(0);
  const body = JSON.parse(request.body.toString('utf8')) as AgentRequest;
  return Buffer.from(JSON.stringify(referenceAnswer(body, Object.hasOwn(platforms, body.channel) ? platforms[body.channel] : undefined)));
}

/** Writes one answer: a status line of the given version, the headers, the body (none on HEAD). */
export function writeAnswer(
  socket: Socket,
  request: RawRequest,
  body: Buffer,
  options: { version?: string; headers?: Record<string, string> } = {},
): void {
  const headers = { 'content-type': 'application/json', 'content-length': String(body.length), ...options.headers };
  const head = [`${options.version ?? 'HTTP/1.1'} 200 OK`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)].join(
    '\r\n',
  );
  socket.write(`${head}\r\n\r\n`);
  if (request.method !== 'HEAD') socket.write(body);
}
