/**
 * The formats the answer schema names beyond JSON Schema's own: `uri` (an absolute URI as RFC 3986
 * says that the WHATWG URL parser also takes) and `emoji` (exactly one emoji). Below contract/ and
 * the build's generated validators, which both refer to them.
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

/** RFC 3986 (ajv-formats' `uri`, answered sooner for plain http(s) URLs). */
export function isRfc3986Uri(text: string): boolean {
  return PLAIN_HTTP_URL.test(text) || rfc3986Uri(text);
}

/**
 * The `uri` format: an absolute URI as RFC 3986 says, that the WHATWG URL parser (browsers, Node's
 * `new URL`) takes too. RFC 3986 allows a port of any digits and a host `example.com:abc` (as a
 * reg-name it may not be, but its grammar lets it through); browsers refuse a port of letters or
 * over 65535, an IPv4 address with a part over 255, and so would the platform that opens the link.
 */
export function isUri(text: string): boolean {
  return isRfc3986Uri(text) && URL.canParse(text);
}

/** The port of an absolute URL with an authority (`abc` in `https://example.com:abc/`), or undefined. */
const AUTHORITY_PORT = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(?:\[[^\]/?#]*\]|[^:/?#]*):([^/?#]*)/i;

/**
 * Why a URL that RFC 3986 takes is refused by the WHATWG URL parser, in words for a hint; undefined
 * for a URL both take, or one RFC 3986 refuses already.
 */
export function whyBrowsersRefuse(text: string): string | undefined {
  if (!isRfc3986Uri(text) || URL.canParse(text)) return undefined;
  const port = AUTHORITY_PORT.exec(text)?.[1];
  if (port !== undefined && !(/^\d+$/.test(port) && Number(port) <= 65535)) {
    return `its port ${JSON.stringify(port)} is not a number from 0 to 65535`;
  }
  return 'its host is not one a browser takes (an IPv4 address has four parts of at most 255)';
}

/** For the subset test: does the small expression alone accept it? */
export function isPlainHttpUrl(text: string): boolean {
  return PLAIN_HTTP_URL.test(text);
}

/** The `emoji` format of the response schema: exactly one emoji sequence Unicode lists (platforms/emoji.ts). */
export const EMOJI_FORMAT = { type: 'string', validate: isSingleEmoji } as const;

/** The formats the build's standalone answer validator refers to, as `formats.<name>`. */
export const standaloneFormats = { uri: isUri, emoji: EMOJI_FORMAT };
