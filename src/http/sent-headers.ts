/**
 * The headers of every request, whatever carries it (a socket, or a handler in this process): the
 * checker's own, the token, --header's, each as sent and as recorded (every secret `<redacted>`),
 * and the secrets cleaned out of every answer.
 */
import { ACCEPTED_ENCODINGS } from './content-encoding.js';
import { REDACTED, Redactor, querySecrets } from './redact.js';
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

/** A decoded password shorter than this is too likely to be found in a reply by chance (`pw`) to be cut out of it alone. */
const MEANINGFUL_PASSWORD = 4;

/**
 * The parts of a header value that are secret: all of it, the credentials after a scheme (`Basic
 * dXNlcjpw…`), and for Basic the `user:password` they decode to and the password.
 */
function secretParts(value: string): string[] {
  const match = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s+(\S.*)$/.exec(value);
  const scheme = match?.[1];
  const credentials = match?.[2];
  if (scheme === undefined || credentials === undefined) return [value];
  if (scheme.toLowerCase() !== 'basic' || !/^[A-Za-z0-9+/]+=*$/.test(credentials)) return [value, credentials];
  const pair = Buffer.from(credentials, 'base64').toString('utf8');
  // Only what reads as `user:password`: a decoding of what is not base64 would be noise, and redact noise.
  if (!/^[\x20-\x7e]*:[\x20-\x7e]+$/.test(pair)) return [value, credentials];
  const password = pair.slice(pair.indexOf(':') + 1);
  return [value, credentials, pair, ...(password.length >= MEANINGFUL_PASSWORD ? [password] : [])];
}

/**
 * What is cleaned out of every answer: the token, and the secret header values (and their
 * credentials). An agent echoing a whole header line (`Bearer <token>`, `x-api-key: <value>`),
 * base64 and all, is covered by these: the redaction finds a secret's base64 inside any longer
 * base64 text (secret-encodings.ts).
 */
export function sentSecrets(source: HeaderSource): string[] {
  return [
    ...(source.token ? [source.token] : []),
    ...(source.headers ?? []).filter((header) => header.secret).flatMap((header) => secretParts(header.value)),
  ];
}

/** Every secret of a run against `url`: those sent in headers (sentSecrets), the query's keys, the proxy's password. */
export function runSecrets(source: HeaderSource, url: URL, proxy?: URL): string[] {
  return [...sentSecrets(source), ...querySecrets(url), ...(proxy?.password ? [decodeURIComponent(proxy.password)] : [])];
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

/** What cleans one request's answer: the run's redactor, or for a request carrying a made-up token instead (quality/auth), one that adds it. */
export function requestRedactor(redactor: Redactor, { authorization }: SendOptions): Redactor {
  return typeof authorization === 'object' ? new Redactor([...redactor.secrets, authorization.wrongToken]) : redactor;
}
