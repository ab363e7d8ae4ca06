import http from 'node:http';
import type https from 'node:https';
import { createRequire } from 'node:module';
import type zlib from 'node:zlib';
import { redactBytes, redactText } from './redact.js';
import { now } from '../core/clock.js';

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

/** No usable answer: none in time, a network failure, or a body over the size limit. */
export interface HttpFailure {
  kind: 'timeout' | 'network' | 'too-large';
  /** What happened, for people: "connection refused", "no answer within 60 s". */
  message: string;
  latencyMs: number;
}

export type HttpOutcome = HttpAnswer | HttpFailure;

export interface AgentClientOptions {
  /** One deadline for the whole exchange: connecting, headers and body together. */
  timeoutMs: number;
  /** The largest body accepted, after decompression. */
  maxBodyBytes: number;
  /** Sent as `authorization: Bearer <token>`; never logged or reported. */
  token?: string;
  /** How many connections to keep open to the agent (one per conversation in flight). */
  connections: number;
  /** Accept a certificate the system does not trust (a self-signed one, for local use). */
  insecure?: boolean;
  /** Told of every exchange as it ends, for the HTTP archive; the token is already redacted. */
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
  /** The authorization header: the configured token (the default), none, or a given wrong one. */
  authorization?: 'token' | 'none' | { wrongToken: string };
}

/** One exchange as it happened, for the HTTP archive: headers with the token redacted, bodies, timings. */
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

/** Larger answer headers than this are refused (Node's own default limit). */
const MAX_HEADER_BYTES = 16 * 1024;

function describeNetworkError(cause: unknown): string {
  let current: unknown = cause;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code && NETWORK_ERRORS[code]) return NETWORK_ERRORS[code];
    if (code && /^HPE_/.test(code)) return `the answer is not valid HTTP (${current.message})`;
    current = (current as Error & { cause?: unknown }).cause;
  }
  const error = cause as (Error & { code?: string }) | undefined;
  return error?.code ? `${error.code}: ${error.message}` : String(error?.message ?? cause);
}

function decode(encoding: string | undefined, body: Buffer, maxBytes: number): Buffer {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  if (!['gzip', 'x-gzip', 'deflate', 'br'].includes(name)) return body;
  const { brotliDecompressSync, gunzipSync, inflateSync } = createRequire(import.meta.url)('node:zlib') as typeof zlib;
  const options = { maxOutputLength: maxBytes };
  return name === 'br' ? brotliDecompressSync(body, options) : name === 'deflate' ? inflateSync(body, options) : gunzipSync(body, options);
}

/** Talks to one agent URL over kept-alive connections (node:http, which starts in no time). */
export class AgentClient {
  readonly #agent: http.Agent;
  readonly #transport: typeof http | typeof https;

  constructor(
    readonly url: URL,
    readonly options: AgentClientOptions,
  ) {
    const agentOptions = { keepAlive: true, maxSockets: options.connections };
    if (url.protocol === 'https:') {
      // node:https brings TLS and crypto: loaded only for an https agent.
      const secure = createRequire(import.meta.url)('node:https') as typeof https;
      this.#transport = secure;
      this.#agent = new secure.Agent({ ...agentOptions, rejectUnauthorized: !options.insecure });
    } else {
      this.#transport = http;
      this.#agent = new http.Agent(agentOptions);
    }
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
    this.#agent.destroy();
  }

  /** One exchange, within one deadline and the body limit. */
  send({ method, body, contentType = 'application/json', authorization = 'token' }: SendOptions): Promise<HttpOutcome> {
    const { timeoutMs, maxBodyBytes, token, onExchange, signal } = this.options;
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' };
    if (body !== undefined) {
      headers['content-type'] = contentType;
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const bearer = authorization === 'none' ? undefined : authorization === 'token' ? token : authorization.wrongToken;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const startedDateTime = new Date().toISOString();
    const started = now();
    let headersAt: number | undefined;
    const elapsed = (): number => Math.round(now() - started);
    return new Promise<HttpOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: HttpOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        signal?.removeEventListener('abort', interrupt);
        if (onExchange) {
          const ended = now();
          const wait = (headersAt ?? ended) - started;
          onExchange({
            startedDateTime,
            method,
            url: this.url.href,
            requestHeaders: bearer ? { ...headers, authorization: REDACTED_AUTHORIZATION } : headers,
            requestBody: body,
            outcome,
            timings: { wait: Math.round(wait * 1000) / 1000, receive: Math.round((ended - started - wait) * 1000) / 1000 },
          });
        }
        resolve(outcome);
      };
      const failed = (kind: HttpFailure['kind'], message: string): void => {
        finish({ kind, message, latencyMs: elapsed() });
        request.destroy();
      };
      const request = this.#transport.request(this.url, { method, agent: this.#agent, headers, maxHeaderSize: MAX_HEADER_BYTES });
      // One deadline for the whole exchange: connecting, headers and body together.
      const deadline = setTimeout(() => failed('timeout', `no complete answer within ${timeoutMs / 1000} s`), timeoutMs);
      const interrupt = (): void => failed('network', INTERRUPTED);
      if (signal?.aborted) interrupt();
      else signal?.addEventListener('abort', interrupt, { once: true });
      request.on('error', (cause) => failed('network', describeNetworkError(cause)));
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
            const text = Array.isArray(value) ? value.join(', ') : value;
            flatHeaders[name] = bearer ? redactText(text, bearer) : text;
          }
          let decoded: Buffer;
          try {
            decoded = decode(flatHeaders['content-encoding'], Buffer.concat(chunks), maxBodyBytes);
            // The token the agent was sent never comes back out of it: not in an excerpt, a report or an archive.
            if (bearer) decoded = redactBytes(decoded, bearer);
          } catch (cause) {
            if ((cause as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || cause instanceof RangeError) {
              return failed('too-large', `the body is larger than ${maxBodyBytes} bytes once decoded (${flatHeaders['content-encoding']})`);
            }
            return failed('network', `the body does not decode as ${flatHeaders['content-encoding']}`);
          }
          finish({
            kind: 'answer',
            status: response.statusCode ?? 0,
            httpVersion: response.httpVersion,
            statusText: bearer ? redactText(response.statusMessage ?? '', bearer) : (response.statusMessage ?? ''),
            headers: flatHeaders,
            body: decoded,
            latencyMs: elapsed(),
          });
        });
      });
      request.end(body);
    });
  }
}
