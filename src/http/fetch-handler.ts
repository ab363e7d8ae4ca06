/**
 * A fetch-style handler (`(request: Request) => Response`: Hono's `app.fetch`, a Next.js route
 * handler, a Workers-style handler) as a transport: called in this process, no socket at all. The
 * same headers, deadline, body limit, decoding and redaction as the HTTP client; a handler that
 * throws (or returns no Response) is reported as a 500 answer carrying the error's message. A
 * Response is read by its shape (response-shape.ts), so one of another copy of the Fetch API
 * (the `undici` package) is read too; a body stream that fails is reported with its own error.
 */
import { receivedOutcome } from './received-answer.js';
import { commonHeaders, requestHeaders, requestRedactor, sentSecrets } from './sent-headers.js';
import { Redactor } from './redact.js';
import {
  type AgentTransport,
  type HttpOutcome,
  INTERRUPTED,
  type RecordedExchange,
  type RequestHeader,
  type SendOptions,
} from './transport.js';
import { now } from '../core/clock.js';
import { type ResponseShape, responseShape } from './response-shape.js';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** What the transport calls: whatever it returns is read by its shape, a Response or not. */
export type CalledHandler = (request: Request) => unknown;

export interface FetchHandlerOptions {
  /** The URL the requests carry (the handler is called with it; nothing is sent there). */
  url: string;
  timeoutMs: number;
  maxBodyBytes: number;
  token?: string;
  headers?: readonly RequestHeader[];
  onExchange?: (exchange: RecordedExchange) => void;
  signal?: AbortSignal;
}

/** What a handler that threw is reported as: the status a server gives an uncaught error. */
function thrownAnswer(cause: unknown): ResponseShape {
  const body = Buffer.from(`the handler threw ${errorWords(cause)}`);
  let sent = false;
  return {
    status: 500,
    statusText: 'Internal Server Error',
    headers: [['content-type', 'text/plain; charset=utf-8']],
    reader: () => ({
      read: async () => (sent ? { done: true } : ((sent = true), { done: false, value: body })),
      cancel: async () => undefined,
    }),
  };
}

/** A handler that returned something without a Response's shape: answered as one that threw. */
function notAResponse(answer: unknown): ResponseShape {
  return thrownAnswer(new TypeError(`returned ${describe(answer)}, not a Response (status, headers, body)`));
}

/** The handler's body stream failed: its own error, reported as such (not as a timeout). */
class BodyStreamError {
  constructor(readonly cause: unknown) {}
}

/** Reads the body, stopping at one byte over the limit; null when it is over. A stream that fails throws a BodyStreamError. */
async function readBody(response: ResponseShape, maxBodyBytes: number): Promise<Buffer | null> {
  try {
    const reader = response.reader();
    if (!reader) return Buffer.alloc(0);
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const read: unknown = await reader.read();
      if (typeof read !== 'object' || read === null || !('done' in read)) throw new TypeError('its reader gave no { done, value }');
      if (read.done === true) return Buffer.concat(chunks);
      const value = 'value' in read ? read.value : undefined;
      if (!ArrayBuffer.isView(value)) throw new TypeError(`its body stream gave ${describe(value)}, not bytes (a Uint8Array)`);
      size += value.byteLength;
      if (size > maxBodyBytes) {
        await reader.cancel().catch(() => undefined);
        return null;
      }
      chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    }
  } catch (cause) {
    throw new BodyStreamError(cause);
  }
}

/** An error in a few words: `TypeError: terminated`. */
function errorWords(cause: unknown): string {
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}

export class FetchHandlerTransport implements AgentTransport {
  readonly url: string;
  readonly #common;
  readonly #redactor: Redactor;

  constructor(
    readonly handler: CalledHandler,
    readonly options: FetchHandlerOptions,
  ) {
    this.url = options.url;
    this.#common = commonHeaders(options);
    this.#redactor = new Redactor(sentSecrets(options));
  }

  recordedHeaders(options: SendOptions): Record<string, string> {
    return requestHeaders(this.#common, options).recorded;
  }

  async send(options: SendOptions): Promise<HttpOutcome> {
    const { timeoutMs, maxBodyBytes, onExchange, signal } = this.options;
    const started = now();
    const startedAt = Date.now();
    const redactor = requestRedactor(this.#redactor, options);
    const { sent, recorded } = requestHeaders(this.#common, options);
    const elapsed = (): number => Math.round(now() - started);
    let headersAt: number | undefined;
    // One deadline for the whole exchange (the handler, then its body), and the run's interruption: both abort the request.
    const controller = new AbortController();
    const deadline = setTimeout(() => controller.abort('timeout'), timeoutMs);
    const interrupt = (): void => controller.abort('interrupted');
    if (signal?.aborted) interrupt();
    else signal?.addEventListener('abort', interrupt, { once: true });
    const aborted = new Promise<never>((_, reject) => {
      if (controller.signal.aborted) reject(controller.signal.reason);
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    aborted.catch(() => undefined);
    const failure = (reason: unknown): HttpOutcome =>
      reason === 'interrupted'
        ? { kind: 'network', message: INTERRUPTED, latencyMs: elapsed() }
        : reason instanceof BodyStreamError
          ? { kind: 'network', message: `the handler's body stream failed: ${errorWords(reason.cause)}`, latencyMs: elapsed() }
          : { kind: 'timeout', message: `no complete answer within ${timeoutMs / 1000} s`, latencyMs: elapsed() };
    let outcome: HttpOutcome;
    try {
      const request = new Request(this.url, {
        method: options.method,
        headers: sent,
        ...(options.body !== undefined ? { body: options.body } : {}),
        signal: controller.signal,
      });
      const called = Promise.resolve()
        .then(() => this.handler(request))
        .then((answer: unknown) => responseShape(answer) ?? notAResponse(answer))
        .catch((cause: unknown) => thrownAnswer(cause));
      const response = await Promise.race([called, aborted]);
      headersAt = now();
      const body = await Promise.race([readBody(response, maxBodyBytes), aborted]);
      outcome =
        body === null
          ? { kind: 'too-large', message: `the body is larger than ${maxBodyBytes} bytes`, latencyMs: elapsed() }
          : receivedOutcome(
              { status: response.status, httpVersion: '1.1', statusText: response.statusText, headers: response.headers, body },
              redactor,
              maxBodyBytes,
              elapsed(),
            );
    } catch (reason) {
      outcome = failure(reason);
    } finally {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', interrupt);
    }
    if (onExchange) {
      const ended = now();
      const wait = (headersAt ?? ended) - started;
      onExchange({
        startedDateTime: new Date(startedAt).toISOString(),
        method: options.method,
        url: this.url,
        requestHeaders: recorded,
        requestBody: options.body,
        outcome,
        timings: { wait: Math.round(wait * 1000) / 1000, receive: Math.round((ended - started - wait) * 1000) / 1000 },
      });
    }
    return outcome;
  }

  async close(): Promise<void> {}
}

/** What a handler returned instead of a Response, in a few words. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return `a ${typeof value}`;
}
