import type { LimitCount } from '../core/findings.js';
import { smsLength } from './sms-segments.js';

/**
 * How a platform counts the length of a text: Unicode code points, UTF-16 code units (Telegram),
 * or as SMS is billed and limited (`sms`: GSM-7 septets, or UCS-2 code units when a character is
 * not in GSM-7).
 */
export type CountingUnit = 'codepoints' | 'utf16' | 'sms';

/** The length of a text in a platform's unit. */
export function lengthIn(text: string, unit: CountingUnit): number {
  if (unit === 'utf16') return text.length;
  if (unit === 'sms') return smsLength(text).length;
  return codePointLength(text);
}

/**
 * The most a text can measure in a unit, without counting: its UTF-16 length (never fewer code
 * points), or twice that in SMS (an extension character is two septets). A text whose bound is
 * within a limit is within it.
 */
export function lengthBound(text: string, unit: CountingUnit): number {
  return unit === 'sms' ? 2 * text.length : text.length;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Code points in a text: its UTF-16 length less one for each surrogate pair (a lone surrogate counts as one, as in `for...of`). */
export function codePointLength(text: string): number {
  // Most texts hold no surrogate at all: a regular expression finds that out faster than a loop.
  if (!SURROGATE.test(text)) return text.length;
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** A length with its unit, for messages: `4097 characters (Unicode code points) long`, `1601 GSM-7 septets long (…)`. */
export function describeLength(text: string, unit: CountingUnit): string {
  if (unit === 'utf16') return `${text.length} UTF-16 code units long`;
  if (unit === 'codepoints') return `${codePointLength(text)} characters (Unicode code points) long`;
  const { encoding, length } = smsLength(text);
  return encoding === 'GSM-7'
    ? `${length} GSM-7 septets long (an extension character such as { or € takes 2)`
    : `${length} UCS-2 code units long (a character outside GSM-7 makes the whole text UCS-2; an emoji takes 2)`;
}

const UNIT_NAMES: Record<CountingUnit, string> = {
  codepoints: 'characters (Unicode code points)',
  utf16: 'UTF-16 code units',
  sms: 'GSM-7 septets, or UCS-2 code units when a character is outside GSM-7 (as Twilio counts)',
};

/** The counting unit as people say it. */
export function unitName(unit: CountingUnit): string {
  return UNIT_NAMES[unit];
}

export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The number of bytes a padded base64 string decodes to. */
export function base64DecodedLength(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/**
 * Measures slices of one text in a unit: `measure(start, end)` is `lengthIn(text.slice(start, end), unit)`,
 * from prefix counts for code points (one pass over the text, however many slices are measured).
 */
export function sliceMeasure(text: string, unit: CountingUnit): (start: number, end: number) => number {
  if (unit === 'utf16') return (start, end) => end - start;
  if (unit === 'sms') return (start, end) => smsLength(text.slice(start, end)).length;
  // before[i]: code points in text.slice(0, i); a low surrogate after a high one adds none.
  const before = new Uint32Array(text.length + 1);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const pairsWithPrevious = code >= 0xdc00 && code <= 0xdfff && index > 0 && (text.charCodeAt(index - 1) & 0xfc00) === 0xd800;
    before[index + 1] = before[index]! + (pairsWithPrevious ? 0 : 1);
  }
  return (start, end) => before[end]! - before[start]!;
}

/**
 * The unit one text is counted in: its platform's (`codepoints`, `utf16`), an SMS's resolved to the
 * text's encoding (`gsm7-septets`, or `ucs2-code-units` when a character is outside GSM-7).
 */
export type TextCount = Extract<LimitCount, 'codepoints' | 'utf16' | 'gsm7-septets' | 'ucs2-code-units'>;

const TEXT_COUNTS: ReadonlySet<string> = new Set<TextCount>(['codepoints', 'utf16', 'gsm7-septets', 'ucs2-code-units']);

/** Whether a limit counts a text's units (not items, rows, sections or bytes). */
export function isTextCount(counts: unknown): counts is TextCount {
  return typeof counts === 'string' && TEXT_COUNTS.has(counts);
}

/** The platform unit a text unit is counted as: an SMS's encodings are `sms`. */
export function countingUnitOf(counts: TextCount): CountingUnit {
  return counts === 'gsm7-septets' || counts === 'ucs2-code-units' ? 'sms' : counts;
}

/** A text's length in a platform's unit, and the unit it was counted in (an SMS's resolved to its encoding). */
export function measuredLength(text: string, unit: CountingUnit): { counts: TextCount; length: number } {
  if (unit === 'utf16') return { counts: 'utf16', length: text.length };
  if (unit === 'codepoints') return { counts: 'codepoints', length: codePointLength(text) };
  const { encoding, length } = smsLength(text);
  return { counts: encoding === 'GSM-7' ? 'gsm7-septets' : 'ucs2-code-units', length };
}

/**
 * Where a text's first `max` units end, counted in one text unit: the UTF-16 index of the longest
 * prefix within them, cut between code points. Linear.
 */
export function prefixIn(text: string, counts: TextCount, max: number): number {
  let used = 0;
  let end = 0;
  for (const char of text) {
    const cost = counts === 'codepoints' ? 1 : counts === 'gsm7-septets' ? smsLength(char).length : char.length;
    if (used + cost > max) break;
    used += cost;
    end += char.length;
  }
  return end;
}

/**
 * Where a text's first `max` units end, in a platform's unit: the UTF-16 index of the longest
 * prefix within them, cut between code points. On SMS each character counts in the whole text's
 * encoding (a character outside GSM-7 makes it all UCS-2), as the limit judged the whole. Linear.
 */
export function prefixWithin(text: string, unit: CountingUnit, max: number): number {
  const counts: TextCount = unit === 'sms' ? measuredLength(text, unit).counts : unit;
  return prefixIn(text, counts, max);
}
