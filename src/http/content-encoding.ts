/**
 * Answer bodies as sent with `content-encoding`: each coding undone in the reverse of the order it
 * was applied (`gzip, br` is gzip first, then brotli, so brotli is undone first), the decoded
 * size held to the body limit at every step (a compression bomb stops there).
 */
import { createRequire } from 'node:module';
import type zlib from 'node:zlib';

/** What the checker asks for (`accept-encoding`) and can undo. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

const KNOWN = new Set(['identity', 'gzip', 'x-gzip', 'deflate', 'br']);

export type DecodedBody = { ok: true; body: Buffer } | { ok: false; kind: 'too-large' | 'undecodable'; message: string };

/** The codings a content-encoding header names, in the order they were applied. */
export function contentCodings(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '');
}

function tooLarge(cause: unknown): boolean {
  return (cause as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || cause instanceof RangeError;
}

/** The body with every coding undone, or why it cannot be: an unknown coding, a corrupt one, or over `maxBytes` decoded. */
export function decodeBody(header: string | undefined, body: Buffer, maxBytes: number): DecodedBody {
  // No body (a HEAD answer, a 204) has nothing to decode, whatever the header says.
  if (body.length === 0) return { ok: true, body };
  const codings = contentCodings(header);
  const unknown = codings.filter((coding) => !KNOWN.has(coding));
  if (unknown.length > 0) {
    const names = unknown.map((coding) => `"${coding.slice(0, 40)}"`).join(', ');
    return {
      ok: false,
      kind: 'undecodable',
      message: `the body is sent with content-encoding ${names}, which the checker cannot decode (it asks for ${ACCEPTED_ENCODINGS})`,
    };
  }
  if (codings.every((coding) => coding === 'identity')) return { ok: true, body };
  // node:zlib is loaded only for a compressed answer.
  const { brotliDecompressSync, gunzipSync, inflateSync, inflateRawSync } = createRequire(import.meta.url)('node:zlib') as typeof zlib;
  const options = { maxOutputLength: maxBytes };
  let decoded = body;
  for (const coding of codings.toReversed()) {
    try {
      if (coding === 'br') decoded = brotliDecompressSync(decoded, options);
      else if (coding === 'gzip' || coding === 'x-gzip') decoded = gunzipSync(decoded, options);
      else if (coding === 'deflate') {
        // RFC 9110's deflate is zlib-wrapped; some servers send it raw.
        try {
          decoded = inflateSync(decoded, options);
        } catch (cause) {
          if (tooLarge(cause)) throw cause;
          decoded = inflateRawSync(decoded, options);
        }
      }
    } catch (cause) {
      if (tooLarge(cause)) {
        return { ok: false, kind: 'too-large', message: `the body is larger than ${maxBytes} bytes once decoded (${codings.join(', ')})` };
      }
      const stacked = codings.length > 1 ? ` (content-encoding ${codings.join(', ')}, undone last to first)` : '';
      return { ok: false, kind: 'undecodable', message: `the body does not decode as ${coding}${stacked}` };
    }
  }
  return { ok: true, body: decoded };
}
