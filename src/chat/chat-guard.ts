/**
 * Who may talk to the chat server (it sends messages with the agent's token, and writes scenario
 * files): only this machine's browser, on the page it served. As Jupyter's server does: a random
 * token that every request carries (in the page's address, then in a header the page's script
 * sets); the Host header one of this server's own names (a DNS-rebound name is refused); no other
 * origin (its Origin or Sec-Fetch-Site header says so; a header of our own needs a CORS preflight,
 * which is refused, so another site's page cannot send one).
 */
import type { IncomingMessage } from 'node:http';

/** A fresh token: 32 random bytes, base64url. */
export function newPageToken(): string {
  return process.getBuiltinModule('node:crypto').randomBytes(32).toString('base64url');
}

/** The header the page's script sends the token in. */
export const TOKEN_HEADER = 'x-chat-token';

function same(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && process.getBuiltinModule('node:crypto').timingSafeEqual(a, b);
}

/** The names this server answers to, with its port: 127.0.0.1, localhost. */
export function ownHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/**
 * Why a request is refused (the server answers 403 with it), or undefined. `tokenIn`: where this
 * request must carry the token: the query (`?token=`, the page and a download, which are opened by
 * their address) or the header (every API call).
 */
export function refusal(request: IncomingMessage, url: URL, token: string, port: number, tokenIn: 'query' | 'header'): string | undefined {
  const hosts = ownHosts(port);
  const host = request.headers.host;
  if (host === undefined || !hosts.includes(host.toLowerCase()))
    return 'this server answers only to its own address (the Host header names another)';
  const origin = request.headers.origin;
  if (origin !== undefined && !hosts.some((own) => origin.toLowerCase() === `http://${own}`))
    return 'a request from another origin is refused';
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'a request from another site is refused';
  const given = tokenIn === 'query' ? (url.searchParams.get('token') ?? undefined) : headerValue(request.headers[TOKEN_HEADER]);
  if (!same(given, token)) return "the request does not carry the page's token: open the address the command printed";
  return undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}
