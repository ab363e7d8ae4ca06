/**
 * The one command-line parser: node:util's parseArgs splits the words, the option table says what
 * each flag means, and the same rules hold on every command. A scalar flag given twice takes the
 * last value, a list flag collects every value, `--flag=value` is `--flag value`, `--no-flag` turns
 * an on/off flag off; anything else wrong is a UsageError naming the flag and what it wants.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { ChatCommandArgs } from '../commands/chat.js';
import type { CheckCommandArgs } from '../commands/check.js';
import type { DemoCommandArgs } from '../commands/demo.js';
import type { ScenariosCommandArgs } from '../commands/scenarios.js';
import type { LimitsCommandArgs } from '../commands/limits.js';
import type { ServeExampleCommandArgs } from '../commands/serve-example.js';
import type { ShowCommandArgs } from '../commands/show.js';
import type { SpecCommandArgs } from '../commands/spec.js';
import type { ValidateCommandArgs } from '../commands/validate.js';
import { commandName } from '../core/command-name.js';
import { UsageError } from '../core/usage-error.js';
import { recordedUrl, withoutSecretChoices } from '../commands/recorded-flags.js';
import { closestName } from '../validate/did-you-mean.js';
import { COMMANDS, type CommandName, NAMED_COMMANDS, isNamedCommand } from './commands.js';
import type { ConfigValues } from './config.js';
import {
  type FlagValue,
  type FlagsOf,
  OPTION_NAMES,
  type OptionName,
  argumentKey,
  flagUsage,
  isActionFlag,
  isNegatable,
  isOptionName,
  optionSpec,
  optionsOf,
} from './options.js';

/** What the command line asks for: a command with its typed arguments, or help, or the version. */
export type CommandLine =
  | { command: 'check'; args: CheckCommandArgs }
  | { command: 'demo'; args: DemoCommandArgs }
  | { command: 'chat'; args: ChatCommandArgs }
  | { command: 'validate'; args: ValidateCommandArgs }
  | { command: 'serve-example'; args: ServeExampleCommandArgs }
  | { command: 'limits'; args: LimitsCommandArgs }
  | { command: 'show'; args: ShowCommandArgs }
  | { command: 'spec'; args: SpecCommandArgs }
  | { command: 'scenarios'; args: ScenariosCommandArgs }
  | { command: 'help'; topic: CommandName }
  | { command: 'version' };

// The table and the commands' argument interfaces agree: a flag in one and not the other, or of
// another type, does not compile.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Holds<T extends true> = T;
export type TableMatchesCommands = [
  Holds<Same<FlagsOf<'check'>, Omit<CheckCommandArgs, 'url' | 'configKeys'>>>,
  Holds<Same<FlagsOf<'demo'>, DemoCommandArgs>>,
  Holds<Same<FlagsOf<'chat'>, Omit<ChatCommandArgs, 'url' | 'configKeys' | 'configLeftOut'>>>,
  Holds<Same<FlagsOf<'validate'>, Omit<ValidateCommandArgs, 'file'>>>,
  Holds<Same<FlagsOf<'serve-example'>, ServeExampleCommandArgs>>,
  Holds<Same<FlagsOf<'limits'>, Omit<LimitsCommandArgs, 'channels'>>>,
  Holds<Same<FlagsOf<'show'>, ShowCommandArgs>>,
  Holds<Same<FlagsOf<'spec'>, Omit<SpecCommandArgs, 'name'>>>,
  Holds<Same<FlagsOf<'scenarios'>, Omit<ScenariosCommandArgs, 'folder'>>>,
];

/** A flag as parseArgs reads it: `--spec=a` has the value `a` inline, `--spec a` the next word. */
interface OptionToken {
  kind: 'option';
  name: string;
  rawName: string;
  value: string | undefined;
  inlineValue: boolean | undefined;
}

/** For parseArgs, used as a tokenizer: which flags take a value. The checks below are ours. */
const TOKENIZER_OPTIONS: NonNullable<ParseArgsConfig['options']> = Object.fromEntries(
  OPTION_NAMES.map((name) => {
    const spec = optionSpec(name);
    if (spec.type !== 'boolean') return [name, { type: 'string' }];
    return [name, spec.short ? { type: 'boolean', short: spec.short } : { type: 'boolean' }];
  }),
);

