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
const GSM7_BASIC = new Set(
  Array.from(
    '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
  ),
);
const GSM7_EXTENSION = new Set(Array.from('\f^{}\\[~]|€'));

/**
 * How many SMS segments a text needs, and in which encoding. A text of GSM-7 characters only is
 * sent as GSM-7 (an extension character takes two septets); any other character makes the whole
 * text UCS-2 (UTF-16 code units; an astral character takes two). Concatenated parts never split an
 * escape sequence or a surrogate pair.
 */
export function smsSegments(text: string, sizes: { gsm7: SegmentSize; ucs2: SegmentSize }): SmsSegmentation {
  const chars = Array.from(text);
  const gsm7 = chars.every((char) => GSM7_BASIC.has(char) || GSM7_EXTENSION.has(char));
  const encoding: SmsEncoding = gsm7 ? 'GSM-7' : 'UCS-2';
  const size = gsm7 ? sizes.gsm7 : sizes.ucs2;
  const costs = chars.map((char) => (gsm7 ? (GSM7_EXTENSION.has(char) ? 2 : 1) : char.length));
  const total = costs.reduce((sum, cost) => sum + cost, 0);
  if (total <= size.single) return { encoding, segments: total === 0 ? 0 : 1 };
  let segments = 1;
  let used = 0;
  for (const cost of costs) {
    if (used + cost > size.concatenated) {
      segments++;
      used = 0;
    }
    used += cost;
  }
  return { encoding, segments };
}
