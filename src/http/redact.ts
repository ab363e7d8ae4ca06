/** What stands in for a secret the agent sent back, or a secret header's value wherever it is recorded. */
export const REDACTED = '<redacted>';

/** The secrets, longest first (one that holds another is replaced whole), without empty ones. */
function ordered(secrets: string | readonly string[]): string[] {
  return (typeof secrets === 'string' ? [secrets] : [...secrets]).filter((secret) => secret !== '').sort((a, b) => b.length - a.length);
}

/**
 * The bytes with every occurrence of each secret replaced by `<redacted>`. An agent may echo what
 * it was sent (an error page quoting the headers, a reply that repeats the token): the answer is
 * cleaned where it arrives, so no excerpt, report or archive can hold even part of it.
 */
export function redactBytes(bytes: Buffer, secrets: string | readonly string[]): Buffer {
  let cleaned = bytes;
  for (const secret of ordered(secrets)) {
    const needle = Buffer.from(secret, 'utf8');
    if (cleaned.indexOf(needle) < 0) continue;
    const parts: Buffer[] = [];
    const replacement = Buffer.from(REDACTED);
    let from = 0;
    for (let at = cleaned.indexOf(needle); at >= 0; at = cleaned.indexOf(needle, from)) {
      parts.push(cleaned.subarray(from, at), replacement);
      from = at + needle.length;
    }
    parts.push(cleaned.subarray(from));
    cleaned = Buffer.concat(parts);
  }
  return cleaned;
}

/** The text with every occurrence of each secret replaced by `<redacted>`. */
export function redactText(text: string, secrets: string | readonly string[]): string {
  let cleaned = text;
  for (const secret of ordered(secrets)) cleaned = cleaned.split(secret).join(REDACTED);
  return cleaned;
}

/**
 * A URL as every output writes it: each query value `<redacted>`, the names kept. A key may travel
 * in the query (Azure Functions' `?code=`), and the report, the record, the HAR and the reproduce
 * lines are files that get shared.
 */
export function shownUrl(url: URL): string {
  if (url.search === '') return url.href;
  const names = [...url.searchParams.keys()].map((name) => `${encodeURIComponent(name)}=${REDACTED}`);
  return `${url.origin}${url.pathname}?${names.join('&')}${url.hash}`;
}

/** Query names that carry a key: Azure Functions' `code`, `key`, `api_key`, `token`, `sig` and the like. */
const KEY_NAME = /^(code|key|apikey|api[-_]key|token|access[-_]token|auth|sig|signature|secret|password)$/i;

/** The values of the query's keys (by name: `?code=`, `?api_key=`): cleaned out of every answer like the token. */
export function querySecrets(url: URL): string[] {
  return [...url.searchParams].filter(([name, value]) => KEY_NAME.test(name) && value !== '').map(([, value]) => value);
}
