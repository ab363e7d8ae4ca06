/**
 * The ways an answer's text can be read once its escapes are undone: JSON's `\uXXXX` and `\n`,
 * percent-encoding's `%2B` (either case of hex), HTML's `&#115;`, `&#x73;` and `&plus;`. A secret
 * may be written in any mix of escaped and plain characters, which no list of encoded forms could
 * hold; in the view with the escapes undone it reads plain. Each view keeps where each of its bytes
 * came from, so a secret found in it is cut out of the bytes as they came, escapes and all.
 *
 * Texts are byte strings (one character per byte, as `latin1` reads a buffer): a decoded escape is
 * the UTF-8 bytes of its character, as the secret's own bytes are.
 */

/** One escape undone: `length` decoded bytes at `at`, from the raw characters `from` to `to`. */
interface Escape {
  at: number;
  length: number;
  from: number;
  to: number;
}

/** What an escape at a position decodes to (a byte string), and where it ends; undefined when no escape starts there. */
type Decoder = (raw: string, at: number) => { bytes: string; end: number } | undefined;

export interface DecodedView {
  /** The text with the view's escapes undone. */
  text: string;
  /** The raw characters that the view's bytes `start` to `end` (not included) came from. */
  rawSpan(start: number, end: number): [number, number];
}

/** A character's UTF-8 bytes, as a byte string. */
function utf8Bytes(codePoint: number): string {
  return Buffer.from(String.fromCodePoint(codePoint), 'utf8').toString('latin1');
}

const HEX4 = /^[0-9a-fA-F]{4}$/;
const JSON_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** A JSON string's escape: `\"`, `\n`, `\u0073`, a surrogate pair `\uD83D\uDE00` as one character. */
const jsonEscape: Decoder = (raw, at) => {
  const kind = raw[at + 1] ?? '';
  if (Object.hasOwn(JSON_ESCAPES, kind)) return { bytes: JSON_ESCAPES[kind]!, end: at + 2 };
  const unit = raw.slice(at + 2, at + 6);
  if (kind !== 'u' || !HEX4.test(unit)) return undefined;
  const high = parseInt(unit, 16);
  const next = raw.slice(at + 8, at + 12);
  if (high >= 0xd800 && high <= 0xdbff && raw.startsWith('\\u', at + 6) && HEX4.test(next)) {
    const low = parseInt(next, 16);
    if (low >= 0xdc00 && low <= 0xdfff) return { bytes: utf8Bytes(0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)), end: at + 12 };
  }
  return { bytes: utf8Bytes(high), end: at + 6 };
};

const HEX2 = /^[0-9a-fA-F]{2}$/;

/** Percent-encoding's `%XX`: one byte, upper or lower case hex. */
const percentEscape: Decoder = (raw, at) => {
  const hex = raw.slice(at + 1, at + 3);
  return HEX2.test(hex) ? { bytes: String.fromCharCode(parseInt(hex, 16)), end: at + 3 } : undefined;
};

/** HTML's named references for the characters a token or key is made of (and the few every page uses). */
const NAMED_REFERENCES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  excl: '!',
  num: '#',
  dollar: '$',
  percnt: '%',
  lpar: '(',
  rpar: ')',
  ast: '*',
  plus: '+',
  comma: ',',
  period: '.',
  sol: '/',
  colon: ':',
  semi: ';',
  equals: '=',
  quest: '?',
  commat: '@',
  lsqb: '[',
  bsol: '\\',
  rsqb: ']',
  hat: '^',
  lowbar: '_',
  grave: '`',
  lcub: '{',
  verbar: '|',
  vert: '|',
  rcub: '}',
};

const CHARACTER_REFERENCE = /&(?:#[xX]([0-9a-fA-F]{1,6});?|#([0-9]{1,7});?|([A-Za-z]{2,8});)/y;

/** An HTML character reference: `&#115;`, `&#x73;` (the `;` may be left out, as browsers allow), `&plus;`. */
const htmlReference: Decoder = (raw, at) => {
  CHARACTER_REFERENCE.lastIndex = at;
  const match = CHARACTER_REFERENCE.exec(raw);
  if (!match) return undefined;
  const [whole, hex, decimal, name] = match;
  const end = at + whole.length;
  if (name !== undefined) {
    const character = NAMED_REFERENCES[name.toLowerCase()];
    return character === undefined ? undefined : { bytes: utf8Bytes(character.codePointAt(0)!), end };
  }
  const codePoint = hex !== undefined ? parseInt(hex, 16) : parseInt(decimal!, 10);
  return codePoint > 0 && codePoint <= 0x10ffff ? { bytes: utf8Bytes(codePoint), end } : undefined;
};

/** The view with every escape that starts with `mark` undone; undefined when the text holds none. */
function decodedView(raw: string, mark: string, decode: Decoder): DecodedView | undefined {
  const pieces: string[] = [];
  const escapes: Escape[] = [];
  let length = 0;
  let copied = 0;
  for (let at = raw.indexOf(mark); at >= 0; at = raw.indexOf(mark, at + 1)) {
    const escape = decode(raw, at);
    if (!escape) continue;
    pieces.push(raw.slice(copied, at), escape.bytes);
    length += at - copied;
    escapes.push({ at: length, length: escape.bytes.length, from: at, to: escape.end });
    length += escape.bytes.length;
    copied = escape.end;
    at = escape.end - 1;
  }
  if (escapes.length === 0) return undefined;
  pieces.push(raw.slice(copied));
  return { text: pieces.join(''), rawSpan: (start, end) => [rawStart(escapes, start), rawEnd(escapes, end - 1)] };
}

/** The last escape at or before the view's byte `index`, by binary search. */
function escapeBefore(escapes: readonly Escape[], index: number): Escape | undefined {
  let low = 0;
  let high = escapes.length - 1;
  let found: Escape | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (escapes[middle]!.at <= index) {
      found = escapes[middle];
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** Where the view's byte `index` starts in the raw text. */
function rawStart(escapes: readonly Escape[], index: number): number {
  const escape = escapeBefore(escapes, index);
  if (!escape) return index;
  return index < escape.at + escape.length ? escape.from : escape.to + (index - escape.at - escape.length);
}

/** Where the view's byte `index` ends in the raw text. */
function rawEnd(escapes: readonly Escape[], index: number): number {
  const escape = escapeBefore(escapes, index);
  if (!escape) return index + 1;
  return index < escape.at + escape.length ? escape.to : escape.to + (index - escape.at - escape.length) + 1;
}

/** The raw text itself, and each view of it with one kind of escape undone. */
export function decodedViews(raw: string): DecodedView[] {
  const plain: DecodedView = { text: raw, rawSpan: (start, end) => [start, end] };
  const decoded = [decodedView(raw, '\\', jsonEscape), decodedView(raw, '%', percentEscape), decodedView(raw, '&', htmlReference)];
  return [plain, ...decoded.filter((view) => view !== undefined)];
}
