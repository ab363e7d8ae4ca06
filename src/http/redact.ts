import { WIDEST_ESCAPE, decodedViews } from './decoded-views.js';
import { type SecretForm, secretForms } from './secret-encodings.js';

/** What stands in for a secret the agent sent back, or a secret header's value wherever it is recorded. */
export const REDACTED = '<redacted>';

/** One form of a secret, as the bytes looked for. */
interface Needle extends SecretForm {
  bytes: Buffer;
}

/** The bytes base64 and base64url are written in, and base64's padding. */
const BASE64_BYTES = new Set(Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_', 'latin1'));

/** How far from `at` (by `step`, at most `count` bytes) the bytes are base64's. */
function base64Reach(bytes: Buffer, at: number, step: -1 | 1, count: number): number {
  let reach = 0;
  while (reach < count && BASE64_BYTES.has(bytes[step < 0 ? at - reach - 1 : at + reach] ?? -1)) reach++;
  return reach;
}

/** The raw spans that hold a needle in some view of the bytes, as positions in `raw` from `offset`. */
function spansIn(raw: Buffer, offset: number, needles: readonly Needle[], spans: [number, number][]): void {
  for (const view of decodedViews(raw)) {
    const bytes = view.bytes;
    for (const { bytes: needle, before, after } of needles) {
      for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + needle.length)) {
        const end = at + needle.length;
        const [start, stop] = view.rawSpan(at - base64Reach(bytes, at, -1, before), end + base64Reach(bytes, end, 1, after));
        spans.push([offset + start, offset + stop]);
      }
    }
  }
}

/**
 * The bytes are read a window at a time, so that the views of a large body full of escapes (10 MB
 * of `%41`) take a bounded amount of memory. Each window reaches on by `overlap` bytes, as many as
 * the longest needle takes written in the widest escapes: a secret that starts in a window is found
 * whole in it.
 */
const WINDOW_BYTES = 1024 * 1024;

/** The raw spans that hold a needle in some view, sorted, overlapping ones joined. */
function secretSpans(raw: Buffer, needles: readonly Needle[], overlap: number): [number, number][] {
  const spans: [number, number][] = [];
  for (let offset = 0; offset < raw.length; offset += WINDOW_BYTES) {
    spansIn(raw.subarray(offset, offset + WINDOW_BYTES + overlap), offset, needles, spans);
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

const REPLACEMENT = Buffer.from(REDACTED);

/**
 * Replaces every secret by `<redacted>`, in whatever form it comes. An agent may echo what it was
 * sent (an error page quoting the headers, a reply that repeats the token), plain or encoded: JSON
 * escapes, percent-encoding, HTML references (any mix of escaped and plain characters), base64 or
 * hex of the secret or of a longer text holding it (`Bearer <token>`). An answer is cleaned where it
 * arrives, so nothing decoded from it (a reply, a button id quoted into the next request, an
 * excerpt) and no report or archive can hold a secret. The forms of a run's secrets, which do not
 * change, are worked out once.
 */
export class Redactor {
  readonly #needles: Needle[];
  /** How far a window of the bytes reaches past the next one's start (see WINDOW_BYTES). */
  readonly #overlap: number;

  constructor(readonly secrets: readonly string[]) {
    const forms = [...new Set(secrets.filter((secret) => secret !== ''))].flatMap(secretForms);
    this.#needles = forms
      .filter((form, index) => forms.findIndex((other) => other.text === form.text) === index)
      .map((form) => ({ ...form, bytes: Buffer.from(form.text, 'latin1') }));
    const longest = Math.max(0, ...this.#needles.map((needle) => needle.bytes.length + needle.before + needle.after));
    this.#overlap = longest * WIDEST_ESCAPE;
  }

  /** The bytes with every secret `<redacted>`; the same buffer when none is found. */
  bytes(bytes: Buffer): Buffer {
    if (this.#needles.length === 0 || bytes.length === 0) return bytes;
    const spans = secretSpans(bytes, this.#needles, this.#overlap);
    if (spans.length === 0) return bytes;
    const parts: Buffer[] = [];
    let from = 0;
    for (const [start, end] of spans) {
      parts.push(bytes.subarray(from, start), REPLACEMENT);
      from = end;
    }
    parts.push(bytes.subarray(from));
    return Buffer.concat(parts);
  }

  /** The text with every secret `<redacted>`. */
  text(text: string): string {
    if (this.#needles.length === 0) return text;
    const bytes = Buffer.from(text, 'utf8');
    const cleaned = this.bytes(bytes);
    return cleaned === bytes ? text : cleaned.toString('utf8');
  }
}

/** The bytes with every occurrence of each secret, in any form, replaced by `<redacted>` (see Redactor). */
export function redactBytes(bytes: Buffer, secrets: string | readonly string[]): Buffer {
  return new Redactor(typeof secrets === 'string' ? [secrets] : secrets).bytes(bytes);
}

/** The text with every occurrence of each secret, in any form, replaced by `<redacted>` (see Redactor). */
export function redactText(text: string, secrets: string | readonly string[]): string {
  return new Redactor(typeof secrets === 'string' ? [secrets] : secrets).text(text);
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
