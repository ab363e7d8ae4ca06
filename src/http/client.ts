import http from 'node:http';
import type https from 'node:https';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { Redactor, shownUrl } from './redact.js';
import { receivedOutcome } from './received-answer.js';
import { type AgentMaker, proxyAgentMaker } from './proxy-agent.js';
import { sendBody } from './send-body.js';
import { type SentHeaders, commonHeaders, requestHeaders, requestRedactor, runSecrets } from './sent-headers.js';
import {
  type AgentTransport,
  type HttpFailure,
  type HttpOutcome,
  INTERRUPTED,
  type RecordedExchange,
  type RequestHeader,
  type SendOptions,
} from './transport.js';
import { now } from '../core/clock.js';

export { REDACTED_AUTHORIZATION, USER_AGENT } from './sent-headers.js';
export { INTERRUPTED } from './transport.js';
export type { HttpAnswer, HttpFailure, HttpOutcome, RecordedExchange, RequestHeader, SendOptions } from './transport.js';

export interface AgentClientOptions {
  /** One deadline for the whole exchange: connecting, headers and body together (a retry included). */
  timeoutMs: number;
  /** The largest body accepted, after decompression. */
  maxBodyBytes: number;
  /** Sent as `authorization: Bearer <token>`; never logged or reported. */
  token?: string;
  /** Sent with every request; an `authorization` among them takes the token's place. */
  headers?: readonly RequestHeader[];
  /** How many connections to keep open to the agent (one per conversation in flight). */
  connections: number;
  /** Accept a certificate the system does not trust (a self-signed one, for local use). */
  insecure?: boolean;
  /** Every request goes through this proxy (a CONNECT tunnel for https); its credentials are never recorded. */
  proxy?: URL;
  /** Told of every exchange as it ends (a retried one twice), for the HTTP archive; secrets already redacted. */
  onExchange?: (exchange: RecordedExchange) => void;
  /** Aborts every exchange in flight, and refuses new ones (an interrupted run). */
  signal?: AbortSignal;
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the agent',
  ENOTFOUND: 'host not found (DNS lookup failed)',
  EAI_AGAIN: 'host not found (DNS lookup failed for now)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed by the agent while sending',
  HPE_INVALID_CONSTANT: 'the answer is not valid HTTP',
  HPE_HEADER_OVERFLOW: 'the answer headers are larger than 16 KiB',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS: a self-signed certificate is in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: the certificate cannot be verified',
  CERT_HAS_EXPIRED: 'TLS: the certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS: the certificate does not match the host's name",
};

/** What is said of an agent that took the whole request, then reset the connection without answering. */
export const RESET_AFTER_REQUEST = 'the agent received the whole request, then reset the connection: it crashed while handling it';

/** The errors of a connection the far end closed: on a kept-alive one, the request is sent again once. */
const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** One try of an exchange: its outcome, whether to send it again, and, when the agent reset the connection after the whole request, that failure. */
interface Attempt {
  outcome: HttpOutcome;
  resend: boolean;
  crashed?: HttpFailure;
}

/**
 * The connection was reset by the agent (a read's ECONNRESET: an RST, not the FIN of a close,
 * which Node says as "socket hang up") once every byte of the request had been written.
 */
function wholeRequestSent(cause: unknown, written: boolean): boolean {
  return written && cause instanceof Error && (cause as NodeJS.ErrnoException).syscall === 'read';
}

/** Larger answer headers than this are refused (Node's own default limit). */
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * A body larger than this is sent with `expect: 100-continue`, and only once the agent says
 * `100 Continue` (or after EXPECT_CONTINUE_WAIT_MS of silence): a server that refuses it by its
 * size answers before a byte of it is sent, and can close at once. curl does the same (1 MiB, 1 s).
 */
export const EXPECT_CONTINUE_ABOVE_BYTES = 1024 * 1024;
const EXPECT_CONTINUE_WAIT_MS = 1000;

