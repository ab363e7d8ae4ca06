/**
 * SMS as Twilio counts it: GSM-7 when every character is in GSM 03.38 (an extension character takes
 * two septets, its escape and itself), UCS-2 otherwise (UTF-16 code units: an emoji outside the
 * BMP takes two). The 1600 limit counts that encoded length; a longer text is sent in parts, which
 * break only between graphemes, as Twilio's segment calculator and Android do.
 */
import { graphemes } from './graphemes.js';

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SegmentSize {
  single: number;
  concatenated: number;
}

export interface SmsSegmentation {
  encoding: SmsEncoding;
  segments: number;
}

// GSM 03.38 basic character set, and the extension table reached by an escape (2 septets each).
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '\f^{}\\[~]|€';

/** Septets per UTF-16 code unit: 1 basic, 2 extension, 0 not GSM-7. Every GSM-7 character is one code unit. */
const SEPTETS = new Uint8Array(0x10000);
for (const char of GSM7_BASIC) SEPTETS[char.charCodeAt(0)] = 1;
for (const char of GSM7_EXTENSION) SEPTETS[char.charCodeAt(0)] = 2;

/** The septets a text takes in GSM-7, or undefined when a character is not in GSM-7. */
function gsm7Septets(text: string): number | undefined {
  let septets = 0;
  for (let index = 0; index < text.length; index++) {
    const cost = SEPTETS[text.charCodeAt(index)]!;
    if (cost === 0) return undefined;
    septets += cost;
  }
  return septets;
}

/** A text's encoded length, as Twilio's 1600 limit counts it: GSM-7 septets, or UCS-2 code units. */
export function smsLength(text: string): { encoding: SmsEncoding; length: number } {
  const septets = gsm7Septets(text);
  return septets === undefined ? { encoding: 'UCS-2', length: text.length } : { encoding: 'GSM-7', length: septets };
}

/**
 * The units a part is packed with, in order: for GSM-7, each character (every GSM-7 grapheme is one
 * character, but for CR LF); for UCS-2, each grapheme. CR LF is two, as Twilio's calculator splits
 * it. A grapheme longer than a whole part (hundreds of combining marks) is split between its code
 * points, which no part can hold otherwise.
 */
function packingUnits(text: string, gsm7: boolean, partSize: number): string[] {
  if (gsm7) return text.split('');
  return graphemes(text).flatMap((grapheme) =>
    grapheme === '\r\n' ? ['\r', '\n'] : grapheme.length > partSize ? Array.from(grapheme) : [grapheme],
  );
}

/**
 * How many SMS segments a text needs, and in which encoding. A text that fits one segment is one;
 * a longer one is sent in concatenated parts, filled in order, each part ending between two
 * graphemes (an escape sequence, a surrogate pair, a combining sequence, a ZWJ emoji or a flag
 * never straddles two parts).
 */
export function smsSegments(text: string, sizes: { gsm7: SegmentSize; ucs2: SegmentSize }): SmsSegmentation {
  const { encoding, length } = smsLength(text);
  const gsm7 = encoding === 'GSM-7';
  const size = gsm7 ? sizes.gsm7 : sizes.ucs2;
  if (length <= size.single) return { encoding, segments: length === 0 ? 0 : 1 };
  let segments = 1;
  let used = 0;
  for (const unit of packingUnits(text, gsm7, size.concatenated)) {
    const cost = gsm7 ? SEPTETS[unit.charCodeAt(0)]! : unit.length;
    if (used + cost > size.concatenated) {
      segments++;
      used = 0;
    }
    used += cost;
  }
  return { encoding, segments };
}

/** A character outside GSM-7, where it stands: its 1-based position in characters (code points), as people count. */
export interface NonGsm7Character {
  character: string;
  codePoint: number;
  position: number;
}

/** The first `max` characters of a text outside GSM-7 (each of which makes the whole text UCS-2), and how many there are in all. */
export function charactersOutsideGsm7(text: string, max: number): { first: NonGsm7Character[]; count: number } {
  const first: NonGsm7Character[] = [];
  let count = 0;
  let position = 0;
  for (const character of text) {
    position++;
    if (character.length === 1 && SEPTETS[character.charCodeAt(0)] !== 0) continue;
    count++;
    if (first.length < max) first.push({ character, codePoint: character.codePointAt(0)!, position });
  }
  return { first, count };
}

/** Whether a character is in GSM-7 (its basic set or its extension table). */
export function isGsm7(character: string): boolean {
  return character.length === 1 && SEPTETS[character.charCodeAt(0)] !== 0;
}
