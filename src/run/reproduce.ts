import { jsonPrintable } from '../core/unsafe-text.js';

/** A value quoted for a POSIX shell: single quotes, each ' written as '\''. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A header of a reproduce line: a value written as given, or a secret named by its variable. */
export type CurlHeader = { name: string; value: string } | { name: string; variable: string; prefix?: string };

/** `-H 'name: value'`, or `-H "name: $VAR"` for a secret, which the shell of whoever pastes it expands. */
function headerFlag(header: CurlHeader): string {
  if ('value' in header) return `-H ${shellQuote(`${header.name}: ${header.value}`)}`;
  const literal = `${header.name}: ${header.prefix ?? ''}`;
  // A name or prefix the shell would read inside double quotes ($, `, \, !, ") is single-quoted apart.
  return /^[A-Za-z0-9 :_.-]*$/.test(literal) ? `-H "${literal}$${header.variable}"` : `-H ${shellQuote(literal)}"$${header.variable}"`;
}

/**
 * A curl command that sends exactly this request to the agent. Secrets (the token, --header-env
 * headers) are named by their variables ("$FLOW_FRAMEWORK_AGENT_TOKEN"): their values are never written.
 */
export function curlCommand(url: string, body: string, headers: readonly CurlHeader[]): string {
  const parts = ['curl -sS -i -X POST', shellQuote(url), "-H 'content-type: application/json'"];
  for (const header of headers) parts.push(headerFlag(header));
  // What the agent wrote into the body (a button's id it gave) is sent again as the same JSON value, but
  // written with JSON escapes for what would move or hide on a terminal (U+202E, U+009B, U+2028, U+200B).
  parts.push('--data-raw', shellQuote(jsonPrintable(body)));
  return parts.join(' ');
}

/** A curl command that sends the body saved in `file` (a body too large to write inline), as curlCommand sends one. */
export function curlFileCommand(url: string, file: string, headers: readonly CurlHeader[]): string {
  const parts = ['curl -sS -i -X POST', shellQuote(url), "-H 'content-type: application/json'"];
  for (const header of headers) parts.push(headerFlag(header));
  parts.push('--data-binary', shellQuote(`@${file}`));
  return parts.join(' ');
}

/** The longest body a reproduce line writes out in full (UTF-8 bytes); a larger one is replayed by its case. */
export const MAX_INLINE_REPRODUCE_BODY = 1024;

/** `--header`, `--token-env` or `--header-env`: the header sent again the way the run sent it. */
function replayFlag(header: CurlHeader): string {
  if ('value' in header) return `--header ${shellQuote(`${header.name}: ${header.value}`)}`;
  if (header.name === 'authorization' && header.prefix === 'Bearer ') return `--token-env ${header.variable}`;
  return `--header-env ${shellQuote(`${header.name}=${header.variable}`)}`;
}

/**
 * The check-endpoint command that plays this case again on this channel: the reproduce line of a
 * turn whose body is over 1 KB (a photo, a 5 MB attachment), which a curl line cannot carry
 * readably, named as `command` (the run's: this process as it was started, core/command-name.ts).
 * It writes no file; secrets are named by their variables, as in the curl line.
 */
export function replayCommand(
  command: string,
  url: string,
  channel: string,
  caseId: string,
  headers: readonly CurlHeader[],
  flags: readonly string[] = [],
): string {
  const parts = [command, shellQuote(url), '--channel', channel, '--case', caseId, ...flags];
  for (const header of headers) parts.push(replayFlag(header));
  return parts.join(' ');
}