/** A number as people write one: 5, 0.5, -5, 1e9 (not hex, not blank, not Infinity). */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** How help and errors write a command: `check-endpoint <url>`, `validate`. */
function titled(commands: readonly CommandName[]): string {
  const titles = commands.map((command) => COMMANDS[command].title);
  return titles.length === 1 ? titles[0]! : `${titles.slice(0, -1).join(', ')} and ${titles.at(-1)}`;
}

function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? '' : `; did you mean ${suggestion}?`;
}

/** The flag a token names, when the command takes it. */
function flagOf(token: OptionToken, command: CommandName): OptionName {
  const { name, rawName } = token;
  if (isOptionName(name)) {
    const takers = optionSpec(name).commands;
    if (takers.includes(command)) return name;
    throw new UsageError(
      `${rawName} is not a flag of ${COMMANDS[command].title}; ${titled(takers)} ${takers.length === 1 ? 'takes' : 'take'} it`,
    );
  }
  // --no-dotenv=FILE: parseArgs reads a --no- form with a value as a flag of its own.
  const negated = name.startsWith('no-') ? name.slice(3) : undefined;
  if (negated !== undefined && isOptionName(negated) && isNegatable(negated) && optionSpec(negated).commands.includes(command)) {
    throw new UsageError(
      `${rawName} takes no value (got ${rawName}=${token.value ?? ''}); write ${rawName}, or ${flagUsage(negated).split(',')[0]}`,
    );
  }
  const known = optionsOf(command).flatMap((flag) => (isNegatable(flag) ? [flag, `no-${flag}`] : [flag]));
  // parseArgs reads --no-jsn as the flag jsn turned off; the suggestion is for what was typed.
  const closest = closestName(rawName.replace(/^--?/, ''), known);
  throw new UsageError(`unknown flag ${rawName}${didYouMean(closest === undefined ? undefined : `--${closest}`)}`);
}

/** The value a token gives its flag, checked against the table. */
function valueOf(token: OptionToken, name: OptionName): string | number | boolean {
  const spec = optionSpec(name);
  const negated = token.rawName !== `--${name}` && token.rawName.startsWith('--no-');
  if (spec.type === 'boolean') {
    if (token.inlineValue)
      throw new UsageError(
        `${token.rawName} is an on/off flag and takes no value (got ${token.rawName}=${token.value}); write --${name} or --no-${name}`,
      );
    return !negated;
  }
  if (negated && spec.type === 'string' && spec.negatable) {
    if (token.inlineValue) throw new UsageError(`${token.rawName} takes no value; write ${token.rawName}`);
    return false;
  }
  if (negated) throw new UsageError(`${token.rawName}: only on/off flags have a --no- form; ${flagUsage(name)} takes a value`);
  const { value } = token;
  if (value === undefined) throw new UsageError(`${token.rawName} needs a value: ${flagUsage(name)}`);
  if (!token.inlineValue && value !== '-' && value.startsWith('-') && !(spec.type === 'number' && NUMBER.test(value)))
    throw new UsageError(
      `${token.rawName} needs a value: ${flagUsage(name)}; the next word is the flag ${value} (write ${token.rawName}=${value} if that is the value)`,
    );
  if (spec.type === 'number') {
    if (!NUMBER.test(value.trim())) {
      throw new UsageError(`${token.rawName} needs a number (${spec.placeholder}${spec.takes ? `, ${spec.takes}` : ''}); got "${value}"`);
    }
    return Number(value);
  }
  if (spec.choices && !spec.choices.includes(value)) {
    const closest = closestName(value, spec.choices);
    throw new UsageError(`${token.rawName} ${value} is not one of ${spec.choices.join(', ')}${didYouMean(closest)}`);
  }
  return value;
}

/** Every flag a command takes, with its value or, when not given, its default. */
function flagsFor<C extends CommandName>(command: C, given: ReadonlyMap<OptionName, FlagValue>): FlagsOf<C> {
  const flags: Record<string, FlagValue> = {};
  for (const name of optionsOf(command)) {
    if (isActionFlag(name)) continue;
    const spec = optionSpec(name);
    const value =
      given.get(name) ??
      (spec.type === 'boolean' ? (spec.optional ? undefined : false) : spec.type === 'string' && spec.list ? [] : spec.default);
    if (value !== undefined) flags[argumentKey(name)] = value;
  }
  // The keys and value types are the table's, as FlagsOf derives them (test/cli-options.test.ts checks each flag).
  return flags as FlagsOf<C>;
}

