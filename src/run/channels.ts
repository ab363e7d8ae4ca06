import { type Contract, knownChannels } from '../contract/contract.js';
import { UsageError } from '../core/usage-error.js';

/** A channel's name, as spec/request.schema.json allows a custom one: a lower case letter, then up to 31 of a-z, 0-9, _ and -. */
export const CHANNEL_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

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
