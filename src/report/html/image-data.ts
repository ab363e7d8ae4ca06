import { base64DecodedLength } from '../../platforms/counting.js';
import { clip } from './values.js';

/**
 * The raster types this page draws from a data: URL, each by the bytes its files start with (SVG
 * is left out: it is a document, not a picture). Bytes of another type than the mime claims are
 * not put into the page: a browser draws them as a broken image, and no platform shows them either.
 */
const DRAWN_TYPES: ReadonlyMap<string, { name: string; type: string; starts: (bytes: Uint8Array) => boolean }> = new Map(
  Object.entries({
    'image/png': { name: 'PNG', type: 'image/png', starts: startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
    'image/jpeg': { name: 'JPEG', type: 'image/jpeg', starts: startsWith([0xff, 0xd8, 0xff]) },
    'image/jpg': { name: 'JPEG', type: 'image/jpeg', starts: startsWith([0xff, 0xd8, 0xff]) },
    'image/gif': {
      name: 'GIF',
      type: 'image/gif',
      starts: (bytes) => startsWith(ascii('GIF87a'))(bytes) || startsWith(ascii('GIF89a'))(bytes),
    },
    'image/webp': {
      name: 'WebP',
      type: 'image/webp',
      starts: (bytes) => startsWith(ascii('RIFF'))(bytes) && startsWith(ascii('WEBP'))(bytes.subarray(8)),
    },
  }),
);

function ascii(text: string): number[] {
  return Array.from(text, (char) => char.charCodeAt(0));
}

function startsWith(signature: readonly number[]): (bytes: Uint8Array) => boolean {
  return (bytes) => signature.every((byte, index) => bytes[index] === byte);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Data URLs above this size are not drawn (the contract's largest image is 10 MiB, about 14 MB of base64). */
const MAX_DATA_CHARS = 15 * 1024 * 1024;
/** Base64 characters enough for the longest signature above (12 bytes). */
const SIGNATURE_CHARS = 16;

/** Image data as this page shows it: drawn from a data: URL, or why it is not (`that is not a PNG`) and its size. */
export type ImageData = { drawn: true; url: string } | { drawn: false; why: string; bytes: number };

/**
 * Base64 image bytes as this page can show them, or undefined when the mime or the data is not a
 * string or the data is not base64 (the schema says so: such bytes are never put into the page).
 * Drawn only when the bytes start as the type the mime claims does (PNG, JPEG, GIF, WebP).
 */
export function imageData(mime: unknown, data: unknown): ImageData | undefined {
  if (typeof mime !== 'string' || typeof data !== 'string') return undefined;
  if (data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) return undefined;
  const bytes = base64DecodedLength(data);
  const claimed = DRAWN_TYPES.get(mime.trim().toLowerCase());
  if (!claimed) return { drawn: false, why: `of type ${clipped(mime)}`, bytes };
  if (data.length > MAX_DATA_CHARS) return { drawn: false, why: 'too large for this page', bytes };
  if (!claimed.starts(Buffer.from(data.slice(0, SIGNATURE_CHARS), 'base64'))) {
    return { drawn: false, why: `that is not a ${claimed.name}`, bytes };
  }
  return { drawn: true, url: `data:${claimed.type};base64,${data}` };
}

function clipped(mime: string): string {
  const { shown, hidden } = clip(mime, 60);
  return hidden ? `${shown}…` : shown;
}

/** A data: URL for image bytes this page draws (see imageData), else undefined. */
export function imageDataUrl(mime: unknown, data: unknown): string | undefined {
  const image = imageData(mime, data);
  return image?.drawn ? image.url : undefined;
}
