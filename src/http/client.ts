import http from 'node:http';
import type https from 'node:https';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { ACCEPTED_ENCODINGS, decodeBody } from './content-encoding.js';
import { sendBody } from './send-body.js';
import { REDACTED, redactBytes, redactText } from './redact.js';
import { now } from '../core/clock.js';
import { TOOL_VERSION } from '../core/version.js';

/** An HTTP answer, whatever its status. */
export interface HttpAnswer {
  kind: 'answer';
  status: number;
  /** As the answer's status line says: `1.1` or `1.0`. */
  httpVersion: string;
  statusText: string;
  headers: Record<string, string>;
  body: Buffer;
  latencyMs: number;
}

/**
 * No usable answer: none in time, a network failure, a body over the size limit, or a body that
 * cannot be decoded (an unknown or corrupt content-encoding).
 */
export interface HttpFailure {
  kind: 'timeout' | 'network' | 'too-large' | 'undecodable';
  /** What happened, for people: "connection refused", "no answer within 60 s". */
  message: string;
  latencyMs: number;
  /** The connection was made, and the agent closed or reset it without a byte of an answer. */
  closedWithoutAnswer?: boolean;
  /** The agent closed or reset the connection before the whole request body was sent, and no answer came. */
  closedWhileSending?: { sentBytes: number; bodyBytes: number };
  /** What the failure's code was (`ECONNRESET`, `EPROTO`, `DEPTH_ZERO_SELF_SIGNED_CERT`), for a hint fitted to the cause. */
  code?: string;
}

export type HttpOutcome = HttpAnswer | HttpFailure;

/** A header sent with every request besides the checker's own. */
export interface RequestHeader {
  /** Lower case. */
  name: string;
  value: string;
  /** Its value is never printed or recorded (`<redacted>`), and is cleaned out of every answer. */
  secret: boolean;
}

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

/** What an exchange ends with when the run's signal aborts it. */
export const INTERRUPTED = 'the run was interrupted';

/** What to send in one exchange. */
export interface SendOptions {
  method: 'HEAD' | 'POST';
  body?: string;
  /** The body's content type; application/json unless given. */
  contentType?: string;
  /** The authorization header: the configured one (the default), none, or a given wrong token. */
  authorization?: 'token' | 'none' | { wrongToken: string };
}

/** One exchange as it happened, for the HTTP archive: headers with the secrets redacted, bodies, timings. */
export interface RecordedExchange {
  startedDateTime: string;
  method: 'HEAD' | 'POST';
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string | undefined;
  outcome: HttpOutcome;
  /** Milliseconds: sending until the answer's headers came (wait), then the body (receive). */
  timings: { wait: number; receive: number };
}

/** How the authorization header is written anywhere it is recorded. */
export const REDACTED_AUTHORIZATION = 'Bearer <redacted>';

/** Sent with every request: gateways and firewalls block requests without one. */
export const USER_AGENT = `check-endpoint/${TOOL_VERSION}`;

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

/** The errors of a connection the far end closed: on a kept-alive one, the request is sent again once. */
const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

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

/** The parts of a header value that are secret: all of it, and the credentials after a scheme (`Basic dXNlcjpw…`). */
function secretParts(value: string): string[] {
  const credentials = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*\s+(\S.*)$/.exec(value)?.[1];
  return credentials === undefined ? [value] : [value, credentials];
}

/** Makes the connection pool: kept alive, or one connection a request (a retry's). */
type AgentMaker = (keepAlive: boolean) => http.Agent;

/** The connection pools to a proxy, loaded only when a proxy is used (the proxy libraries cost nothing otherwise). */
async function proxyAgentMaker(proxy: URL, secure: boolean, connections: number): Promise<AgentMaker> {
  if (secure) {
    const { HttpsProxyAgent } = await import('https-proxy-agent');
    return (keepAlive) => new HttpsProxyAgent(proxy, { keepAlive, maxSockets: keepAlive ? connections : Infinity });
  }
  const { HttpProxyAgent } = await import('http-proxy-agent');
  return (keepAlive) => new HttpProxyAgent(proxy, { keepAlive, maxSockets: keepAlive ? connections : Infinity });
}

