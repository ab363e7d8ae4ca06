import { decodedViews } from './decoded-views.js';
import { type SecretForm, secretForms } from './secret-encodings.js';

/** What stands in for a secret the agent sent back, or a secret header's value wherever it is recorded. */
export const REDACTED = '<redacted>';

/** Every form of every secret looked for (see secret-encodings.ts), once each. */
function formsOf(secrets: string | readonly string[]): SecretForm[] {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  const forms = [...new Set(list.filter((secret) => secret !== ''))].flatMap(secretForms);
  return forms.filter((form, index) => forms.findIndex((other) => other.text === form.text) === index);
}

const BASE64_CHARACTER = /[A-Za-z0-9+/=_-]/;

/** How far from `at` (by `step`, at most `count` characters) the text is base64 characters. */
function base64Reach(text: string, at: number, step: -1 | 1, count: number): number {
  let reach = 0;
  while (reach < count && BASE64_CHARACTER.test(text[at + step * (reach + (step < 0 ? 1 : 0))] ?? '')) reach++;
  return reach;
}

/** The raw spans that hold a secret in some view, sorted, overlapping ones joined. */
function secretSpans(raw: string, forms: readonly SecretForm[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const view of decodedViews(raw)) {
    const text = view.text;
    for (const { text: form, before, after } of forms) {
      for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + form.length)) {
        const end = at + form.length;
        spans.push(view.rawSpan(at - base64Reach(text, at, -1, before), end + base64Reach(text, end, 1, after)));
      }
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  const joined: [number, number][] = [];
  for (const [start, end] of spans) {
    const last = joined.at(-1);
    if (last && start < last[1]) last[1] = Math.max(last[1], end);
    else joined.push([start, end]);
  }
  return joined;
}

/**
 * The bytes with every secret replaced by `<redacted>`, in whatever form it came. An agent may echo
 * what it was sent (an error page quoting the headers, a reply that repeats the token), plain or
 * encoded: JSON escapes, percent-encoding, HTML references (any mix of escaped and plain
 * characters), base64 or hex of the secret or of a longer text holding it (`Bearer <token>`). The
 * answer is cleaned where it arrives, so nothing decoded from it (a reply, a button id quoted into
 * the next request, an excerpt) and no report or archive can hold the secret.
 */
export function redactBytes(bytes: Buffer, secrets: string | readonly string[]): Buffer {
  const forms = formsOf(secrets);
  if (forms.length === 0 || bytes.length === 0) return bytes;
  const spans = secretSpans(bytes.toString('latin1'), forms);
  if (spans.length === 0) return bytes;
  const parts: Buffer[] = [];
  const replacement = Buffer.from(REDACTED);
  let from = 0;
  for (const [start, end] of spans) {
    parts.push(bytes.subarray(from, start), replacement);
    from = end;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}

/** The text with every secret replaced by `<redacted>`, in whatever form it came (as redactBytes). */
export function redactText(text: string, secrets: string | readonly string[]): string {
  const bytes = Buffer.from(text, 'utf8');
  const cleaned = redactBytes(bytes, secrets);
  return cleaned === bytes ? text : cleaned.toString('utf8');
}

/** A query as shown: each value `<redacted>`, the names kept (a part without `=` is all value). */
function shownQuery(search: string): string {
  const query = search.replace(/^\?/, '');
  if (query === '') return '';
  const parts = query.split('&').map((part) => {
    const equals = part.indexOf('=');
    return equals < 0 ? (part === '' ? '' : REDACTED) : `${part.slice(0, equals)}=${REDACTED}`;
  });
  return `?${parts.join('&')}`;
}

/**
 * A URL as every output writes it: each query value `<redacted>`, the names kept, and any
 * credentials before the host (`user:pass@`) `<redacted>`. A key may travel in the query (Azure
 * Functions' `?code=`), and the report, the record, the HAR and the reproduce lines are files that
 * get shared.
 */
export function shownUrl(url: URL): string {
  const credentials = url.username !== '' || url.password !== '' ? `${REDACTED}@` : '';
  return `${url.protocol}//${credentials}${url.host}${url.pathname}${shownQuery(url.search)}${url.hash}`;
}

/**
 * A URL as it was written, which may not parse, shown as shownUrl shows one: the credentials
 * before `@` and the query's values `<redacted>`. For messages and documents about a target that
 * could not be used.
 */
export function shownUrlText(text: string): string {
  const hash = text.indexOf('#');
  const beforeHash = hash < 0 ? text : text.slice(0, hash);
  const question = beforeHash.indexOf('?');
  const beforeQuery = question < 0 ? beforeHash : beforeHash.slice(0, question);
  const query = question < 0 ? '' : shownQuery(beforeHash.slice(question));
  // The authority runs from after `//` (or the start) to the first `/`; its last `@` ends the credentials.
  const authorityStart = /^[a-z][a-z0-9+.-]*:\/\//i.exec(beforeQuery)?.[0].length ?? 0;
  const slash = beforeQuery.indexOf('/', authorityStart);
  const authority = beforeQuery.slice(authorityStart, slash < 0 ? undefined : slash);
  const at = authority.lastIndexOf('@');
  const shownAuthority = at < 0 ? authority : `${REDACTED}@${authority.slice(at + 1)}`;
  const rest = slash < 0 ? '' : beforeQuery.slice(slash);
  return `${beforeQuery.slice(0, authorityStart)}${shownAuthority}${rest}${query}${hash < 0 || hash === text.length - 1 ? '' : `#${REDACTED}`}`;
}

/** Query names that carry a key: Azure Functions' `code`, `key`, `api_key`, `token`, `sig` and the like. */
const KEY_NAME = /^(code|key|apikey|api[-_]key|token|access[-_]token|auth|sig|signature|secret|password)$/i;

/** The values of the query's keys (by name: `?code=`, `?api_key=`): cleaned out of every answer like the token. */
export function querySecrets(url: URL): string[] {
  return [...url.searchParams].filter(([name, value]) => KEY_NAME.test(name) && value !== '').map(([, value]) => value);
}
