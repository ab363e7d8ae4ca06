import type { PlatformRules } from '../contract/contract.js';
import { loadLimitsFile } from '../contract/load-contract.js';
import { OptionError } from '../core/option-error.js';
import { CHANNEL_NAME } from '../core/ids.js';

/** `NAME=FILE`, NAME a channel name; anything else is a file name. */
const NAMED_FILE = new RegExp(`^(${CHANNEL_NAME.source.slice(1, -1)})=(.+)$`);

/** The channels `--limits NAME=FILE` values name (a file without a NAME names none). */
export function namedLimitChannels(values: readonly string[]): string[] {
  return values.flatMap((value) => {
    const match = NAMED_FILE.exec(value);
    return match ? [match[1]!] : [];
  });
}

/**
 * Reads `[NAME=]FILE` values (`--limits`, the `limits` option as a list). A file with a NAME applies to that channel; one without
 * applies to every custom channel of the run (one without known display limits).
 */
export async function readLimitsOptions(
  values: readonly string[],
  customChannels: readonly string[],
): Promise<Record<string, PlatformRules>> {
  const limits: Record<string, PlatformRules> = {};
  for (const value of values) {
    const match = NAMED_FILE.exec(value);
    const rules = await loadLimitsFile(match ? match[2]! : value);
    const channels = match ? [match[1]!] : customChannels;
    if (channels.length === 0) {
      throw new OptionError(
        'limits',
        (names) =>
          `${names.name('limits')} ${value} names no channel and the run has no custom channel; write ${names.kind === 'flags' ? '--limits NAME=FILE' : '"NAME=FILE"'}`,
      );
    }
    for (const channel of channels) limits[channel] = rules;
  }
  return limits;
}
