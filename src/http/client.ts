import { Agent, request } from 'undici';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** An HTTP answer, whatever its status. */
export interface HttpAnswer {
  kind: 'answer';
  status: number;
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
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the agent',
  ENOTFOUND: 'host not found (DNS lookup failed)',
  EAI_AGAIN: 'host not found (DNS lookup failed for now)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed by the agent while sending',
  UND_ERR_SOCKET: 'connection closed by the agent',
  UND_ERR_CLOSED: 'connection closed',
  HPE_INVALID_CONSTANT: 'the answer is not valid HTTP',
  UND_ERR_HEADERS_OVERFLOW: 'the answer headers are larger than 16 KiB',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the body is shorter or longer than its content-length',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS: a self-signed certificate is in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: the certificate cannot be verified',
  CERT_HAS_EXPIRED: 'TLS: the certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS: the certificate does not match the host's name",
};

class BodyTooLarge extends Error {}

function describeNetworkError(cause: unknown): string {
  let current: unknown = cause;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code && NETWORK_ERRORS[code]) return NETWORK_ERRORS[code];
    if (code && /^HPE_/.test(code)) return `the answer is not valid HTTP (${current.message})`;
    if (/does not match the HTTP\/1\.1 protocol/.test(current.message)) return `the answer is not valid HTTP (${current.message})`;
    current = (current as Error & { cause?: unknown }).cause;
  }
  const error = cause as (Error & { code?: string }) | undefined;
  return error?.code ? `${error.code}: ${error.message}` : String(error?.message ?? cause);
}

function decode(encoding: string | undefined, body: Buffer, maxBytes: number): Buffer {
  const options = { maxOutputLength: maxBytes };
  switch ((encoding ?? 'identity').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body, options);
    case 'deflate':
      return inflateSync(body, options);
    case 'br':
      return brotliDecompressSync(body, options);
    default:
      return body;
  }
}

/** Talks to one agent URL over kept-alive connections. */
export class AgentClient {
  readonly #dispatcher: Agent;

  constructor(
    readonly url: URL,
    readonly options: AgentClientOptions,
  ) {
    this.#dispatcher = new Agent({
      connections: options.connections,
      keepAliveTimeout: 10_000,
      pipelining: 1,
      ...(options.insecure ? { connect: { rejectUnauthorized: false } } : {}),
    });
  }

  /** The reachability probe: any status counts as an answer. */
  head(): Promise<HttpOutcome> {
    return this.#exchange('HEAD');
  }

  /** Posts one JSON body. */
  post(body: string): Promise<HttpOutcome> {
    return this.#exchange('POST', body);
  }

  async close(): Promise<void> {
    await this.#dispatcher.destroy();
  }

  async #exchange(method: 'HEAD' | 'POST', body?: string): Promise<HttpOutcome> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.options.timeoutMs);
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    try {
      const answer = await request(this.url, {
        method,
        headers,
        body,
        dispatcher: this.#dispatcher,
        signal: deadline.signal,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of answer.body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > this.options.maxBodyBytes) throw new BodyTooLarge();
          chunks.push(chunk);
        }
      } catch (cause) {
        answer.body.destroy();
        throw cause;
      }
      const flatHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined) flatHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      let decoded: Buffer;
      try {
        decoded = decode(flatHeaders['content-encoding'], Buffer.concat(chunks), this.options.maxBodyBytes);
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || cause instanceof RangeError) throw new BodyTooLarge();
        return { kind: 'network', message: `the body does not decode as ${flatHeaders['content-encoding']}`, latencyMs: elapsed() };
      }
      return { kind: 'answer', status: answer.statusCode, headers: flatHeaders, body: decoded, latencyMs: elapsed() };
    } catch (cause) {
      if (cause instanceof BodyTooLarge) {
        return { kind: 'too-large', message: `the body is larger than ${this.options.maxBodyBytes} bytes`, latencyMs: elapsed() };
      }
      if (
        deadline.signal.aborted ||
        ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'].includes((cause as NodeJS.ErrnoException).code ?? '')
      ) {
        return { kind: 'timeout', message: `no complete answer within ${this.options.timeoutMs / 1000} s`, latencyMs: elapsed() };
      }
      return { kind: 'network', message: describeNetworkError(cause), latencyMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  }
}
