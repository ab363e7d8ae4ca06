/**
 * The formats the answer schema names beyond JSON Schema's own: `uri` (answered sooner for plain
 * http(s) URLs) and `emoji` (exactly one emoji). Below contract/ and the build's generated
 * validators, which both refer to them.
 */
import { isSingleEmoji } from '../platforms/emoji.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';

/** ajv-formats' `uri` (RFC 3986, absolute): one regular expression so large that compiling it costs milliseconds. */
const rfc3986Uri = fullFormats.uri as (text: string) => boolean;

/**
 * A plain http or https URL: a host of unreserved characters, a port, then path, query and
 * fragment exactly as RFC 3986 allows them. Every string it accepts is an absolute URI, so
 * `rfc3986Uri` would accept it too (a test holds that): most links and image URLs are answered by
 * this small expression, and the large one is compiled only for the rest.
 */
const PLAIN_HTTP_URL =
  /^https?:\/\/[a-z0-9\-._~]+(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

/** The `uri` format: true exactly where ajv-formats' is, cheaper for plain http(s) URLs. */
export function isUri(text: string): boolean {
  return PLAIN_HTTP_URL.test(text) || rfc3986Uri(text);
}

/** For the subset test: does the small expression alone accept it? */
export function isPlainHttpUrl(text: string): boolean {
  return PLAIN_HTTP_URL.test(text);
}

/** The `emoji` format of the response schema: exactly one sequence of Unicode's emoji-test.txt (platforms/emoji.ts). */
export const EMOJI_FORMAT = { type: 'string', validate: isSingleEmoji } as const;

/** The formats the build's standalone answer validator refers to, as `formats.<name>`. */
export const standaloneFormats = { uri: isUri, emoji: EMOJI_FORMAT };
