import { ContractError } from '../contract/contract-error.js';
import { commandName } from '../core/command-name.js';
import { withCommand } from '../core/command-words.js';
import { type OptionNames, messageFor } from '../core/option-error.js';
import { UsageError } from '../core/usage-error.js';

/**
 * What a --json document says of an error that stopped a command (exit 2): the message of a
 * usage or contract error (its options named as `names` does, a command it suggests as this process
 * was started: core/command-words.ts), anything else as an internal error.
 */
export function reportedErrorMessage(cause: unknown, names: OptionNames): string {
  if (cause instanceof UsageError || cause instanceof ContractError) return withCommand(messageFor(cause, names), commandName());
  return `internal error: ${cause instanceof Error ? cause.message : String(cause)}`;
}
