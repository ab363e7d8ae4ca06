/**
 * A Node request listener (`(req, res) => void`: an Express app, Koa's `app.callback()`, a plain
 * node:http handler) served on a loopback port for the length of a run, as supertest does: the
 * checker opens it, and closes it with every connection. A listener that throws (or whose promise
 * rejects) before answering answers 500 with the error's message, as a server's own error handler
 * would, instead of ending the process.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type NodeListener = (request: http.IncomingMessage, response: http.ServerResponse) => unknown;

export interface ServedListener {
  /** http://127.0.0.1:PORT with the path. */
  url: URL;
  close(): Promise<void>;
}

function answerError(response: http.ServerResponse, cause: unknown): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const message = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`the listener threw ${message}`);
}

export async function serveListener(listener: NodeListener, path: string): Promise<ServedListener> {
  const server = http.createServer((request, response) => {
    try {
      const result = listener(request, response);
      if (result instanceof Promise) result.catch((cause: unknown) => answerError(response, cause));
    } catch (cause) {
      answerError(response, cause);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const url = new URL(path, origin);
  // Requests go to this server alone, whatever the path says (checked before, as the field `path`).
  if (url.origin !== origin) {
    server.close();
    throw new TypeError(`the target's path must be a path on the listener's origin; got one that leads to ${url.origin}`);
  }
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
