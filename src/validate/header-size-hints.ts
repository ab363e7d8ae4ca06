/**
 * Request headers too large for the agent's server: a 431 answer, or a connection closed on a
 * request whose headers are past what servers take (nginx 8 kB, Node 16 kB, most others 8 to 16
 * kB). The checker's own headers are small; the ones the user added (a header given on the command
 * line, read from a variable, or passed to the library) are said by name and size, never by value.
 */
import type { HttpAnswer } from '../http/client.js';

/** A header the user added to every request: its name, its size, and the variable it was read from, if any. */
export interface AddedHeader {
  name: string;
  /** `name: value` as sent, in bytes. */
  bytes: number;
  variable?: string;
}

/** The smallest header limit of a common server (nginx's 8 kB buffer): added headers over it may be refused. */
export const COMMON_HEADER_LIMIT_BYTES = 8 * 1024;

/** The statuses a server refuses headers with: 431, and nginx's own 494. */
const TOO_LARGE = new Set([431, 494]);

/** A size as people write it: 812 bytes, 20.0 kB, 10.0 MB (powers of 1000). */
function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1000 * 1000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1000 / 1000).toFixed(1)} MB`;
}

/** The added headers' total size in bytes. */
export function addedHeaderBytes(headers: readonly AddedHeader[]): number {
  return headers.reduce((sum, header) => sum + header.bytes, 0);
}

/** `the headers you added are 10.0 MB (x-big 10.0 MB; x-key 12.0 kB, read from $KEY)`, the largest first. */
export function describeAddedHeaders(headers: readonly AddedHeader[]): string {
  const named = [...headers]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 5)
    .map((header) => `${header.name} ${size(header.bytes)}${header.variable ? `, read from $${header.variable}` : ''}`);
  const more = headers.length > 5 ? `; ${headers.length - 5} more` : '';
  return `the headers you added are ${size(addedHeaderBytes(headers))} (${named.join('; ')}${more})`;
}

/** The user's added headers are larger than a common server takes. */
export function addedHeadersTooLarge(headers: readonly AddedHeader[]): boolean {
  return addedHeaderBytes(headers) > COMMON_HEADER_LIMIT_BYTES;
}

/** Why a request whose added headers are too large got no answer: for a connection closed on it. */
export function headersTooLargeReason(headers: readonly AddedHeader[]): string {
  return `the request's headers were too large for it: ${describeAddedHeaders(headers)}, more than the 8 to 16 kB servers take (nginx 8 kB, Node 16 kB). Send smaller headers`;
}

/** The hint for a 431 (or nginx's 494): whose headers were too large. Undefined for any other status. */
export function headerSizeHint(answer: HttpAnswer, headers: readonly AddedHeader[]): string | undefined {
  if (!TOO_LARGE.has(answer.status)) return undefined;
  if (addedHeaderBytes(headers) > 0) {
    return `The agent's server refused the request's headers as too large (${answer.status}): ${describeAddedHeaders(headers)}; the checker's own are a few hundred bytes. Send smaller headers, or raise the server's header limit (Node: --max-http-header-size, 16 kB by default; nginx: large_client_header_buffers).`;
  }
  return `The agent's server refused the request's headers as too large (${answer.status}), though they are the checker's own few hundred bytes: its header limit is set below that; raise it (Node: --max-http-header-size; nginx: large_client_header_buffers).`;
}
