/** How a platform counts the length of a text. */
export type CountingUnit = 'codepoints' | 'utf16';

const UNIT_NAMES: Record<CountingUnit, string> = {
  codepoints: 'characters (Unicode code points)',
  utf16: 'UTF-16 code units',
};

/** The length of a text in a platform's unit. */
export function lengthIn(text: string, unit: CountingUnit): number {
  return unit === 'utf16' ? text.length : codePointLength(text);
}

/** Code points in a text, as iterating it counts them: a surrogate pair is one, and so is a lone surrogate. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function unitName(unit: CountingUnit): string {
  return UNIT_NAMES[unit];
}

export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

let graphemeSegmenter: Intl.Segmenter | undefined;

/** The user-perceived characters of a text (extended grapheme clusters). */
export function graphemes(text: string): string[] {
  graphemeSegmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  return Array.from(graphemeSegmenter.segment(text), (part) => part.segment);
}

/** The number of bytes a padded base64 string decodes to. */
export function base64DecodedLength(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}
