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
