/** A value quoted for a POSIX shell: single quotes, each ' written as '\''. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command that sends exactly this request to the agent. The token is named by its
 * variable ("$FLOW_FRAMEWORK_AGENT_TOKEN"), expanded by the shell of whoever pastes it: its value
 * is never written.
 */
export function curlCommand(url: string, body: string, tokenEnv: string | undefined): string {
  const parts = ['curl -sS -i -X POST', shellQuote(url), "-H 'content-type: application/json'"];
  if (tokenEnv) parts.push(`-H "authorization: Bearer $${tokenEnv}"`);
  parts.push('--data-raw', shellQuote(body));
  return parts.join(' ');
}
