import { graphemes } from './counting.js';

const RGI_EMOJI = /^\p{RGI_Emoji}$/v;
const VARIATION_SELECTOR_16 = /\uFE0F/g;
/** An emoji character whose default presentation is text: it needs U+FE0F to be fully qualified. */
const TEXT_PRESENTATION_EMOJI = /^(?=\p{Emoji})\P{Emoji_Presentation}$/u;
const NOT_QUALIFIABLE = /^[\p{Emoji_Component}\u200D]$/u;

/**
 * True when the text is exactly one emoji: one grapheme that is an RGI emoji, fully qualified or
 * not (U+2764 counts as well as U+2764 U+FE0F, as Telegram lists it).
 */
export function isSingleEmoji(text: string): boolean {
  if (text.length === 0 || graphemes(text).length !== 1) return false;
  return RGI_EMOJI.test(text) || RGI_EMOJI.test(fullyQualified(text));
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
