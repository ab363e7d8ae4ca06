/**
 * Which stack answered, told from the answer itself: the `server` and `x-powered-by` headers, the
 * exact texts real servers and libraries write (each captured from the real server into
 * fixtures/framework-answers/), and the shape of the headers a server writes on its own (Go's
 * net/http, the JDK's HttpServer and Node's http each have their own). A hint then names the fix in
 * that stack's words (stack-fixes.ts); an answer that tells nothing gets the short rule instead.
 */
import type { HttpAnswer } from '../http/client.js';
import { refusedFields } from './validation-detail.js';
import { smallJson } from './error-body.js';

/** A stack a hint can name a fix in. */
export type StackId =
  | 'go'
  | 'gin'
  | 'echo'
  | 'aiohttp'
  | 'fastapi'
  | 'uvicorn'
  | 'tornado'
  | 'flask'
  | 'django'
  | 'python-http-server'
  | 'jackson'
  | 'jdk-httpserver'
  | 'spring'
  | 'dotnet'
  | 'php'
  | 'sinatra'
  | 'ruby'
  | 'express'
  | 'fastify'
  | 'hapi'
  | 'koa'
  | 'nextjs'
  | 'node'
  | 'nginx';

/** The stack that answered, and what in the answer told it (quoted in the hint, so a wrong guess shows). */
export interface AnsweringStack {
  id: StackId;
  /** What told it: `server: uvicorn`, `json: unknown field "sentAt"`, `Go's net/http headers`. */
  sign: string;
}

/** What a sign reads: the answer, and its body's first 256 KiB as text. */
type Sign = (answer: HttpAnswer, text: string) => string | undefined;

/**
 * Every pattern a sign runs over an answer's text. Each is linear by construction, whatever the
 * agent wrote: a literal start, then only bounded quantifiers (`\S{1,16}`, never `\S+ ?\S*`, which
 * took a minute on a 256 KiB answer); test/linear-patterns.test.ts runs each on adversarial text.
 */
export const TEXT_SIGN_PATTERNS: RegExp[] = [];

const first = (pattern: RegExp): Sign => {
  TEXT_SIGN_PATTERNS.push(pattern);
  return (_answer, text) => pattern.exec(text)?.[0];
};
const header =
  (name: string, pattern: RegExp): Sign =>
  (answer) => {
    const value = answer.headers[name];
    return value !== undefined && pattern.test(value) ? `${name}: ${value.slice(0, 60)}` : undefined;
  };

/** Go's net/http writes canonical header names (`Content-Type`), `Date`, and no server, keep-alive or powered-by header of its own. */
const CANONICAL = /^[A-Z0-9][a-z0-9]*(-[A-Z0-9][a-z0-9]*)*$/;
const SERVER_ADDED = /^(server|x-powered-by|keep-alive)$/i;

const goHeaders: Sign = (answer) => {
  const names = answer.headerNames;
  if (!names || names.length === 0 || !names.includes('Date')) return undefined;
  if (names.some((name) => SERVER_ADDED.test(name) || !CANONICAL.test(name))) return undefined;
  const connection = answer.headers.connection;
  return connection === undefined || connection.toLowerCase() === 'close' ? "Go's net/http headers" : undefined;
};

/** echo's own error answer: `{"message":"..."}` and a newline, as `application/json; charset=UTF-8` (gin writes `utf-8`), on Go's headers. */
const echoError: Sign = (answer, text) =>
  answer.headers['content-type'] === 'application/json; charset=UTF-8' &&
  /^\{"message":"[^"\n]{1,200}"\}\n$/.test(text) &&
  goHeaders(answer, text)
    ? `its {"message": ...} error on Go's net/http headers (echo)`
    : undefined;

/** rack-protection, on in every Sinatra app, adds these three headers in this order. */
const RACK_PROTECTION = ['X-XSS-Protection', 'X-Content-Type-Options', 'X-Frame-Options'];
const rackProtection: Sign = (answer) => {
  const names = answer.headerNames ?? [];
  const at = names.indexOf(RACK_PROTECTION[0]!);
  return at >= 0 && RACK_PROTECTION.every((name, offset) => names[at + offset] === name)
    ? "rack-protection's X-XSS-Protection, X-Content-Type-Options and X-Frame-Options headers"
    : undefined;
};

/** A Rack app under Puma: rack-protection's X-Content-Type-Options right after Content-Type, and no Date or Server (Puma writes neither). */
const rackJsonHeaders: Sign = (answer) => {
  const names = answer.headerNames ?? [];
  return names[0] === 'Content-Type' && names[1] === 'X-Content-Type-Options' && !names.includes('Date') && !answer.headers.server
    ? 'X-Content-Type-Options after Content-Type and no Date (Rack under Puma)'
    : undefined;
};

/** The JDK's com.sun.net.httpserver writes `Content-length` (and every name it sets with only its first letter upper case). */
const jdkHeaders: Sign = (answer) => (answer.headerNames?.includes('Content-length') ? 'Content-length (the JDK HttpServer)' : undefined);

/** Node's http server answers a kept-alive request with `Keep-Alive: timeout=5` (its keepAliveTimeout) unless told otherwise. */
const nodeHeaders: Sign = (answer) =>
  answer.headerNames?.includes('Keep-Alive') && /^timeout=\d+$/.test(answer.headers['keep-alive'] ?? '') && !answer.headers.server
    ? `Keep-Alive: ${answer.headers['keep-alive']} (Node's http)`
    : undefined;

