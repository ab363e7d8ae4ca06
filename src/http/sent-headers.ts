/**
 * The headers of every request, whatever carries it (a socket, or a handler in this process): the
 * checker's own, the token, --header's, each as sent and as recorded (every secret `<redacted>`),
 * and the secrets cleaned out of every answer.
 */
import { ACCEPTED_ENCODINGS } from './content-encoding.js';
import { REDACTED } from './redact.js';
import type { RequestHeader, SendOptions } from './transport.js';
import { TOOL_VERSION } from '../core/version.js';

/** How the authorization header is written anywhere it is recorded. */
export const REDACTED_AUTHORIZATION = 'Bearer <redacted>';

/** Sent with every request: gateways and firewalls block requests without one. */
export const USER_AGENT = `check-endpoint/${TOOL_VERSION}`;

/** Headers as sent, and the same as recorded. */
export interface SentHeaders {
  sent: Record<string, string>;
  recorded: Record<string, string>;
}

/** Where the headers and secrets of a run come from. */
export interface HeaderSource {
  token?: string;
  headers?: readonly RequestHeader[];
}

/** The parts of a header value that are secret: all of it, and the credentials after a scheme (`Basic dXNlcjpw…`). */
function secretParts(value: string): string[] {
  const credentials = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*\s+(\S.*)$/.exec(value)?.[1];
  return credentials === undefined ? [value] : [value, credentials];
}

/** What is cleaned out of every answer: the token, and the secret header values (and their credentials). */
export function sentSecrets(source: HeaderSource): string[] {
  return [
    ...(source.token ? [source.token] : []),
    ...(source.headers ?? []).filter((header) => header.secret).flatMap((header) => secretParts(header.value)),
  ];
}

/** The headers every request starts from, sent and as recorded: every secret written `<redacted>`. */
export function commonHeaders(source: HeaderSource): SentHeaders {
  const sent: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json', 'accept-encoding': ACCEPTED_ENCODINGS };
  const recorded: Record<string, string> = { ...sent };
  if (source.token) {
    sent.authorization = `Bearer ${source.token}`;
    recorded.authorization = REDACTED_AUTHORIZATION;
  }
  for (const header of source.headers ?? []) {
    sent[header.name] = header.value;
    recorded[header.name] = header.secret ? REDACTED : header.value;
  }
  return { sent, recorded };
}

/** One request's headers, from the common ones: its authorization choice, its body's type and length. */
export function requestHeaders(
  common: SentHeaders,
  { body, contentType = 'application/json', authorization = 'token' }: SendOptions,
): SentHeaders {
  const sent = { ...common.sent };
  const recorded = { ...common.recorded };
  if (authorization === 'none') {
    delete sent.authorization;
    delete recorded.authorization;
  } else if (authorization !== 'token') {
    sent.authorization = `Bearer ${authorization.wrongToken}`;
    recorded.authorization = REDACTED_AUTHORIZATION;
  }
  if (body !== undefined) {
    sent['content-type'] = recorded['content-type'] = contentType;
    sent['content-length'] = recorded['content-length'] = String(Buffer.byteLength(body));
  }
  return { sent, recorded };
}

/** The secrets of one request: the run's, and a made-up token it carries instead (quality/auth). */
export function requestSecrets(secrets: readonly string[], { authorization }: SendOptions): readonly string[] {
  return typeof authorization === 'object' ? [...secrets, authorization.wrongToken] : secrets;
}