function positionalsError(command: CommandName, words: readonly string[]): UsageError | undefined {
  const spec = COMMANDS[command];
  if (spec.positional?.missing !== undefined && words.length === 0)
    return new UsageError(`${spec.positional.missing}: ${commandName()} ${spec.usage}`);
  const allowed = spec.positional ? (spec.positional.many ? Infinity : 1) : 0;
  if (words.length <= allowed) return undefined;
  const takes = spec.positional ? `takes one ${spec.positional.noun}` : 'takes flags only';
  return new UsageError(`unexpected argument "${words[allowed]}": ${spec.title} ${takes}`);
}

/** Reads the config file the check is told to (--config FILE, --no-config, or undefined: the default one, if any). */
export type ConfigLoader = (named: string | false | undefined) => ConfigValues | undefined;
/** Reads what --failed takes from the last run's record: its URL (when whole) and flags, as a config file's. */
export type RecordLoader = () => ConfigValues;

/**
 * Reads the arguments after `check-endpoint`. Throws a UsageError for anything it cannot take.
 * Given a config loader, the check takes its URL and flags from the config file too, under the
 * flags given here.
 */
/**
 * A flag whose value may be left out (`--scenarios` for `--scenarios tests/scenarios`) takes its
 * value when none follows it: at the end of the line, or before another flag.
 */
function withBareValues(argv: readonly string[]): string[] {
  return argv.flatMap((word, index) => {
    const next = argv[index + 1];
    const name = word.startsWith('--') ? word.slice(2) : undefined;
    const spec = name !== undefined && isOptionName(name) ? optionSpec(name) : undefined;
    const bare = spec?.type === 'string' ? spec.valueWhenBare : undefined;
    return bare !== undefined && (next === undefined || next.startsWith('-')) ? [word, bare] : [word];
  });
}

export function parseCommandLine(argv: readonly string[], loadConfig?: ConfigLoader, loadRecord?: RecordLoader): CommandLine {
  const { tokens } = parseArgs({
    args: withBareValues(argv),
    options: TOKENIZER_OPTIONS,
    strict: false,
    allowPositionals: true,
    allowNegative: true,
    tokens: true,
  });
  const positionals = tokens.flatMap((token) => (token.kind === 'positional' ? [token.value] : []));
  const first = positionals[0];
  const command: CommandName = first !== undefined && isNamedCommand(first) ? first : 'check';
  const words = command === 'check' ? positionals : positionals.slice(1);
  const options = tokens.flatMap((token) => (token.kind === 'option' ? [token] : []));

  // --help and --version answer whatever else the line holds.
  const asked = (action: OptionName): boolean => options.some((token) => token.name === action && !token.rawName.startsWith('--no-'));
  if (asked('help')) return { command: 'help', topic: command };
  if (asked('version')) return { command: 'version' };

  try {
    return commandLineOf(command, first, words, options, loadConfig, loadRecord);
  } catch (cause) {
    if (!(cause instanceof UsageError)) throw cause;
    throw new CommandLineError(cause.message, command, asked('json'), words[0]);
  }
}

/**
 * A command line that does not parse, with what could be read of it: the command, and whether
 * --json was asked for (the check then prints a JSON document of outcome `error` all the same).
 */
export class CommandLineError extends UsageError {
  constructor(
    message: string,
    readonly command: CommandName,
    readonly jsonAsked: boolean,
    readonly firstWord: string | undefined,
  ) {
    super(message);
  }
}

