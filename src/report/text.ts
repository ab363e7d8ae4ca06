/** Small text helpers of the human outputs: what the report's text is made of. */

/** The reply a finding's pointer names, from an answer body, or undefined. */
export function replyOf(answer: unknown, path: string): unknown {
  const match = /^\/replies\/(\d+)(?:\/|$)/.exec(path);
  const replies = (answer as { replies?: unknown } | null)?.replies;
  return match && Array.isArray(replies) ? replies[Number(match[1])] : undefined;
}

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
    '(?<!\\u{1F3F4}[\\u{E0020}-\\u{E007E}]*)[\\u{E0000}-\\u{E007F}]',
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

/** `turn 2`, `turns 1 and 3`, `turns 1, 2 and 5`: where a finding came, counted from 1. */
export function turnsText(turns: readonly number[]): string {
  const numbers = turns.map((turn) => String(turn + 1));
  if (numbers.length === 1) return `turn ${numbers[0]}`;
  // A run of many turns (quality/malformed's 44 invalid requests) as ranges: `turns 2–45`.
  if (numbers.length > MAX_LISTED_TURNS) return `turns ${ranges(turns.map((turn) => turn + 1))}`;
  return `turns ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}

/** Turns a list names one by one at most; more are named as ranges. */
const MAX_LISTED_TURNS = 4;

/** `1–3, 5, 7–9`: numbers as ranges. */
export function ranges(numbers: readonly number[]): string {
  const sorted = [...numbers].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let start = 0; start < sorted.length;) {
    let end = start;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    parts.push(end > start ? `${sorted[start]}–${sorted[end]}` : String(sorted[start]));
    start = end + 1;
  }
  return parts.join(', ');
}