/** The headers every request starts from, sent and as recorded: every secret written `<redacted>`. */
function commonHeaders(options: AgentClientOptions): { sent: Record<string, string>; recorded: Record<string, string> } {
  const sent: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json', 'accept-encoding': ACCEPTED_ENCODINGS };
  const recorded: Record<string, string> = { ...sent };
  if (options.token) {
    sent.authorization = `Bearer ${options.token}`;
    recorded.authorization = REDACTED_AUTHORIZATION;
  }
  for (const header of options.headers ?? []) {
    sent[header.name] = header.value;
    recorded[header.name] = header.secret ? REDACTED : header.value;
  }
  return { sent, recorded };
}

/**
 * Talks to one agent URL over kept-alive connections (node:http, which starts in no time). A
 * request that fails on a kept-alive connection the agent had closed, before a byte of the answer
 * came, is sent once more on a new connection: the agent never saw it (Node's documented remedy
 * for the keep-alive race).
 */
export class AgentClient {
  readonly #transport: typeof http | typeof https;
  readonly #makeAgent: AgentMaker | Promise<AgentMaker>;
  #keptAlive: http.Agent | undefined;
  #fresh: http.Agent | undefined;
  /** Everything cleaned out of answers: the token, secret header values, the proxy's password. */
  readonly #secrets: string[];
  /** Where each request goes, worked out from the URL once (not again on every request). */
  readonly #target: http.RequestOptions;
  /** How to end each exchange in flight when the run's signal aborts: one listener on the signal for all of them. */
  readonly #interrupts = new Set<() => void>();
  readonly #interruptAll = (): void => {
    for (const interrupt of [...this.#interrupts]) interrupt();
  };
  /** The headers every request starts from (the checker's own, the token, --header's), sent and as recorded. */
  readonly #commonHeaders: { sent: Record<string, string>; recorded: Record<string, string> };

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
    this.#secrets = [
      ...(options.token ? [options.token] : []),
      ...(options.headers ?? []).filter((header) => header.secret).flatMap((header) => secretParts(header.value)),
      ...(options.proxy?.password ? [decodeURIComponent(options.proxy.password)] : []),
    ];
    this.#target = urlToHttpOptions(url);
    this.#commonHeaders = commonHeaders(options);
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

