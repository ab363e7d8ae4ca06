import { type Contract, type PlatformRules, knownChannels } from '../contract/contract.js';
import { loadContract } from '../contract/load-contract.js';
import { REPORT_FORMAT_VERSION } from '../core/report.js';
import { CHANNEL_NAME } from '../core/ids.js';
import { UsageError } from '../core/usage-error.js';
import { TOOL_VERSION } from '../core/version.js';
import { type ModelInstructions, modelInstructions } from '../report/limits-prompt.js';
import { formatPlatformLimits } from '../report/limits-table.js';
import { closestName } from '../validate/did-you-mean.js';
import { readLimitsOptions } from '../run/limits-option.js';
import type { Output } from './output.js';

export interface LimitsCommandArgs {
  /** The channels asked for, in order; none is every platform of the contract (and every channel a --limits file names). */
  channels: string[];
  json: boolean;
  /** Print each channel's instructions for a model (a system-prompt paragraph) instead of its table. */
  prompt: boolean;
  spec?: string;
  limits: string[];
}

/** One channel's limits, as `--json` prints them (spec/report.schema.json, `$defs/limitsReport`). */
interface ChannelLimits {
  channel: string;
  /** From the contract's x-platforms, or from a --limits file. */
  limits: 'spec' | 'file';
  /** The --limits file, or null. */
  file: string | null;
  /** The rules exactly as loaded: an x-platforms entry (spec/platform-limits.schema.json). */
  rules: PlatformRules;
  /** With --prompt: the channel's instructions for a model, as text and as data. */
  prompt?: Omit<ModelInstructions, 'channel'>;
}

/** `acme=acme.json` → acme; a file without a name applies to the custom channels asked for. */
function namedChannel(value: string): string | undefined {
  const name = /^([^=]+)=/.exec(value)?.[1];
  return name !== undefined && CHANNEL_NAME.test(name) ? name : undefined;
}

/** The file of the last --limits value that applies to a channel (the one that counts, as in the check). */
function fileFor(channel: string, values: readonly string[], custom: readonly string[]): string | undefined {
  let file: string | undefined;
  for (const value of values) {
    const name = namedChannel(value);
    if (name === channel) file = value.slice(name.length + 1);
    else if (name === undefined && custom.includes(channel)) file = value;
  }
  return file;
}

/** The channels asked for, `all` the contract's platforms; an unknown one is a UsageError naming the known ones. */
function channelsAsked(args: LimitsCommandArgs, contract: Contract): string[] {
  const platforms = knownChannels(contract);
  const named = args.limits.map(namedChannel).filter((name): name is string => name !== undefined);
  const asked = args.channels.length ? args.channels : [...platforms, ...named];
  const channels = [...new Set(asked.flatMap((name) => (name === 'all' ? platforms : [name])))];
  const known = [...new Set([...platforms, ...named])];
  const withFile = args.limits.some((value) => namedChannel(value) === undefined);
  for (const channel of channels) {
    // A file without a name is for any custom channel, but not for a likely typo of a platform's name.
    if (known.includes(channel) || (withFile && CHANNEL_NAME.test(channel) && closestName(channel, platforms) === undefined)) continue;
    const closest = closestName(channel, known);
    const valid = CHANNEL_NAME.test(channel);
    const what = valid ? `no display limits are known for channel "${channel}"` : `"${channel}" is not a channel name`;
    throw new UsageError(
      `${what}${closest === undefined ? '.' : `; did you mean ${closest}?`} The known channels: ${known.join(', ')}. A custom channel's limits come from a file: --limits ${valid ? channel : 'NAME'}=FILE`,
    );
  }
  return channels;
}

/** `check-endpoint limits [CHANNEL...]`: each platform's display limits, as tables or as JSON. */
export async function runLimitsCommand(args: LimitsCommandArgs, output: Output): Promise<number> {
  const contract = await loadContract(args.spec);
  const channels = channelsAsked(args, contract);
  const custom = channels.filter((channel) => !Object.hasOwn(contract.platforms, channel));
  const files = await readLimitsOptions(args.limits, custom);
  const shown: ChannelLimits[] = channels.map((channel) => {
    const file = Object.hasOwn(files, channel) ? fileFor(channel, args.limits, custom) : undefined;
    // channelsAsked made sure each channel is a platform or has a file.
    const rules = file !== undefined ? files[channel]! : contract.platforms[channel]!;
    const entry: ChannelLimits = { channel, limits: file !== undefined ? 'file' : 'spec', file: file ?? null, rules };
    if (!args.prompt) return entry;
    const { channel: _channel, ...prompt } = modelInstructions(channel, rules);
    return { ...entry, prompt };
  });

  if (args.json) {
    output.json({
      version: REPORT_FORMAT_VERSION,
      tool: { name: 'check-endpoint', version: TOOL_VERSION },
      spec: { version: contract.version, source: contract.source },
      platforms: shown,
    });
    return 0;
  }
  if (args.prompt) {
    // One paragraph a channel, as a system prompt takes it; with several, each under its channel's name.
    shown.forEach((entry, index) => {
      if (index > 0) output.line();
      if (shown.length > 1) output.line(`${entry.channel}:`);
      output.line(entry.prompt!.prompt);
    });
    return 0;
  }
  const contractName = `the contract ${contract.version} (${contract.source})`;
  shown.forEach((entry, index) => {
    if (index > 0) output.line();
    const from = entry.file !== null ? `--limits ${entry.file}` : contractName;
    for (const line of formatPlatformLimits(entry.rules, { channel: entry.channel, from })) output.line(line);
  });
  return 0;
}
