/**
 * What the build does to its JavaScript after esbuild: every character outside ASCII becomes a
 * `\uXXXX` escape (an astral one, its two surrogates). esbuild's `charset: 'ascii'` escapes strings
 * and identifiers but leaves regular expression and template literals as written; V8 keeps a
 * source with a single character past 0x7F as a two-byte string, twice the memory and slower to
 * scan on every start.
 *
 * Where such a character can stand in the bundle, its escape means the same: in a string, a
 * template's cooked text (no tag here reads `.raw`), a regular expression (in `u` mode a pair of
 * surrogate escapes is the one code point) and a comment. A character written with an identity
 * escape (`\•`) loses that backslash, since `\\u2022` would be a backslash and the text `u2022`.
 */
export function escapeNonAscii(source: string): string {
  return source.replace(/(\\*)([^\0-\x7f])/g, (_whole, backslashes: string, character: string) => {
    const kept = backslashes.length % 2 === 1 ? backslashes.slice(1) : backslashes;
    return `${kept}\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  });
}
