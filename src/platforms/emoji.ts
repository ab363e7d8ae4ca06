import { graphemes } from './counting.js';

/** One code point that is an RGI emoji by itself: emoji presentation, but not a lone regional indicator. */
export const SINGLE_CODE_POINT_EMOJI = /^(?![\u{1F1E6}-\u{1F1FF}])\p{Emoji_Presentation}$/u;
/** A text-presentation emoji made an emoji by U+FE0F (not a keycap base or a regional indicator). */
export const QUALIFIED_PAIR_EMOJI = /^(?![#*0-9\u{1F1E6}-\u{1F1FF}])(?=\p{Emoji})\P{Emoji_Presentation}\uFE0F$/u;
let rgiEmoji: RegExp | undefined;

/**
 * Whether a text is exactly one RGI emoji, as `^\p{RGI_Emoji}$` with the v flag says. That
 * regular expression takes 0.2 to 0.4 s to build (node 20, measured on the project's 2-core
 * machine) and some 10 µs per test, so the common shapes (one code point, or one and U+FE0F) take
 * the two cheap ones above, which a test proves equal to it over all code points.
 */
export function isRgiEmoji(text: string): boolean {
  const first = text.codePointAt(0);
  if (first === undefined) return false;
  const firstLength = first > 0xffff ? 2 : 1;
  if (text.length === firstLength) return SINGLE_CODE_POINT_EMOJI.test(text);
  if (text.length === firstLength + 1 && text.endsWith('\uFE0F')) return QUALIFIED_PAIR_EMOJI.test(text);
  rgiEmoji ??= new RegExp('^\\p{RGI_Emoji}$', 'v');
  return rgiEmoji.test(text);
}
const VARIATION_SELECTOR_16 = /\uFE0F/g;
/** An emoji character whose default presentation is text: it needs U+FE0F to be fully qualified. */
const TEXT_PRESENTATION_EMOJI = /^(?=\p{Emoji})\P{Emoji_Presentation}$/u;
const NOT_QUALIFIABLE = /^[\p{Emoji_Component}\u200D]$/u;

/** Longer than any RGI emoji (the longest, a family or flag sequence, is under 20 UTF-16 code units). */
const MAX_EMOJI_LENGTH = 64;

/**
 * True when the text is exactly one emoji: one grapheme that is an RGI emoji, fully qualified or
 * not (U+2764 counts as well as U+2764 U+FE0F, as Telegram lists it).
 */
export function isSingleEmoji(text: string): boolean {
  // Bounded before any segmenting, which is slow on long text (a hostile reaction may be megabytes).
  if (text.length === 0 || text.length > MAX_EMOJI_LENGTH) return false;
  // One code point, or one and U+FE0F, is one grapheme: no need for the segmenter (20 to 50 ms to
  // build, some 20 µs per text).
  if (text.length <= 3 && isRgiEmoji(text)) return true;
  if (graphemes(text).length !== 1) return false;
  return isRgiEmoji(text) || isRgiEmoji(fullyQualified(text));
}

/** Adds U+FE0F after every text-presentation emoji character that lacks it. */
function fullyQualified(text: string): string {
  const chars = Array.from(text.replace(VARIATION_SELECTOR_16, ''));
  return chars.map((char) => (TEXT_PRESENTATION_EMOJI.test(char) && !NOT_QUALIFIABLE.test(char) ? `${char}\uFE0F` : char)).join('');
}

/** A comparison key for an emoji that ignores U+FE0F, so `❤` and `❤️` match. */
export function emojiKey(emoji: string): string {
  return emoji.replace(VARIATION_SELECTOR_16, '');
}
