/**
 * The ways an answer's bytes can be read once their escapes are undone: JSON's `\uXXXX` and `\n`,
 * percent-encoding's `%2B` (either case of hex), HTML's `&#115;`, `&#x73;` and `&plus;`. A secret
 * may be written in any mix of escaped and plain characters, which no list of encoded forms could
 * hold; in the view with the escapes undone it reads plain. Each view keeps where its escapes came
 * from, so a secret found in it is cut out of the bytes as they came, escapes and all.
 *
 * A decoded escape is the UTF-8 bytes of its character, as the secret's own bytes are. A view is
 * never longer than the bytes it reads (no escape decodes to more bytes than it is written in), and
 * it keeps four numbers per escape: linear in the body, whatever the body holds.
 */

/** The most raw bytes one decoded byte can be written in: `&#0000115;`, an HTML reference padded to its 7 digits. */
export const WIDEST_ESCAPE = 10;

export interface DecodedView {
  /** The bytes with the view's escapes undone. */
  bytes: Buffer;
  /** The raw bytes that the view's bytes `start` to `end` (not included) came from. */
  rawSpan(start: number, end: number): [number, number];
}

/** Where one escape was written, and what it decoded to: written by a decoder, read by the view it builds. */
interface Decoded {
  /** Where the escape ends in the raw bytes. */
  end: number;
  /** How many bytes it decoded to. */
  length: number;
}

/** Undoes an escape that starts at `at` (its mark), writing its bytes into `out` at `outAt`; undefined when none starts there. */
type Decoder = (raw: Buffer, at: number, out: Buffer, outAt: number) => Decoded | undefined;

const BACKSLASH = 0x5c;
const PERCENT = 0x25;
const AMPERSAND = 0x26;
const SEMICOLON = 0x3b;
const HASH = 0x23;

/** The value of a hex digit's byte, or -1. */
function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x41 + 10;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  return -1;
}

