import { type Contract, knownChannels } from '../contract/contract.js';
import { CHANNEL_NAME } from '../core/ids.js';
import { UsageError } from '../core/usage-error.js';

/**
 * The channels asked for: `all` is the contract's platforms, repeats are dropped, none asked is
 * `whatsapp`. A name that cannot be a channel is a UsageError (exit 2).
 */
export function resolveChannels(requested: readonly string[], contract: Contract): string[] {
  const names = requested.length ? requested : ['whatsapp'];
  const channels = [...new Set(names.flatMap((name) => (name === 'all' ? knownChannels(contract) : [name])))];
  for (const channel of channels) {
    if (!CHANNEL_NAME.test(channel)) {
      throw new UsageError(
        `"${channel}" is not a channel name: use ${knownChannels(contract).join(', ')}, all, or a custom name of lower case letters, digits, _ and - (up to 32, starting with a letter)`,
      );
    }
  }
  return channels;
}