/** A pydantic validation body, as FastAPI answers it: `{"detail": [{"loc": [...], "msg": ..., "type": ...}]}`. */
const pydanticDetail: Sign = (answer) =>
  refusedFields(smallJson(answer.body)) ? 'its {"detail": [...]} body (FastAPI, pydantic)' : undefined;

/**
 * Each stack's signs, the most certain first: the exact text a library writes, then the headers a
 * server names itself by, then the shape of the headers a bare server writes.
 */
const SIGNS: readonly { id: StackId; signs: readonly Sign[] }[] = [
  // The exact words of a library's own errors.
  {
    id: 'go',
    signs: [
      first(/json: unknown field "[^"\n]{0,80}"/),
      first(/http: request body too large/),
      first(/json: cannot unmarshal \S{1,80} into Go (struct field|value) [^\n]{0,80}/),
    ],
  },
  { id: 'echo', signs: [echoError] },
  { id: 'gin', signs: [first(/Key: '[^'\n]{1,80}' Error:Field validation for '[^'\n]{1,80}' failed on the '[^'\n]{1,40}' tag/)] },
  {
    id: 'aiohttp',
    signs: [
      first(/Maximum request body size \d+ exceeded(, actual body size \d+)?/),
      first(/Server got itself in trouble/),
      header('server', /\baiohttp\//i),
    ],
  },
  {
    id: 'jackson',
    signs: [
      first(/Unrecognized field "[^"\n]{0,80}" \(class [^)\n]{0,120}\), not marked as ignorable/),
      first(/com\.fasterxml\.jackson\.[\w.]{1,80}/),
    ],
  },
  { id: 'spring', signs: [first(/"timestamp":"[^"]{10,40}","status":\d{3},"error":"[^"]{1,40}"(,"message":"[^"]{0,400}")?,"path":"/)] },
  { id: 'fastify', signs: [first(/FST_ERR_[A-Z_]{3,40}/)] },
  { id: 'hapi', signs: [first(/Payload content length greater than maximum allowed: \d+/)] },
  { id: 'nextjs', signs: [first(/Body exceeded \S{1,16} ?\S{0,16} limit/i), header('x-powered-by', /^Next\.js/i)] },
  { id: 'django', signs: [first(/RequestDataTooBig|DATA_UPLOAD_MAX_MEMORY_SIZE/)] },
  { id: 'express', signs: [first(/PayloadTooLargeError/), header('x-powered-by', /^Express$/)] },
  {
    id: 'koa',
    // koa-bodyparser and @koa/bodyparser: Koa answers the error's own message, as plain text.
    signs: [
      (answer, text) =>
        answer.status === 413 && text.trim() === 'request entity too large' && /^text\/plain/i.test(answer.headers['content-type'] ?? '')
          ? 'request entity too large'
          : undefined,
    ],
  },
  { id: 'fastapi', signs: [pydanticDetail] },
  // The servers that name themselves.
  { id: 'uvicorn', signs: [header('server', /^uvicorn/i)] },
  { id: 'tornado', signs: [header('server', /^TornadoServer\//i)] },
  { id: 'flask', signs: [header('server', /^Werkzeug\//i)] },
  { id: 'django', signs: [header('server', /^WSGIServer\/[\d.]+ CPython/i)] },
  { id: 'python-http-server', signs: [header('server', /^BaseHTTP\//i)] },
  { id: 'php', signs: [header('x-powered-by', /^PHP\//i), first(/<b>(Fatal error|Warning|Notice|Deprecated)<\/b>: /)] },
  { id: 'sinatra', signs: [first(/Sinatra doesn(’|')t know this ditty/), rackProtection] },
  { id: 'ruby', signs: [header('server', /^(WEBrick|Puma|thin|Unicorn|Falcon)\b/i)] },
  { id: 'dotnet', signs: [header('server', /^Kestrel/i), header('x-powered-by', /^ASP\.NET/i)] },
  { id: 'spring', signs: [header('server', /^(Apache-Coyote|Tomcat|Jetty)/i)] },
  { id: 'nginx', signs: [header('server', /^nginx\b/i), first(/<center>nginx\b[^<]{0,40}<\/center>/i)] },
  // The headers a bare server writes on its own.
  { id: 'go', signs: [goHeaders] },
  { id: 'jdk-httpserver', signs: [jdkHeaders] },
  { id: 'node', signs: [nodeHeaders] },
  { id: 'ruby', signs: [rackJsonHeaders] },
];

/**
 * The answering stack, looked up when a hint first asks for it: the look runs patterns over the
 * answer, and a valid answer (most of them) needs no hint.
 */
export type StackWhenNeeded = () => AnsweringStack | undefined;

/** `find`, run once, on the first call. */
export function stackWhenNeeded(find: () => AnsweringStack | undefined): StackWhenNeeded {
  let found: { stack: AnsweringStack | undefined } | undefined;
  return () => (found ??= { stack: find() }).stack;
}

/** The stack the answer tells, or undefined when it tells none. */
export function answeringStack(answer: HttpAnswer): AnsweringStack | undefined {
  const text = answer.body.subarray(0, 256 * 1024).toString('utf8');
  for (const { id, signs } of SIGNS) {
    for (const sign of signs) {
      const told = sign(answer, text);
      if (told !== undefined) return { id, sign: told };
    }
  }
  return undefined;
}