function commandLineOf(
  command: CommandName,
  first: string | undefined,
  words: string[],
  options: OptionToken[],
  loadConfig: ConfigLoader | undefined,
  loadRecord?: RecordLoader,
): CommandLine {
  const given = new Map<OptionName, FlagValue>();
  for (const token of options) {
    const name = flagOf(token, command);
    const value = valueOf(token, name);
    const spec = optionSpec(name);
    if (spec.type === 'string' && spec.list) {
      const values = given.get(name);
      given.set(name, [...(Array.isArray(values) ? values : []), String(value)]);
    } else given.set(name, value);
  }

  if (command === 'check' && first !== undefined && !/[:/.]/.test(first)) {
    const closest = closestName(first, NAMED_COMMANDS);
    if (closest !== undefined) throw new UsageError(`unknown command "${first}"; did you mean ${closest}?`);
  }
  const named = given.get('config');
  const config =
    command === 'check' || command === 'chat' ? loadConfig?.(typeof named === 'string' || named === false ? named : undefined) : undefined;
  // --failed: the last run's record, between the config file and the flags given.
  const recorded = command === 'check' && (given.get('failed') ?? config?.flags.get('failed')) === true ? loadRecord?.() : undefined;
  // The URL given wins over the record's (on this machine or the config file's own: recordedUrl), which wins over the config file's.
  const url =
    words[0] ??
    (recorded?.url === undefined ? undefined : recordedUrl(recorded.url, config?.url, recorded.file, recorded.urlRefused)) ??
    config?.url;
  if (recorded && url === undefined) {
    throw new UsageError(`--failed: ${recorded.file} keeps the last run's URL without its query's values; give the URL`);
  }
  const error = positionalsError(command, words.length === 0 && url !== undefined ? [url] : words);
  if (error) throw error;
  const [word] = words;
  switch (command) {
    case 'check': {
      // The config file, then the record, under the flags given: a flag given replaces its value (a list flag's whole list).
      // The record never chooses the secrets sent (withoutSecretChoices): those come from the flags given or the config file.
      const chosen = (flag: string): unknown => given.get(flag) ?? config?.flags.get(flag);
      const fromRecord = recorded ? withoutSecretChoices(recorded.flags, chosen, recorded.file) : new Map<OptionName, FlagValue>();
      const flags = new Map([...(config?.flags ?? []), ...fromRecord, ...given, ...(config ? [['config', config.file] as const] : [])]);
      // The flags the config file set and neither the command line nor the record did, by the key that set them: errors name the file and key.
      const fromConfig = config ? [...config.keys].filter(([name]) => !given.has(name) && !fromRecord.has(name)) : [];
      const configKeys = fromConfig.length ? { configKeys: Object.fromEntries(fromConfig) } : {};
      // positionalsError made sure the URL is there: given, recorded or in the config file.
      return { command, args: { url: url!, ...flagsFor(command, flags), ...configKeys } };
    }
    case 'chat': {
      // The config file under the flags given: its keys of flags the chat does not take (the cases, the reports) are not
      // read, so a file shared with the check never breaks the chat; the command names them (configLeftOut).
      const flags = new Map([...(config?.flags ?? []), ...given, ...(config ? [['config', config.file] as const] : [])]);
      const takes = optionsOf('chat');
      const fromConfig = config ? [...config.keys].filter(([name]) => !given.has(name) && takes.includes(name)) : [];
      const configKeys = fromConfig.length ? { configKeys: Object.fromEntries(fromConfig) } : {};
      const leftOut = config ? [...config.keys].filter(([name]) => !takes.includes(name)).map(([, key]) => key) : [];
      const configLeftOut = leftOut.length ? { configLeftOut: leftOut } : {};
      return { command, args: { url: url!, ...flagsFor(command, flags), ...configKeys, ...configLeftOut } };
    }
    case 'demo':
      return { command, args: flagsFor(command, given) };
    case 'validate':
      return { command, args: { ...flagsFor(command, given), ...(word !== undefined ? { file: word } : {}) } };
    case 'serve-example':
      return { command, args: flagsFor(command, given) };
    case 'limits':
      return { command, args: { channels: [...words], ...flagsFor(command, given) } };
    case 'show':
      return { command, args: flagsFor(command, given) };
    case 'spec':
      return { command, args: { ...flagsFor(command, given), ...(word !== undefined ? { name: word } : {}) } };
    case 'scenarios':
      return { command, args: { ...flagsFor(command, given), folder: word } };
    case 'help': {
      if (word === undefined) return { command, topic: 'check' };
      if (isNamedCommand(word)) return { command, topic: word };
      const closest = closestName(word, NAMED_COMMANDS);
      throw new UsageError(
        `help: there is no command "${word}"${closest === undefined ? '.' : `; did you mean ${closest}?`} The commands: ${NAMED_COMMANDS.join(', ')}; the check's own help is ${commandName()} --help`,
      );
    }
  }
}
