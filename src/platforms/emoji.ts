/**
 * One emoji, as the contract defines it (UTS #51): exactly one sequence listed in Unicode's
 * emoji-test.txt (fully qualified, minimally qualified, unqualified or component: `❤`, `❤️`, `1⃣`,
 * `🕵🏻‍♂`, `🏻`) or an emoji presentation sequence of emoji-variation-sequences.txt (`⚡️`, `☕️`).
 * `👍\uFE0F🏽`, `👨\uFE0F‍💻`, `❤\uFE0F\uFE0F` and two emoji in a row are not. The list is Unicode's
 * own data (emoji-data.json, written by test/emoji-data.ts), not rules written here; it is read
 * into a set the first time a reaction is checked, never at start-up.
 */
import emojiData from './emoji-data.json' with { type: 'json' };

let sequences: ReadonlySet<string> | undefined;

/** The listed sequences, read on first use. */
function emojiSequences(): ReadonlySet<string> {
  sequences ??= new Set(emojiData.sequences.split(' '));
  return sequences;
}

/** The Emoji version of the data. */
export const EMOJI_VERSION: string = emojiData.version;

/** True when the text is exactly one listed sequence (of emoji-test.txt, or an emoji presentation sequence). */
export function isSingleEmoji(text: string): boolean {
  // Bounded before the look-up, which hashes the whole text (a hostile reaction may be megabytes).
  if (text.length === 0 || text.length > emojiData.maxLength) return false;
  return emojiSequences().has(text);
}

/** U+FE0F (emoji presentation) and U+FE0E (text presentation). */
const VARIATION_SELECTORS = /[\uFE0E\uFE0F]/g;

/** The emoji without U+FE0F or U+FE0E: `❤️` and `❤` give the same, so a hint can name the listed form. */
export function withoutVariationSelectors(emoji: string): string {
  return emoji.replace(VARIATION_SELECTORS, '');
}

/** The emoji a text is once its variation selectors are left out (`⚡︎` is `⚡`, `👍\uFE0F🏽` is `👍🏽`), or undefined when that is none either. */
export function emojiWithoutVariationSelectors(text: string): string | undefined {
  const bare = withoutVariationSelectors(text);
  return bare !== text && isSingleEmoji(bare) ? bare : undefined;
}
