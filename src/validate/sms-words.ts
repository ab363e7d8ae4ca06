/**
 * The words of the SMS segment warning: how many segments, in which encoding, the characters
 * outside GSM-7 that made a text UCS-2 (the first few, where they stand), what fits in one
 * segment, and the carriers' ceiling, every figure from the channel's limits.
 */
import { excerpt } from '../core/findings.js';
import { type SegmentSize, type SmsSegmentation, charactersOutsideGsm7, isGsm7 } from '../platforms/sms-segments.js';

/** Characters outside GSM-7 named in a message at most. */
const NAMED_CHARACTERS = 4;

/** Plain GSM-7 stand-ins for the characters language models write most often outside GSM-7. */
const STAND_INS: Readonly<Record<string, string>> = {
  '\u2014': '-',
  '\u2013': '-',
  '\u2019': "'",
  '\u2018': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u2026': '...',
  '\u00A0': ' ',
  '\u2022': '-',
};

export interface SmsWords {
  text: string;
  segmentation: SmsSegmentation;
  sizes: { gsm7: SegmentSize; ucs2: SegmentSize };
  /** The platform's text limit (SMS: 1600, as carriers take), if it gives one. */
  maxLength: number | undefined;
}

/** `U+2014`. */
function codePointName(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `"—" U+2014 at 52, "’" U+2019 at 90`, and how many more. */
function causes(text: string): string {
  const { first, count } = charactersOutsideGsm7(text, NAMED_CHARACTERS);
  const named = first
    .map(({ character, codePoint, position }) => `${excerpt(character)} ${codePointName(codePoint)} at ${position}`)
    .join(', ');
  const more = count > first.length ? `, and ${count - first.length} more` : '';
  return `${count === 1 ? 'one character' : `${count} characters`} outside GSM-7 made it UCS-2: ${named}${more}`;
}

export function smsSegmentMessage({ text, segmentation, sizes }: SmsWords): string {
  const { encoding, segments } = segmentation;
  const size = encoding === 'GSM-7' ? sizes.gsm7 : sizes.ucs2;
  const why = encoding === 'UCS-2' ? `; ${causes(text)}` : '';
  return `the text needs ${segments} SMS segments in ${encoding} (one segment holds ${size.single} ${encoding} characters, each part of a longer message ${size.concatenated})${why}`;
}

export function smsSegmentHint({ text, segmentation, sizes, maxLength }: SmsWords): string {
  const ceiling = maxLength === undefined ? '' : ` Carriers take at most ${maxLength} characters a message, however many segments.`;
  const target = `Aim for one segment: ${sizes.gsm7.single} GSM-7 characters, or only ${sizes.ucs2.single} once one character outside GSM-7 makes the whole text UCS-2.`;
  if (segmentation.encoding === 'GSM-7') return `${target}${ceiling}`;
  const seen = [...new Set(charactersOutsideGsm7(text, 50).first.map(({ character }) => character))];
  const swaps = seen
    .filter((character) => STAND_INS[character] !== undefined && [...STAND_INS[character]!].every(isGsm7))
    .map((character) => `${character} → ${STAND_INS[character]}`);
  const swap = swaps.length
    ? ` Write plain characters instead (${swaps.join(', ')}), and leave out emoji.`
    : ' Leave out emoji and other characters outside GSM-7.';
  return `${target}${swap}${ceiling}`;
}
