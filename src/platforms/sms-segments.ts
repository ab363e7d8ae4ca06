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

/** Whether the code unit at `index` starts a surrogate pair (an astral character, two UCS-2 units). */
function isPairStart(text: string, index: number): boolean {
  const unit = text.charCodeAt(index);
  return unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length;
}

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

/**
 * How many SMS segments a text needs, and in which encoding. A text of GSM-7 characters only is
 * sent as GSM-7 (an extension character takes two septets); any other character makes the whole
 * text UCS-2 (UTF-16 code units; an astral character takes two). Concatenated parts never split an
 * escape sequence or a surrogate pair.
 */
export function smsSegments(text: string, sizes: { gsm7: SegmentSize; ucs2: SegmentSize }): SmsSegmentation {
  const septets = gsm7Septets(text);
  const gsm7 = septets !== undefined;
  const encoding: SmsEncoding = gsm7 ? 'GSM-7' : 'UCS-2';
  const size = gsm7 ? sizes.gsm7 : sizes.ucs2;
  const total = septets ?? text.length;
  if (total <= size.single) return { encoding, segments: total === 0 ? 0 : 1 };
  let segments = 1;
  let used = 0;
  for (let index = 0; index < text.length; index++) {
    const pair = !gsm7 && isPairStart(text, index);
    const cost = gsm7 ? SEPTETS[text.charCodeAt(index)]! : pair ? 2 : 1;
    if (used + cost > size.concatenated) {
      segments++;
      used = 0;
    }
    used += cost;
    if (pair) index++;
  }
  return { encoding, segments };
}
