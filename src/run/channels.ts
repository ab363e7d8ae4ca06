import { type Contract, knownChannels } from '../contract/contract.js';
import { CHANNEL_NAME } from '../core/ids.js';
import { OptionError } from '../core/option-error.js';
import { editDistance } from '../validate/did-you-mean.js';

/** A channel name this close to a platform's (case aside) is taken for a typo of it. */
const TYPO_EDITS = 2;

/** The platform a channel name is likely a typo of (`whatsap`, `telegarm`, `iMessage`), or undefined. */
export function likelyPlatform(channel: string, platforms: readonly string[]): string | undefined {
  const lower = channel.toLowerCase();
  let best: { name: string; edits: number } | undefined;
  for (const name of platforms) {
    if (name === channel) return undefined;
    const edits = editDistance(lower, name, TYPO_EDITS);
    if (edits <= TYPO_EDITS && (best === undefined || edits < best.edits)) best = { name, edits };
  }
  return best?.name;
}

/**
 * The channels asked for: `all` is the contract's platforms, repeats are dropped, none asked is
 * `whatsapp`. A name that cannot be a channel is an OptionError (exit 2), and so is one within two
 * edits of a platform's name, which would silently be checked against the schema only, unless
 * `limited` (the channels a --limits NAME=FILE names) holds it.
 */
export function resolveChannels(requested: readonly string[], contract: Contract, limited: readonly string[] = []): string[] {
  const names = requested.length ? requested : ['whatsapp'];
  const platforms = knownChannels(contract);
  const channels = [...new Set(names.flatMap((name) => (name === 'all' ? platforms : [name])))];
  for (const channel of channels) {
    const platform = limited.includes(channel) ? undefined : likelyPlatform(channel, platforms);
    if (platform !== undefined) {
      throw new OptionError('channels', (on) =>
        on.kind === 'flags'
          ? `--channel ${channel}: no platform is called that; did you mean ${platform}? A channel the contract does not know is checked against the schema only; to check a custom channel named "${channel}" anyway, give its display limits: --limits ${channel}=FILE`
          : `channels: "${channel}" is not a channel; did you mean ${platform}? A channel the contract does not know is checked against the schema only; to check a custom channel named "${channel}" anyway, give its display limits: limits: { "${channel}": rules } or ["${channel}=FILE"]`,
      );
    }
    if (!CHANNEL_NAME.test(channel)) {
      throw new OptionError(
        'channels',
        () =>
          `"${channel}" is not a channel name: use ${platforms.join(', ')}, all, or a custom name of lower case letters, digits, _ and - (up to 32, starting with a letter)`,
      );
    }
  }
  return channels;
}
