/**
 * An answer as it arrived, made what the checks read: its coding undone within the body limit,
 * and every secret the agent was sent cleaned out of its status text, headers and body.
 */
import { decodeBody } from './content-encoding.js';
import type { Redactor } from './redact.js';
import type { HttpOutcome } from './transport.js';

/** An answer as it came: headers as name and value (a repeated one joined by `, `), the body still coded. */
export interface ReceivedAnswer {
  status: number;
  httpVersion: string;
  statusText: string;
  headers: Iterable<[string, string | readonly string[] | undefined]>;
  /** The header names as sent, in order, where the transport keeps them. */
  headerNames?: readonly string[];
  body: Buffer;
}

export function receivedOutcome(received: ReceivedAnswer, redactor: Redactor, maxBodyBytes: number, latencyMs: number): HttpOutcome {
  const clean = (text: string): string => redactor.text(text);
  const headers: Record<string, string> = {};
  for (const [name, value] of received.headers) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = clean(typeof value === 'string' ? value : value.join(', '));
  }
  const decoded = decodeBody(headers['content-encoding'], received.body, maxBodyBytes);
  if (!decoded.ok) return { kind: decoded.kind, message: decoded.message, latencyMs };
  return {
    kind: 'answer',
    status: received.status,
    httpVersion: received.httpVersion,
    statusText: clean(received.statusText),
    headers,
    ...(received.headerNames ? { headerNames: received.headerNames.map(clean) } : {}),
    // What the agent was sent never comes back out of it: not in an excerpt, a report or an archive.
    body: redactor.bytes(decoded.body),
    latencyMs,
  };
}
