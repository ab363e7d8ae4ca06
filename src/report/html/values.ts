/** Defensive readers for report values that came from an agent: nothing is trusted to have its type. */

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asArray(value: unknown): readonly unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** A text cut to `max` code points: what to show, and how many code points are left out. */
export function clip(text: string, max: number): { shown: string; hidden: number } {
  if (text.length <= max) return { shown: text, hidden: 0 };
  let count = 0;
  let end = 0;
  for (const char of text) {
    if (count === max) break;
    count++;
    end += char.length;
  }
  if (end >= text.length) return { shown: text, hidden: 0 };
  let hidden = 0;
  for (let index = end; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    hidden++;
  }
  return { shown: text.slice(0, end), hidden };
}

/** A number with thousands separators, the same whatever the machine's locale. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function plural(value: number, one: string, many = `${one}s`): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Raster image types a browser draws from a data: URL (SVG is left out: it is a document, not a picture). */
const IMAGE_MIME = /^image\/(?:png|jpeg|jpg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)$/;
/** Data URLs above this size are not drawn (the contract's largest image is 10 MiB, about 14 MB of base64). */
const MAX_DATA_CHARS = 15 * 1024 * 1024;

/**
 * A data: URL for an image sent as base64 bytes, or undefined when the mime is not an image type
 * a browser draws or the data is not base64: such bytes are never put into the page as a URL.
 */
export function imageDataUrl(mime: unknown, data: unknown): string | undefined {
  if (typeof mime !== 'string' || typeof data !== 'string') return undefined;
  const type = mime.trim().toLowerCase();
  if (!IMAGE_MIME.test(type) || data.length === 0 || data.length > MAX_DATA_CHARS || data.length % 4 !== 0 || !BASE64.test(data)) {
    return undefined;
  }
  return `data:${type};base64,${data}`;
}
