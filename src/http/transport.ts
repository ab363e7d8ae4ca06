/**
 * Where a run's requests go, apart from what is checked (as Schemathesis keeps its transports
 * apart from its checks): one request in, its outcome out. The HTTP client (client.ts) is one
 * transport; a fetch handler called in this process (fetch-handler.ts) is another.
 */

/** An HTTP answer, whatever its status. */
export interface HttpAnswer {
  kind: 'answer';
  status: number;
  /** As the answer's status line says: `1.1` or `1.0`. */
  httpVersion: string;
  statusText: string;
  headers: Record<string, string>;
  /** The header names as the agent wrote them, in order (`Content-Type`, `Date`): how a bare server writes them tells which it is. Absent for a handler in this process. */
  headerNames?: readonly string[];
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
  /** The whole request was sent, then the agent reset the connection without a byte of an answer: it crashed on the request. */
  resetAfterRequest?: boolean;
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

/** What an exchange ends with when the run's signal aborts it. */
export const INTERRUPTED = 'the run was interrupted';

/** What to send in one exchange. */
export interface SendOptions {
  method: 'HEAD' | 'POST';
  /** The body: text, or its UTF-8 bytes (a large one, built as bytes). */
  body?: string | Buffer;
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
  requestBody: string | Buffer | undefined;
  outcome: HttpOutcome;
  /** Milliseconds: sending until the answer's headers came (wait), then the body (receive). */
  timings: { wait: number; receive: number };
}

export interface AgentTransport {
  /** Sends one request, within one deadline and the body limit; never throws for anything the agent does. */
  send(options: SendOptions): Promise<HttpOutcome>;
  /** The headers `send(options)` sends, as recorded (every secret `<redacted>`): what the chat page shows of a turn. */
  recordedHeaders(options: SendOptions): Record<string, string>;
  /** Ends what the transport holds open (connections, a server it started). */
  close(): Promise<void>;
}
