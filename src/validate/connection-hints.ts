/**
 * Hints from what the connection says about the server at the URL: a scheme that does not fit the
 * port (http:// to an https port, and the reverse), a certificate the system does not trust, a
 * connection closed while the body was being sent, and a server that is not the agent (a static
 * file server's 501, a framework's or nginx's 404 for a path it has no route for).
 */
import type { HttpAnswer, HttpFailure } from '../http/client.js';
import { htmlTitle } from './html-text.js';

/** The same URL with the other scheme: what to use instead. */
export function withScheme(url: string, scheme: 'http' | 'https'): string {
  const other = new URL(url);
  other.protocol = `${scheme}:`;
  return other.href;
}

/** A byte count as people read it: 7 MB, 300 kB, 512 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${Number((bytes / 1_000_000).toFixed(1))} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} kB`;
  return `${bytes} bytes`;
}

/** The certificate errors of a certificate the system does not trust (rather than an expired or misnamed one). */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** What OpenSSL says when an https:// URL reaches a server that answers in plain http. */
const PLAIN_HTTP_ON_TLS = /wrong version number|packet length too long|http request/i;

/** An https:// URL whose server answered in plain http. */
export function answeredPlainHttp(failure: HttpFailure): boolean {
  return (
    failure.kind === 'network' &&
    (failure.code === 'EPROTO' || /^ERR_SSL_/.test(failure.code ?? '')) &&
    PLAIN_HTTP_ON_TLS.test(failure.message)
  );
}

/** How to trust a certificate the system does not, or not check it. */
export const UNTRUSTED_CERTIFICATE_ADVICE =
  'Trust the certificate authority that signed it with NODE_EXTRA_CA_CERTS=/path/ca.pem (for a self-signed certificate, the certificate itself), or pass --insecure (local use only: the certificate is then not checked).';

/** The advice for a failure to talk to the agent at all, when its cause has a remedy: the wrong scheme, an untrusted certificate. */
export function connectionAdvice(failure: HttpFailure, url: string): string | undefined {
  if (answeredPlainHttp(failure)) return `The agent speaks plain http on this port, not https: use ${withScheme(url, 'http')}`;
  if (UNTRUSTED_CERTIFICATE.has(failure.code ?? '')) return UNTRUSTED_CERTIFICATE_ADVICE;
  return undefined;
}

/** The advice once a TLS handshake on an http:// URL's port succeeded: the agent speaks https there. */
export function speaksHttpsAdvice(url: string): string {
  return `The agent speaks https on this port: use ${withScheme(url, 'https')}`;
}

/** The hint for an exchange that ended without an answer. */
export function networkFailureHint(failure: HttpFailure, requestBodyMaxBytes: number | undefined): string {
  const sending = failure.closedWhileSending;
  if (sending) {
    return (
      `The agent closed the connection after taking ${formatBytes(sending.sentBytes)} of a ${formatBytes(sending.bodyBytes)} body, without an answer: ` +
      `a server that refuses bodies over its size limit closes like this. Accept request bodies up to the contract's ${requestBodyMaxBytes === undefined ? 'limit' : formatBytes(requestBodyMaxBytes)} ` +
      '(raise the body limit of the server or framework in front of the agent), or answer 413 so that the refusal is heard.'
    );
  }
  if (answeredPlainHttp(failure)) return 'The agent speaks plain http on this port, not https: use http:// instead.';
  if (UNTRUSTED_CERTIFICATE.has(failure.code ?? '')) return UNTRUSTED_CERTIFICATE_ADVICE;
  if (failure.resetAfterRequest) {
    return (
      'The agent took the whole request, then reset the connection without a byte of an answer: its handler crashed on this request (an uncaught exception, a process that exits, a socket destroyed). ' +
      "Find the error in the agent's log for this request, and answer every request with a status, a 500 at worst, so that a crash is heard as one."
    );
  }
  return failure.closedWithoutAnswer
    ? "The agent closed the connection without answering: look at the agent's log (a handler that crashed on this request, say)."
    : "Check the agent's logs: it closed the connection or answered with something that is not HTTP.";
}

/** What TLS servers answer to a plain http request on their port: nginx, and Go's net/http. */
const PLAIN_HTTP_REFUSED = /The plain HTTP request was sent to HTTPS port|Client sent an HTTP request to an HTTPS server/i;

/** The first line of what a server said, at most 80 characters. */
function short(text: string): string {
  const line = text.trim().split('\n')[0]!.trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** A short quote of what a server said: its page's title, or the first line of its text. */
function quoted(text: string): string {
  return JSON.stringify(short(text));
}

/** Which server answered, as far as it says: `server` or `x-powered-by`, or its page's words. */
function whoSaid(answer: HttpAnswer, text: string): string | undefined {
  const named = answer.headers.server ?? answer.headers['x-powered-by'];
  if (named) return named.slice(0, 60);
  if (/<hr><center>nginx/i.test(text)) return 'nginx';
  return undefined;
}

/** The route that is missing, in the words of express (`Cannot POST /agent`) or Fastify (`Route POST:/agent not found`). */
function missingRoute(text: string): { framework: string; said: string } | undefined {
  const express = /<pre>(Cannot POST [^<]{0,200})<\/pre>/.exec(text)?.[1];
  if (express) return { framework: 'express', said: short(express) };
  const fastify = /"message":"(Route POST:[^"]{0,200} not found)"/.exec(text)?.[1];
  if (fastify) return { framework: 'Fastify', said: short(fastify) };
  return undefined;
}

/**
 * The hint for an answer that says the server at the URL is not the agent, or not at this path or
 * scheme: undefined when the answer says nothing of the kind.
 */
export function notAnAgentHint(answer: HttpAnswer): string | undefined {
  const text = answer.body.subarray(0, 16 * 1024).toString('utf8');
  const plainHttpRefused = answer.status === 400 ? PLAIN_HTTP_REFUSED.exec(text)?.[0] : undefined;
  if (plainHttpRefused) return `The server on this port speaks https (it says "${plainHttpRefused}"): use https:// instead of http://.`;
  const who = whoSaid(answer, text);
  const from = who ? ` (server: ${who})` : '';
  const said501 = answer.statusText || (htmlTitle(text) ?? '');
  if (answer.status === 501 && /method|POST/i.test(said501)) {
    return (
      `The server at this URL does not take POST${from}: ${quoted(said501)}. ` +
      'It is probably a static file server (python3 -m http.server answers HEAD and GET only), not the agent: point check-endpoint at the URL the agent listens on.'
    );
  }
  if (answer.status === 404) {
    const route = missingRoute(text);
    if (route) {
      return `${route.framework} answered "${route.said}": the app has no POST route at this path. Point check-endpoint at the path the agent's route listens on, or add the route.`;
    }
    const title = /html/i.test(answer.headers['content-type'] ?? '') ? htmlTitle(text) : undefined;
    if (who && title) {
      return `${who} answered ${quoted(title)}: nothing at this path takes the request. The URL's path is wrong, or the server does not pass it to the agent (an nginx location, a proxy rule).`;
    }
  }
  if (answer.status === 405 && who && /nginx/i.test(who)) {
    return `${who} refused POST at this path (${quoted(htmlTitle(text) ?? answer.statusText)}): it serves a static file here, not the agent. Point check-endpoint at the path nginx passes to the agent.`;
  }
  return undefined;
}