function errorCode(cause: unknown): string | undefined {
  let current: unknown = cause;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code) return code;
    current = (current as Error & { cause?: unknown }).cause;
  }
  return undefined;
}

function describeNetworkError(cause: unknown): string {
  let current: unknown = cause;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code && NETWORK_ERRORS[code]) return NETWORK_ERRORS[code];
    // OpenSSL's words for a server that answered in plain http, without its source file and line.
    const notTls = /wrong version number|packet length too long|http request/i.exec(current.message)?.[0];
    if (notTls && (code === 'EPROTO' || /^ERR_SSL_/.test(code ?? ''))) return `TLS: the server's answer is not TLS (${notTls})`;
    if (code && /^HPE_/.test(code)) return `the answer is not valid HTTP (${current.message})`;
    current = (current as Error & { cause?: unknown }).cause;
  }
  const error = cause as (Error & { code?: string }) | undefined;
  return error?.code ? `${error.code}: ${error.message}` : String(error?.message ?? cause);
}

/**
 * Talks to one agent URL over kept-alive connections (node:http, which starts in no time). A
 * request that fails on a kept-alive connection the agent had closed, before a byte of the answer
 * came, is sent once more on a new connection: the agent never saw it (Node's documented remedy
 * for the keep-alive race).
 */
export class AgentClient implements AgentTransport {
  readonly #transport: typeof http | typeof https;
  readonly #makeAgent: AgentMaker | Promise<AgentMaker>;
  #keptAlive: http.Agent | undefined;
  #fresh: http.Agent | undefined;
  /** Cleans every answer of the token, secret header values, the query's keys, the proxy's password. */
  readonly #redactor: Redactor;
  /** Where each request goes and how its answer is read, worked out once (not again on every request). */
  readonly #target: http.RequestOptions;
  /** How to end each exchange in flight when the run's signal aborts: one listener on the signal for all of them. */
  readonly #interrupts = new Set<() => void>();
  readonly #interruptAll = (): void => {
    for (const interrupt of [...this.#interrupts]) interrupt();
  };
  /** The headers every request starts from (the checker's own, the token, --header's), sent and as recorded. */
  readonly #commonHeaders: SentHeaders;
  /**
   * A text body may be written as text: Node then sends the headers and the body in one string,
   * without first making bytes of the body, but encodes that string as UTF-8, headers and all. So
   * only while every header is ASCII: a --header value's byte 0x80-0xff must go as that one byte.
   */
  readonly #bodyAsText: boolean;

  constructor(
    readonly url: URL,
    readonly options: AgentClientOptions,
  ) {
    const secure = url.protocol === 'https:';
    // node:https brings TLS and crypto: loaded only for an https agent.
    this.#transport = secure ? (createRequire(import.meta.url)('node:https') as typeof https) : http;
    const transport = this.#transport;
    this.#makeAgent = options.proxy
      ? proxyAgentMaker(options.proxy, secure, options.connections)
      : (keepAlive) => new transport.Agent({ keepAlive, ...(keepAlive ? { maxSockets: options.connections } : {}) });
    this.#redactor = new Redactor(runSecrets(options, url, options.proxy));
    this.#target = {
      ...urlToHttpOptions(url),
      maxHeaderSize: MAX_HEADER_BYTES,
      // For an https target through a proxy, the tunnel's TLS takes its options from the request.
      ...(secure ? { rejectUnauthorized: !options.insecure } : {}),
    };
    this.#commonHeaders = commonHeaders(options);
    this.#bodyAsText = Object.values(this.#commonHeaders.sent).every((value) => /^[\x00-\x7f]*$/.test(value));
    options.signal?.addEventListener('abort', this.#interruptAll, { once: true });
  }

  /** The reachability probe: any status counts as an answer. */
  head(): Promise<HttpOutcome> {
    return this.send({ method: 'HEAD' });
  }

  /** Posts one JSON body. */
  post(body: string): Promise<HttpOutcome> {
    return this.send({ method: 'POST', body });
  }

  async close(): Promise<void> {
    this.options.signal?.removeEventListener('abort', this.#interruptAll);
    this.#keptAlive?.destroy();
    this.#fresh?.destroy();
  }

  async #agent(fresh: boolean): Promise<http.Agent> {
    const make = await this.#makeAgent;
    if (fresh) return (this.#fresh ??= make(false));
    return (this.#keptAlive ??= make(true));
  }

  /** A request's headers, as sent and as recorded: a large body also waits for 100 Continue, so that a server that refuses it by its size answers before a byte of it goes. */
  #headers(options: SendOptions): SentHeaders {
    const { sent, recorded } = requestHeaders(this.#commonHeaders, options);
    if (Number(sent['content-length'] ?? 0) <= EXPECT_CONTINUE_ABOVE_BYTES) return { sent, recorded };
    return { sent: { ...sent, expect: '100-continue' }, recorded: { ...recorded, expect: '100-continue' } };
  }

  recordedHeaders(options: SendOptions): Record<string, string> {
    return this.#headers(options).recorded;
  }

  /** One exchange, within one deadline and the body limit; sent again once when a kept-alive connection had been closed. */
  async send(options: SendOptions): Promise<HttpOutcome> {
    const started = now();
    const redactor = requestRedactor(this.#redactor, options);
    const first = await this.#attempt(options, await this.#agent(false), started, redactor);
    if (!first.resend) return first.outcome;
    const second = (await this.#attempt(options, await this.#agent(true), started, redactor)).outcome;
    // Refused on the new connection, once the kept-alive one was reset after taking the whole request:
    // the agent is gone, and the request it took is what it died on. Said as that, not as "connection refused".
    if (first.crashed && second.kind === 'network' && second.code === 'ECONNREFUSED') {
      return {
        ...first.crashed,
        message: `${first.crashed.message} (sent again on a new connection: ${second.message}; the agent is down)`,
      };
    }
    return second;
  }

  #attempt(options: SendOptions, agent: http.Agent, started: number, redactor: Redactor): Promise<Attempt> {
    const { method, body } = options;
    const { timeoutMs, maxBodyBytes, onExchange, signal } = this.options;
    const { sent: headers, recorded } = this.#headers(options);
    const bodyBytes = body === undefined ? 0 : Number(headers['content-length']);
    const written = typeof body === 'string' && !this.#bodyAsText ? Buffer.from(body) : body;
    const startedAt = Date.now();
    const attemptStarted = now();
    let headersAt: number | undefined;
    let sentBytes = 0;
    const elapsed = (): number => Math.round(now() - started);
    // Interrupted before it went (a Ctrl-C while --start's agent was coming up, or between an attempt and its resend): nothing is sent.
    if (signal?.aborted)
      return Promise.resolve({ outcome: { kind: 'network', message: INTERRUPTED, latencyMs: elapsed() }, resend: false });
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: HttpOutcome, resend = false, crashed?: HttpFailure): void => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        stopWaiting();
        this.#interrupts.delete(interrupt);
        // An answer that came before the whole body went: the rest is not sent (curl: "stop sending").
        if (body !== undefined && sentBytes < bodyBytes) request.destroy();
        if (onExchange) {
          const ended = now();
          const wait = (headersAt ?? ended) - attemptStarted;
          onExchange({
            startedDateTime: new Date(startedAt).toISOString(),
            method,
            url: shownUrl(this.url),
            requestHeaders: recorded,
            requestBody: body,
            outcome,
            timings: { wait: Math.round(wait * 1000) / 1000, receive: Math.round((ended - attemptStarted - wait) * 1000) / 1000 },
          });
        }
        resolve({ outcome, resend, ...(crashed ? { crashed } : {}) });
      };
      const failed = (kind: HttpFailure['kind'], message: string, details: Partial<HttpFailure> = {}): void => {
        finish({ kind, message, latencyMs: elapsed(), ...details });
        request.destroy();
      };
      const request = this.#transport.request({ ...this.#target, method, agent, headers });
      // One deadline for the whole exchange, a retry's time included.
      const deadline = setTimeout(
        () => failed('timeout', `no complete answer within ${timeoutMs / 1000} s`),
        Math.max(0, timeoutMs - (now() - started)),
      );
      const interrupt = (): void => failed('network', INTERRUPTED);
      this.#interrupts.add(interrupt);
      // Bytes read on the socket before this request: a byte past them is the start of an answer.
      let socket: Socket | undefined;
      let bytesBefore = 0;
      request.on('socket', (assigned) => {
        socket = assigned;
        bytesBefore = assigned.bytesRead;
      });
      request.on('error', (cause) => {
        const code = errorCode(cause);
        const closed = CLOSED.has(code ?? '');
        // The answer began: it is the answer, though the agent closed before taking the whole body
        // (a 413 from a server that refuses large bodies); the answer's own events end the exchange.
        if (closed && headersAt !== undefined) return;
        const silent = closed && (socket === undefined || socket.bytesRead === bytesBefore);
        const via = this.options.proxy ? ` (through the proxy ${this.options.proxy.host})` : '';
        // A reset (not a close) once the whole request and its body went, with no byte of an answer: the agent crashed on it.
        const resetAfterRequest =
          silent && body !== undefined && code === 'ECONNRESET' && wholeRequestSent(cause, request.writableFinished);
        const crashed: HttpFailure | undefined = resetAfterRequest
          ? {
              kind: 'network',
              message: `${RESET_AFTER_REQUEST}${via}`,
              latencyMs: elapsed(),
              code: 'ECONNRESET',
              closedWithoutAnswer: true,
              resetAfterRequest: true,
            }
          : undefined;
        if (silent && request.reusedSocket) {
          // The agent had closed this kept-alive connection (its keep-alive timeout, or it closes after
          // every answer without saying so): it never saw the request. The archive keeps this attempt too.
          // Or it took the request and crashed on it: then the new connection is refused, and this attempt is what is reported.
          const message = `${describeNetworkError(cause)} on a kept-alive connection; sent again on a new one${via}`;
          finish({ kind: 'network', message, latencyMs: elapsed() }, true, crashed);
          request.destroy();
          return;
        }
        if (crashed) return failed('network', crashed.message, crashed);
        const details: Partial<HttpFailure> = { ...(code ? { code } : {}), ...(silent ? { closedWithoutAnswer: true } : {}) };
        if (closed && body !== undefined && sentBytes < bodyBytes) {
          const closedWhileSending = { sentBytes, bodyBytes };
          const message = `the agent closed the connection while the body was being sent (${sentBytes} of ${bodyBytes} bytes sent): ${describeNetworkError(cause)}${via}`;
          return failed('network', message, { ...details, closedWhileSending });
        }
        failed('network', `${describeNetworkError(cause)}${via}`, details);
      });
      request.on('response', (response) => {
        headersAt = now();
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBodyBytes) return failed('too-large', `the body is larger than ${maxBodyBytes} bytes`);
          chunks.push(chunk);
        });
        response.on('error', (cause) => failed('network', describeNetworkError(cause)));
        response.on('close', () => {
          if (!response.complete) failed('network', 'connection closed by the agent before the body was complete');
        });
        response.on('end', () => {
          const received = {
            status: response.statusCode ?? 0,
            httpVersion: response.httpVersion,
            statusText: response.statusMessage ?? '',
            headers: Object.entries(response.headers),
            headerNames: response.rawHeaders.filter((_, index) => index % 2 === 0),
            body: Buffer.concat(chunks),
          };
          const outcome = receivedOutcome(received, redactor, maxBodyBytes, elapsed());
          if (outcome.kind === 'answer') finish(outcome);
          else failed(outcome.kind, outcome.message);
        });
      });
      const stopWaiting = sendBody(request, written, bodyBytes, {
        ...(headers.expect ? { continueWaitMs: EXPECT_CONTINUE_WAIT_MS } : {}),
        stopped: () => settled || headersAt !== undefined,
        onSent: (bytes) => {
          sentBytes += bytes;
        },
      });
    });
  }
}
