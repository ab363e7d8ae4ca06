/** What stands in for a secret the agent sent back. */
export const REDACTED = '<redacted>';

/**
 * The bytes with every occurrence of the secret replaced by `<redacted>`. An agent may echo the
 * token it was sent (an error page quoting the header, a reply that repeats it): the answer is
 * cleaned where it arrives, so no excerpt, report or archive can hold even part of it.
 */
export function redactBytes(bytes: Buffer, secret: string): Buffer {
  const needle = Buffer.from(secret, 'utf8');
  if (needle.length === 0 || bytes.indexOf(needle) < 0) return bytes;
  const parts: Buffer[] = [];
  const replacement = Buffer.from(REDACTED);
  let from = 0;
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, from)) {
    parts.push(bytes.subarray(from, at), replacement);
    from = at + needle.length;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}

/** The text with every occurrence of the secret replaced by `<redacted>`. */
export function redactText(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join(REDACTED);
}
