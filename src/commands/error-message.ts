import { ContractError } from '../contract/contract-error.js';
import { UsageError } from '../core/usage-error.js';

/**
 * What a --json document says of an error that stopped a command (exit 2): the message of a
 * usage or contract error as it is, anything else as an internal error.
 */
export function reportedErrorMessage(cause: unknown): string {
  if (cause instanceof UsageError || cause instanceof ContractError) return cause.message;
  return `internal error: ${cause instanceof Error ? cause.message : String(cause)}`;
}
