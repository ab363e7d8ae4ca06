/**
 * The characters of text from an agent or a file that no output shows as they are, and the two
 * ways of showing them: as a JavaScript escape for people (`printable`, the terminal and CI logs),
 * and as a JSON escape inside a JSON text (`jsonPrintable`, the body of a reproduce line, which
 * then sends the very same value). Every output's own escape is in report/escape.ts.
 */

/**
 * What an agent's text may hold that a reader must not have obeyed, shown as an escape instead:
 * control characters (escape sequences; line breaks that would start a fake `::error` line), the
 * line and paragraph separators, and every default-ignorable code point: bidi controls (U+202E
 * turns what follows around), zero-width characters (U+200B hides a break inside a word), fillers
 * and tag characters. Kept as they are, because they draw as one sign: variation selectors (a red
 * heart's U+FE0F), a zero-width joiner between two pictographs (woman, ZWJ, laptop: a technologist),
 * and the tags after a black flag (the flag of Scotland).
 */
const ESCAPED = new RegExp(
  [
    '[\\p{Cc}\\u2028\\u2029]',
    '(?<!\\p{Extended_Pictographic}[\\u{1F3FB}-\\u{1F3FF}\\uFE0F]?)\\u200D',
    '\\u200D(?!\\p{Extended_Pictographic})',
    // (A flag's tags are a handful: the look back is bounded, so a long run of tags takes linear time.)
    '(?<!\\u{1F3F4}[\\u{E0020}-\\u{E007E}]{0,32})[\\u{E0000}-\\u{E007F}]',
    '(?![\\u200D\\uFE00-\\uFE0F\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}])\\p{Default_Ignorable_Code_Point}',
  ].join('|'),
  'gu',
);

/** `\u202e`, `\u{e0041}`: a code point as a JavaScript escape. */
function escaped(char: string): string {
  const point = char.codePointAt(0)!;
  return point > 0xffff ? `\\u{${point.toString(16)}}` : `\\u${point.toString(16).padStart(4, '0')}`;
}

/** Text from the agent made safe for a terminal, a CI log or a step summary: what would move, hide or run shown as escapes (ESCAPED). */
export function printable(text: string): string {
  return text.replace(ESCAPED, escaped);
}

/** `\u202e`, `\ud83d\ude00`: a code point as JSON writes it, as UTF-16 code units. */
function jsonEscaped(char: string): string {
  return [...Array(char.length).keys()].map((at) => `\\u${char.charCodeAt(at).toString(16).padStart(4, '0')}`).join('');
}

/**
 * A JSON text with the characters of ESCAPED written as JSON escapes (`\u202e`): the same value to
 * any JSON reader, and nothing that moves, hides or runs on a terminal. ESCAPED's characters are
 * never JSON's own syntax (its whitespace is four ASCII characters, which JSON.stringify writes
 * escaped inside strings anyway), so only string contents change.
 */
export function jsonPrintable(json: string): string {
  return json.replace(ESCAPED, (char) => (/^[\t\n\r ]$/.test(char) ? char : jsonEscaped(char)));
}
