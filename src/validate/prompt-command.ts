import { commandWords } from '../core/command-words.js';

/** The command that prints a channel's instructions for a model (`check-endpoint limits CHANNEL --prompt`), as hints name it (core/command-words.ts). */
export function promptCommand(channel: string): string {
  return commandWords(`limits ${channel} --prompt`);
}

/** The ending of a Markdown, length, button or SMS hint: where a model's instructions for the channel come from. */
export function forModel(channel: string): string {
  return ` For a model: ${promptCommand(channel)}`;
}

/** Text past this many characters reads as written by a model rather than by hand. */
const MODEL_LENGTH = 200;

/**
 * Whether a reply's text reads as written by a model: long (over 200 characters), in paragraphs, or
 * in Markdown (bold, a heading, a bulleted or numbered list). A short hand-written line (`What can I
 * get you?`) does not, and a hint on its buttons or list says nothing of a model's instructions.
 */
export function looksModelWritten(text: string | undefined): boolean {
  if (text === undefined) return false;
  return [...text].length > MODEL_LENGTH || /\n\s*\n|\*\*|__|^#{1,6} |^\s*(?:[-*•]|\d+[.)]) /m.test(text);
}
