import type { RecordedExchange } from '../http/client.js';
import { TOOL_VERSION } from '../core/version.js';

/**
 * Bodies longer than this (request or answer) are recorded by their size and SHA-256 digest, not
 * inline, so that an archive of a run with quality/large-attachment (five 7 MB requests) stays small.
 */
const MAX_ARCHIVED_BODY = 1024 * 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true });

type HarHeader = { name: string; value: string };

function headerList(headers: Record<string, string>): HarHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** The comment on a body left out of the archive: its size and digest. */
function leftOutComment(body: Buffer | string): string {
  const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  // Loaded here, for a body too large to keep, not when the command starts (src/core/problems.ts says why).
  const { createHash } = process.getBuiltinModule('node:crypto');
  const digest = createHash('sha256').update(body).digest('hex');
  return `the body is not kept: ${bytes} bytes, sha256 ${digest} (bodies over ${MAX_ARCHIVED_BODY} bytes are recorded by size and digest)`;
}

function isLarge(body: Buffer | string): boolean {
  return (typeof body === 'string' ? Buffer.byteLength(body) : body.length) > MAX_ARCHIVED_BODY;
}

/** An answer body for the archive: text where it is UTF-8, base64 where it is not; over 1 MiB, a comment with its size and digest. */
function archivedBody(body: Buffer): { text?: string; encoding?: 'base64'; comment?: string } {
  if (isLarge(body)) return { comment: leftOutComment(body) };
  try {
    return { text: utf8.decode(body) };
  } catch {
    return { text: body.toString('base64'), encoding: 'base64' };
  }
}

/** The request's postData: its text, or over 1 MiB a comment with its size and digest. */
function postData(body: string | Buffer, mimeType: string): { mimeType: string; text?: string; comment?: string } {
  if (isLarge(body)) return { mimeType, comment: leftOutComment(body) };
  return { mimeType, text: typeof body === 'string' ? body : body.toString('utf8') };
}

/** The entry's comment when a body of it is left out. */
function entryComment(exchange: RecordedExchange): { comment?: string } {
  const { requestBody, outcome } = exchange;
  const left = [
    ...(requestBody !== undefined && isLarge(requestBody) ? ['request'] : []),
    ...(outcome.kind === 'answer' && isLarge(outcome.body) ? ['answer'] : []),
  ];
  return left.length
    ? { comment: `the ${left.join(' and ')} body is over ${MAX_ARCHIVED_BODY} bytes: recorded by size and sha256 digest, not inline` }
    : {};
}

function entry(exchange: RecordedExchange): Record<string, unknown> {
  const { outcome } = exchange;
  const url = new URL(exchange.url);
  const request = {
    method: exchange.method,
    url: exchange.url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [{ name: 'host', value: url.host }, ...headerList(exchange.requestHeaders)],
    queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
    headersSize: -1,
    bodySize: exchange.requestBody === undefined ? 0 : Buffer.byteLength(exchange.requestBody),
    ...(exchange.requestBody === undefined
      ? {}
      : { postData: postData(exchange.requestBody, exchange.requestHeaders['content-type'] ?? 'application/json') }),
  };
  const response =
    outcome.kind === 'answer'
      ? {
          status: outcome.status,
          statusText: outcome.statusText,
          httpVersion: `HTTP/${outcome.httpVersion}`,
          cookies: [],
          headers: headerList(outcome.headers),
          content: { size: outcome.body.length, mimeType: outcome.headers['content-type'] ?? '', ...archivedBody(outcome.body) },
          redirectURL: outcome.headers.location ?? '',
          headersSize: -1,
          bodySize: -1,
        }
      : {
          status: 0,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: '' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
          _error: `${outcome.kind}: ${outcome.message}`,
        };
  return {
    startedDateTime: exchange.startedDateTime,
    time: exchange.timings.wait + exchange.timings.receive,
    request,
    response,
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: exchange.timings.wait, receive: exchange.timings.receive },
    ...entryComment(exchange),
  };
}

/**
 * Collects the exchanges of a run (give `record` to checkEndpoint's onExchange) and writes them as
 * HAR 1.2. Each exchange is made an archive entry as it is recorded, so a body over 1 MiB is kept
 * only as its size and digest, never held until the end of the run.
 */
export class HarRecorder {
  readonly #entries: { startedDateTime: string; entry: Record<string, unknown> }[] = [];

  readonly record = (exchange: RecordedExchange): void => {
    this.#entries.push({ startedDateTime: exchange.startedDateTime, entry: entry(exchange) });
  };

  get size(): number {
    return this.#entries.length;
  }

  /** The HTTP archive: every exchange, the HEAD probe first, in the order they started. The token is redacted. */
  toHar(): string {
    const entries = [...this.#entries].sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime)).map((recorded) => recorded.entry);
    return `${JSON.stringify({ log: { version: '1.2', creator: { name: 'check-endpoint', version: TOOL_VERSION }, entries } }, null, 2)}\n`;
  }
}
