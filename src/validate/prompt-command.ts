import { commandWords } from '../core/command-words.js';

/** The command that prints a channel's instructions for a model (`check-endpoint limits CHANNEL --prompt`), as hints name it (core/command-words.ts). */
export function promptCommand(channel: string): string {
  return commandWords(`limits ${channel} --prompt`);
}

/** The ending of a Markdown, length, button or SMS hint: where a model's instructions for the channel come from. */
export function forModel(channel: string): string {
  return ` For a model: ${promptCommand(channel)}`;
}
