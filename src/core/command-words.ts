/**
 * A command a hint suggests, written the one way every check writes it, and filled in where it is
 * printed. Checks are pure: they cannot know how this process was started, so a hint names a
 * command as `` `check-endpoint limits sms --prompt` `` (commandWords), and each edge that prints
 * or reports hints (the run's assembly, validate, scenarios --lint, help) writes it the way the
 * person can run it (withCommand, with core/command-name.ts's commandName()). A problem's id is
 * taken from the hint as the check wrote it, so it is the same whichever way the command was started.
 */
import { BIN_NAME } from './command-name.js';

/** `` `check-endpoint spec request` ``: a command as a hint writes it, in backticks. */
export function commandWords(args: string): string {
  return `\`${BIN_NAME} ${args}\``;
}

/** The text with each command written by commandWords named as `command` (`npx --yes --package … check-endpoint spec request`). */
export function withCommand(text: string, command: string): string;
export function withCommand(text: string | null, command: string): string | null;
export function withCommand(text: string | null, command: string): string | null {
  if (text === null || command === BIN_NAME) return text;
  return text.replaceAll(`\`${BIN_NAME} `, () => `\`${command} `);
}
