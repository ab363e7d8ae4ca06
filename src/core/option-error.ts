/**
 * An option the run cannot take. The library names its options by field (`channels`), the command
 * line by flag (`--channel`): an OptionError keeps the field it is about and says its message in
 * either words, so the CLI can say it again naming the flag.
 */
import { UsageError } from './usage-error.js';

/** How a message names an option: by the library's field, or by the command line's flag. */
export interface OptionNames {
  readonly kind: 'fields' | 'flags';
  /** `channels` or `--channel`. */
  name(field: string): string;
}

/** The library's words: an option is named by its field. */
export const FIELD_NAMES: OptionNames = { kind: 'fields', name: (field) => field };

export class OptionError extends UsageError {
  override name = 'OptionError';

  constructor(
    /** The option field the message is about. */
    readonly field: string,
    readonly say: (names: OptionNames) => string,
  ) {
    super(say(FIELD_NAMES));
  }

  /** The message naming options as `names` does. */
  messageFor(names: OptionNames): string {
    return this.say(names);
  }
}

/** An error's message as `names` would name its options. */
export function messageFor(cause: Error, names: OptionNames): string {
  return cause instanceof OptionError ? cause.messageFor(names) : cause.message;
}
