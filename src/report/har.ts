import type { RecordedExchange } from '../http/client.js';
import { TOOL_VERSION } from '../core/version.js';

/** Bodies longer than this are cut in the archive (the check itself reads up to --max-body). */
const MAX_ARCHIVED_BODY = 1024 * 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true });

type HarHeader = { name: string; value: string };

function headerList(headers: Record<string, string>): HarHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** A body for the archive: text where it is UTF-8, base64 where it is not; cut past 1 MiB, with a comment saying so. */
function archivedBody(body: Buffer): { text: string; encoding?: 'base64'; comment?: string } {
  const kept = body.length > MAX_ARCHIVED_BODY ? body.subarray(0, MAX_ARCHIVED_BODY) : body;
  const comment = kept === body ? {} : { comment: `the body was ${body.length} bytes; the first ${MAX_ARCHIVED_BODY} are kept` };
  try {
    return { text: utf8.decode(kept), ...comment };
  } catch {
    return { text: kept.toString('base64'), encoding: 'base64', ...comment };
  }
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
      : { postData: { mimeType: exchange.requestHeaders['content-type'] ?? 'application/json', text: exchange.requestBody } }),
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
  };
}

/** Collects the exchanges of a run (give `record` to checkEndpoint's onExchange) and writes them as HAR 1.2. */
export class HarRecorder {
  readonly #exchanges: RecordedExchange[] = [];

  readonly record = (exchange: RecordedExchange): void => {
    this.#exchanges.push(exchange);
  };

  get size(): number {
    return this.#exchanges.length;
  }

  /** The HTTP archive: every exchange, the HEAD probe first, in the order they started. The token is redacted. */
  toHar(): string {
    const entries = [...this.#exchanges].sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime)).map(entry);
    return `${JSON.stringify({ log: { version: '1.2', creator: { name: 'check-endpoint', version: TOOL_VERSION }, entries } }, null, 2)}\n`;
  }
}