  /** The request's headers, and the same as recorded: every secret written `<redacted>`. */
  #headers({ body, contentType = 'application/json', authorization = 'token' }: SendOptions): {
    headers: Record<string, string>;
    recorded: Record<string, string>;
  } {
    const headers = { ...this.#commonHeaders.sent };
    const recorded = { ...this.#commonHeaders.recorded };
    if (authorization === 'none') {
      delete headers.authorization;
      delete recorded.authorization;
    } else if (authorization !== 'token') {
      headers.authorization = `Bearer ${authorization.wrongToken}`;
      recorded.authorization = REDACTED_AUTHORIZATION;
    }
    if (body !== undefined) {
      const length = Buffer.byteLength(body);
      headers['content-type'] = recorded['content-type'] = contentType;
      headers['content-length'] = recorded['content-length'] = String(length);
      if (length > EXPECT_CONTINUE_ABOVE_BYTES) headers.expect = recorded.expect = '100-continue';
    }
    return { headers, recorded };
  }

  /** One exchange, within one deadline and the body limit; sent again once when a kept-alive connection had been closed. */
  async send(options: SendOptions): Promise<HttpOutcome> {
    const started = now();
    const { authorization } = options;
    const secrets = typeof authorization === 'object' ? [...this.#secrets, authorization.wrongToken] : this.#secrets;
    const first = await this.#attempt(options, await this.#agent(false), started, secrets);
    if (!first.resend) return first.outcome;
    return (await this.#attempt(options, await this.#agent(true), started, secrets)).outcome;
  }

  #attempt(
    options: SendOptions,
    agent: http.Agent,
    started: number,
    secrets: readonly string[],
  ): Promise<{ outcome: HttpOutcome; resend: boolean }> {
    const { method, body } = options;
    const { timeoutMs, maxBodyBytes, onExchange, signal, insecure } = this.options;
    const { headers, recorded } = this.#headers(options);
    const payload = body === undefined ? undefined : Buffer.from(body);
    const startedAt = Date.now();
    const attemptStarted = now();
    let headersAt: number | undefined;
    let sentBytes = 0;
    const elapsed = (): number => Math.round(now() - started);
    const clean = (text: string): string => (secrets.length ? redactText(text, secrets) : text);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: HttpOutcome, resend = false): void => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        stopWaiting();
        this.#interrupts.delete(interrupt);
        // An answer that came before the whole body went: the rest is not sent (curl: "stop sending").
        if (payload !== undefined && sentBytes < payload.length) request.destroy();
        if (onExchange) {
          const ended = now();
          const wait = (headersAt ?? ended) - attemptStarted;
          onExchange({
            startedDateTime: new Date(startedAt).toISOString(),
            method,
            url: this.url.href,
            requestHeaders: recorded,
            requestBody: body,
            outcome,
            timings: { wait: Math.round(wait * 1000) / 1000, receive: Math.round((ended - attemptStarted - wait) * 1000) / 1000 },
          });
        }
        resolve({ outcome, resend });
      };
      const failed = (kind: HttpFailure['kind'], message: string, details: Partial<HttpFailure> = {}): void => {
        finish({ kind, message, latencyMs: elapsed(), ...details });
        request.destroy();
      };
      const request = this.#transport.request({
        ...this.#target,
        method,
        agent,
        headers,
        maxHeaderSize: MAX_HEADER_BYTES,
        // For an https target through a proxy, the tunnel's TLS takes its options from the request.
        ...(this.url.protocol === 'https:' ? { rejectUnauthorized: !insecure } : {}),
      });
      // One deadline for the whole exchange, a retry's time included.
      const deadline = setTimeout(
        () => failed('timeout', `no complete answer within ${timeoutMs / 1000} s`),
        Math.max(0, timeoutMs - (now() - started)),
      );
      const interrupt = (): void => failed('network', INTERRUPTED);
      if (signal?.aborted) interrupt();
      else this.#interrupts.add(interrupt);
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
        if (silent && request.reusedSocket) {
          // The agent had closed this kept-alive connection (its keep-alive timeout, or it closes after
          // every answer without saying so): it never saw the request. The archive keeps this attempt too.
          const message = `${describeNetworkError(cause)} on a kept-alive connection; sent again on a new one${via}`;
          finish({ kind: 'network', message, latencyMs: elapsed() }, true);
          request.destroy();
          return;
        }
        const details: Partial<HttpFailure> = { ...(code ? { code } : {}), ...(silent ? { closedWithoutAnswer: true } : {}) };
        if (closed && payload !== undefined && sentBytes < payload.length) {
          const closedWhileSending = { sentBytes, bodyBytes: payload.length };
          const message = `the agent closed the connection while the body was being sent (${sentBytes} of ${payload.length} bytes sent): ${describeNetworkError(cause)}${via}`;
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
          const flatHeaders: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (value === undefined) continue;
            flatHeaders[name] = clean(Array.isArray(value) ? value.join(', ') : value);
          }
          const decoded = decodeBody(flatHeaders['content-encoding'], Buffer.concat(chunks), maxBodyBytes);
          if (!decoded.ok) return failed(decoded.kind, decoded.message);
          finish({
            kind: 'answer',
            status: response.statusCode ?? 0,
            httpVersion: response.httpVersion,
            statusText: clean(response.statusMessage ?? ''),
            headers: flatHeaders,
            // What the agent was sent never comes back out of it: not in an excerpt, a report or an archive.
            body: secrets.length ? redactBytes(decoded.body, secrets) : decoded.body,
            latencyMs: elapsed(),
          });
        });
      });
      const stopWaiting = sendBody(request, payload, {
        ...(headers.expect ? { continueWaitMs: EXPECT_CONTINUE_WAIT_MS } : {}),
        stopped: () => settled || headersAt !== undefined,
        onSent: (bytes) => {
          sentBytes += bytes;
        },
      });
    });
  }
}
