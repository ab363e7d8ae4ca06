/**
 * The hint for an answer whose status is not 200, fitted to the status: what a 401 or 403 says
 * about the credentials sent (and the scheme the agent asked for), a wrong path for 404, the
 * method for 405, the agent's own log for a 5xx.
 */
import type { HttpAnswer } from '../http/client.js';
import { commandWords } from '../core/command-words.js';
import { notAnAgentHint } from './connection-hints.js';

/** What a request carried to prove who sent it, as a hint may name it (never a value). */
export interface SentCredentials {
  /** The authorization header sent: the bearer token from its variable, or a header from --header-env; undefined for none. */
  authorization: { from: 'token' | 'header-env'; variable: string } | undefined;
  /** The token's variable, set or not. */
  tokenEnv: string;
  /** The other headers read from variables (--header-env), by name. */
  secretHeaders: readonly string[];
}

/** A handler checked in this process (the library's target), and the path its requests were sent to. */
export interface InProcessTarget {
  kind: 'fetch-handler' | 'node-listener';
  path: string;
}

/** A 404 from a handler checked in this process: the path it was given is not the one it routes; the target's `path` option says which. */
function inProcessNotFoundHint(target: InProcessTarget): string {
  const wrapper = target.kind === 'fetch-handler' ? "{ fetch: handler, path: '/agent' }" : "{ listener: app, path: '/agent' }";
  return `The handler answered 404 at ${target.path}: give the path its POST route listens on as the target's path option, ${wrapper} (the path is / when none is given).`;
}

const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** The schemes a `www-authenticate` header asks for: `Basic realm="x", Bearer` is Basic and Bearer. */
export function authenticationSchemes(header: string | undefined): string[] {
  if (!header) return [];
  const schemes: string[] = [];
  for (const part of header.split(',')) {
    // A part that starts with `name=` is a parameter of the challenge before it, not a new scheme.
    const first = /^\s*([^\s=,]+)(\s*=)?/.exec(part);
    if (!first || first[2] !== undefined || !TOKEN.test(first[1]!)) continue;
    if (!schemes.some((scheme) => scheme.toLowerCase() === first[1]!.toLowerCase())) schemes.push(first[1]!.slice(0, 40));
  }
  return schemes;
}

function refusedHint(answer: HttpAnswer, credentials: SentCredentials): string {
  const { authorization, tokenEnv, secretHeaders } = credentials;
  const sent =
    authorization === undefined
      ? `no token was sent (${tokenEnv} is not set)`
      : authorization.from === 'token'
        ? `the token from ${authorization.variable} was sent as authorization: Bearer …`
        : `the authorization header from ${authorization.variable} was sent`;
  const others = secretHeaders.filter((name) => name !== 'authorization');
  const parts = [`The agent refused the request: ${sent}${others.length ? `, with ${others.join(', ')} from --header-env` : ''}.`];
  const schemes = authenticationSchemes(answer.headers['www-authenticate']);
  if (schemes.length > 0) parts.push(`It asks for ${schemes.join(' or ')} (www-authenticate).`);
  if (schemes.length > 0 && !schemes.some((scheme) => scheme.toLowerCase() === 'bearer')) {
    parts.push(`Send that with --header-env authorization=VAR, VAR holding "${schemes[0]} <credentials>".`);
  } else if (authorization === undefined) {
    parts.push(
      `Set ${tokenEnv} (in the environment or .env), or name the token's variable with --token-env; a gateway that wants another header (x-api-key) gets it with --header-env NAME=VAR.`,
    );
  } else {
    parts.push(
      `Check that ${authorization.variable} holds what the agent expects; a gateway that wants another header (x-api-key) gets it with --header-env NAME=VAR.`,
    );
  }
  return parts.join(' ');
}

/** The hint for a status other than 200; `inProcess` for a handler checked in this process (a 404 then names the target's `path`). */
export function statusHint(answer: HttpAnswer, credentials: SentCredentials | undefined, inProcess?: InProcessTarget): string {
  const { status } = answer;
  if (status === 404 && inProcess) return inProcessNotFoundHint(inProcess);
  const notTheAgent = notAnAgentHint(answer);
  if (notTheAgent) return notTheAgent;
  if (status >= 300 && status < 400) return 'Redirects are not followed: point check-endpoint at the final URL.';
  if ((status === 401 || status === 403) && credentials) return refusedHint(answer, credentials);
  if (status === 404) return 'The URL path is probably wrong: point check-endpoint at the path the agent listens on for POST.';
  if (status === 405) {
    const allow = answer.headers.allow ? ` (it allows ${answer.headers.allow.slice(0, 80)})` : '';
    return `The agent must accept POST at this URL${allow}, and answer HEAD with any status.`;
  }
  if (status === 407) {
    return 'A proxy between the checker and the agent wants credentials: write them in the proxy variable (http://user:password@host:port).';
  }
  if (status >= 500) return "The agent failed while answering: look at the agent's log for the error (the body, if any, is quoted above).";
  if (status === 400 || status === 422) {
    return `The agent refused this request as invalid: it must accept every request that matches the contract's request schema (${commandWords('spec request')} prints it), and ignore fields it does not know.`;
  }
  return 'Answer every message with 200 and { "replies": [...] }; use { "replies": [] } to send nothing.';
}
