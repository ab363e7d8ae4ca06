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
  parts.push('--data-raw', shellQuote(body));
  return parts.join(' ');
}