/** The number written in `count` hex digits at `at`, or -1. */
function hexNumber(raw: Buffer, at: number, count: number): number {
  let value = 0;
  for (let index = 0; index < count; index++) {
    const digit = hexValue(raw[at + index]);
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** Writes a character's UTF-8 bytes (a lone surrogate as U+FFFD, as Buffer.from writes it); returns how many. */
function writeUtf8(codePoint: number, out: Buffer, at: number): number {
  const code = codePoint >= 0xd800 && codePoint <= 0xdfff ? 0xfffd : codePoint;
  if (code < 0x80) {
    out[at] = code;
    return 1;
  }
  if (code < 0x800) {
    out[at] = 0xc0 | (code >> 6);
    out[at + 1] = 0x80 | (code & 0x3f);
    return 2;
  }
  if (code < 0x10000) {
    out[at] = 0xe0 | (code >> 12);
    out[at + 1] = 0x80 | ((code >> 6) & 0x3f);
    out[at + 2] = 0x80 | (code & 0x3f);
    return 3;
  }
  out[at] = 0xf0 | (code >> 18);
  out[at + 1] = 0x80 | ((code >> 12) & 0x3f);
  out[at + 2] = 0x80 | ((code >> 6) & 0x3f);
  out[at + 3] = 0x80 | (code & 0x3f);
  return 4;
}

/** JSON's one-character escapes, by the byte after the backslash. */
const JSON_ESCAPES = new Map<number, number>(
  [
    ['"', '"'],
    ['\\', '\\'],
    ['/', '/'],
    ['b', '\b'],
    ['f', '\f'],
    ['n', '\n'],
    ['r', '\r'],
    ['t', '\t'],
  ].map(([escape, character]) => [escape!.charCodeAt(0), character!.charCodeAt(0)]),
);
const LETTER_U = 0x75;

/** A JSON string's escape: `\"`, `\n`, `\u0073`, a surrogate pair `\uD83D\uDE00` as one character. */
const jsonEscape: Decoder = (raw, at, out, outAt) => {
  const kind = raw[at + 1];
  const single = kind === undefined ? undefined : JSON_ESCAPES.get(kind);
  if (single !== undefined) {
    out[outAt] = single;
    return { end: at + 2, length: 1 };
  }
  const unit = kind === LETTER_U ? hexNumber(raw, at + 2, 4) : -1;
  if (unit < 0) return undefined;
  if (unit >= 0xd800 && unit <= 0xdbff && raw[at + 6] === BACKSLASH && raw[at + 7] === LETTER_U) {
    const low = hexNumber(raw, at + 8, 4);
    if (low >= 0xdc00 && low <= 0xdfff) {
      return { end: at + 12, length: writeUtf8(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00), out, outAt) };
    }
  }
  return { end: at + 6, length: writeUtf8(unit, out, outAt) };
};

/** Percent-encoding's `%XX`: one byte, upper or lower case hex. */
const percentEscape: Decoder = (raw, at, out, outAt) => {
  const byte = hexNumber(raw, at + 1, 2);
  if (byte < 0) return undefined;
  out[outAt] = byte;
  return { end: at + 3, length: 1 };
};

/** HTML's named references for the characters a token or key is made of (and the few every page uses). */
const NAMED_REFERENCES: Record<string, number> = {
  amp: 0x26,
  lt: 0x3c,
  gt: 0x3e,
  quot: 0x22,
  apos: 0x27,
  nbsp: 0xa0,
  excl: 0x21,
  num: 0x23,
  dollar: 0x24,
  percnt: 0x25,
  lpar: 0x28,
  rpar: 0x29,
  ast: 0x2a,
  plus: 0x2b,
  comma: 0x2c,
  period: 0x2e,
  sol: 0x2f,
  colon: 0x3a,
  semi: 0x3b,
  equals: 0x3d,
  quest: 0x3f,
  commat: 0x40,
  lsqb: 0x5b,
  bsol: 0x5c,
  rsqb: 0x5d,
  hat: 0x5e,
  lowbar: 0x5f,
  grave: 0x60,
  lcub: 0x7b,
  verbar: 0x7c,
  vert: 0x7c,
  rcub: 0x7d,
};
const LONGEST_NAME = 8;

/** An HTML character reference: `&#115;`, `&#x73;` (the `;` may be left out, as browsers allow), `&plus;`. */
const htmlReference: Decoder = (raw, at, out, outAt) => {
  if (raw[at + 1] === HASH) {
    const hex = raw[at + 2] === 0x78 || raw[at + 2] === 0x58; // x or X
    let index = at + (hex ? 3 : 2);
    let codePoint = 0;
    const first = index;
    for (; index - first < (hex ? 6 : 7); index++) {
      const digit = hex ? hexValue(raw[index]) : raw[index]! >= 0x30 && raw[index]! <= 0x39 ? raw[index]! - 0x30 : -1;
      if (digit < 0) break;
      codePoint = codePoint * (hex ? 16 : 10) + digit;
    }
    if (index === first || codePoint === 0 || codePoint > 0x10ffff) return undefined;
    return { end: raw[index] === SEMICOLON ? index + 1 : index, length: writeUtf8(codePoint, out, outAt) };
  }
  const semicolon = raw.indexOf(SEMICOLON, at + 1);
  if (semicolon < 0 || semicolon - at - 1 > LONGEST_NAME) return undefined;
  const name = raw.toString('latin1', at + 1, semicolon).toLowerCase();
  const character = Object.hasOwn(NAMED_REFERENCES, name) ? NAMED_REFERENCES[name]! : undefined;
  return character === undefined ? undefined : { end: semicolon + 1, length: writeUtf8(character, out, outAt) };
};

/** Numbers kept per escape: where it starts and ends in the raw bytes, where its bytes start in the view, how many. */
const FROM = 0;
const TO = 1;
const START = 2;
const LENGTH = 3;
const FIELDS = 4;

/** A view's escapes, four numbers each in one table grown as they are found. */
class Escapes {
  count = 0;
  #table = new Int32Array(16 * FIELDS);

  add(from: number, to: number, start: number, length: number): void {
    if ((this.count + 1) * FIELDS > this.#table.length) {
      const larger = new Int32Array(this.#table.length * 2);
      larger.set(this.#table);
      this.#table = larger;
    }
    const at = this.count * FIELDS;
    this.#table[at + FROM] = from;
    this.#table[at + TO] = to;
    this.#table[at + START] = start;
    this.#table[at + LENGTH] = length;
    this.count++;
  }

  #field(escape: number, field: number): number {
    return this.#table[escape * FIELDS + field]!;
  }

  /** The last escape whose bytes start at or before the view's byte `index`, by binary search; -1 when none. */
  #before(index: number): number {
    let low = 0;
    let high = this.count - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (this.#field(middle, START) <= index) {
        found = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found;
  }

  /** The raw span of the view's byte `index`: its escape's, or the one byte it was copied from. */
  rawOf(index: number): [number, number] {
    const escape = this.#before(index);
    if (escape < 0) return [index, index + 1];
    const after = index - this.#field(escape, START) - this.#field(escape, LENGTH);
    const to = this.#field(escape, TO);
    return after < 0 ? [this.#field(escape, FROM), to] : [to + after, to + after + 1];
  }
}

/** The view with every escape that starts with `mark` undone; undefined when the bytes hold none. */
function decodedView(raw: Buffer, mark: number, decode: Decoder): DecodedView | undefined {
  if (raw.indexOf(mark) < 0) return undefined;
  const out = Buffer.allocUnsafe(raw.length);
  const escapes = new Escapes();
  let length = 0;
  for (let at = 0; at < raw.length;) {
    const byte = raw[at]!;
    const escape = byte === mark ? decode(raw, at, out, length) : undefined;
    if (escape) {
      escapes.add(at, escape.end, length, escape.length);
      length += escape.length;
      at = escape.end;
    } else {
      out[length++] = byte;
      at++;
    }
  }
  if (escapes.count === 0) return undefined;
  return { bytes: out.subarray(0, length), rawSpan: (start, end) => [escapes.rawOf(start)[0], escapes.rawOf(end - 1)[1]] };
}

/** The raw bytes themselves, and each view of them with one kind of escape undone. */
export function decodedViews(raw: Buffer): DecodedView[] {
  const plain: DecodedView = { bytes: raw, rawSpan: (start, end) => [start, end] };
  const decoded = [
    decodedView(raw, BACKSLASH, jsonEscape),
    decodedView(raw, PERCENT, percentEscape),
    decodedView(raw, AMPERSAND, htmlReference),
  ];
  return [plain, ...decoded.filter((view) => view !== undefined)];
}
