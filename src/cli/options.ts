/**
 * Every flag of every command, in one table: the parser reads it, help is written from it, and the
 * commands' argument types are derived from it. A new flag is one entry here (and, if a command's
 * argument interface names it, one field there: parse.ts does not compile until both agree). The
 * cases' own settings (--latency-budget, --quality-conversations) join the table from the case
 * registry; each flag of the check names the library option (`field`) it sets, and the CLI says
 * the library's errors again naming the flag (FLAG_NAMES).
 */
import type { OptionNames } from '../core/option-error.js';
import { PLATFORM_NAMES } from '../generated/platform-names.js';
import { REPORT_FORMATS, reportDirFiles } from '../report/formats.js';
import { ALL_CASE_IDS, SCENARIO_SETTINGS } from '../scenarios/registry.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_BODY_BYTES, DEFAULT_TOKEN_ENV } from '../run/defaults.js';
import type { CommandName } from './commands.js';

interface OptionBase {
  /** What the flag does, as help says it. */
  description: string;
  /** The commands that take the flag. */
  commands: readonly CommandName[];
  /** Wording for a command on which the flag acts on something else (validate checks one answer, not a run). */
  descriptionOn?: Partial<Record<CommandName, string>>;
  /** Help's "Default: …", where the value left out is decided after parsing (the run's defaults). */
  defaultDescription?: string;
  defaultDescriptionOn?: Partial<Record<CommandName, string>>;
  /** The library option (checkEndpoint's) the flag sets on the check, where it sets one. */
  field?: string;
}

/** An on/off flag: `--json`, `--no-json`. Off unless given. */
export interface BooleanOption extends OptionBase {
  type: 'boolean';
  /** A one-letter form: `-h`. */
  short?: string;
  /** Left unset when not given, rather than off: something else decides then (--color: the environment). */
  optional?: true;
}

export interface StringOption extends OptionBase {
  type: 'string';
  /** How help writes the value: FILE, NAME. */
  placeholder: string;
  /** Repeatable: each occurrence adds a value (an empty list when not given). Otherwise the last one given counts. */
  list?: boolean;
  /** The only values allowed. */
  choices?: readonly string[];
  default?: string;
  /** Also has a `--no-` form, which gives `false` (`--dotenv FILE`, `--no-dotenv`). Not with `list`. */
  negatable?: boolean;
}

export interface NumberOption extends OptionBase {
  type: 'number';
  placeholder: string;
  default?: number;
  /** What values it takes, for the message when the value is not a number: `a whole number from 1 to 100`. */
  takes?: string;
}

export type OptionSpec = BooleanOption | StringOption | NumberOption;

// Literal lists, so that the argument types below know which command takes which flag.
const CHECK = ['check', 'demo'] as const satisfies readonly CommandName[];
const CHECK_AND_VALIDATE = ['check', 'demo', 'validate'] as const satisfies readonly CommandName[];
const EVERY_COMMAND = [
  'check',
  'validate',
  'serve-example',
  'demo',
  'limits',
  'show',
  'spec',
  'help',
] as const satisfies readonly CommandName[];
/** The commands that print for people, in colour where wanted. */
const PRINTING = ['check', 'demo', 'validate', 'show'] as const satisfies readonly CommandName[];

/** The table. Help lists a command's flags in this order. */
export const OPTIONS = {
  channel: {
    field: 'channels',
    type: 'string',
    list: true,
    placeholder: 'NAME',
    commands: CHECK_AND_VALIDATE,
    description: `Channel to check: ${PLATFORM_NAMES.join(', ')}, all, or a custom name`,
    descriptionOn: { validate: `Channel to validate for: ${PLATFORM_NAMES.join(', ')}, all, or a custom name` },
    defaultDescription: 'whatsapp',
    defaultDescriptionOn: { demo: 'all' },
  },
  case: {
    field: 'cases',
    type: 'string',
    list: true,
    placeholder: 'ID',
    choices: ALL_CASE_IDS,
    commands: CHECK,
    description: 'Run only this case: a fixed, extended or quality case (repeatable)',
    defaultDescription: 'the five fixed cases',
  },
  'person-message-id': {
    type: 'string',
    list: true,
    placeholder: 'ID',
    commands: ['validate'],
    description: 'A person message id of the conversation; replyTo and reactions must name one',
  },
  'token-env': {
    field: 'tokenEnv',
    type: 'string',
    placeholder: 'VAR',
    commands: [...CHECK, 'serve-example'],
    description: 'Environment variable holding the bearer token (sent as authorization: Bearer …; never printed)',
    descriptionOn: {
      'serve-example': 'Environment variable holding the bearer token the agent requires: without it, a request gets 401 (never printed)',
    },
    defaultDescription: DEFAULT_TOKEN_ENV,
  },
  header: {
    field: 'headers',
    type: 'string',
    list: true,
    placeholder: '"NAME: VALUE"',
    commands: CHECK,
    description: 'Send this header with every request, as given (not for secrets: use --header-env)',
  },
  'header-env': {
    field: 'secretHeaders',
    type: 'string',
    list: true,
    placeholder: 'NAME=VAR',
    commands: CHECK,
    description:
      'Send header NAME with the value of environment variable VAR, never printed (authorization=VAR replaces the bearer token: basic auth)',
  },
  dotenv: {
    field: 'dotenv',
    type: 'string',
    placeholder: 'FILE',
    negatable: true,
    commands: CHECK,
    description:
      'Read the token and --header-env variables from this .env file when the environment does not set them; --no-dotenv reads none',
    defaultDescription: '.env in the current folder, if there is one',
  },
  'agent-timeout': {
    field: 'agentTimeoutSeconds',
    type: 'number',
    placeholder: 'SECONDS',
    commands: CHECK,
    description: 'Seconds the agent has for each answer, headers and body together',
    // The bundled contract's agentTimeoutSeconds (test/cli-options.test.ts holds the two together).
    defaultDescription: "the contract's 60",
  },
  concurrency: {
    field: 'concurrency',
    type: 'number',
    placeholder: 'N',
    commands: CHECK,
    description: 'Conversations in flight at once',
    defaultDescription: String(DEFAULT_CONCURRENCY),
  },
  'max-body': {
    field: 'maxBodyBytes',
    type: 'number',
    placeholder: 'BYTES',
    commands: CHECK,
    description: 'Largest answer body accepted, in bytes (after decompression)',
    defaultDescription: String(DEFAULT_MAX_BODY_BYTES),
  },
  json: {
    type: 'boolean',
    commands: [...CHECK_AND_VALIDATE, 'limits', 'show'],
    description: 'Print the report as one JSON document on stdout (human lines go to stderr)',
    descriptionOn: {
      validate: 'Print the result as JSON on stdout',
      limits: 'Print the limits as one JSON document on stdout',
      show: "Print the last run's record as it is stored (spec/last-run.schema.json)",
    },
  },
  prompt: {
    type: 'boolean',
    commands: ['limits'],
    description:
      "Print each channel's instructions for a language model: a system-prompt paragraph made from its limits (with --json, the same as data)",
  },
  quiet: {
    type: 'boolean',
    commands: CHECK,
    description: 'Print only the failed cases and the summary: a passing run prints its summary line alone',
  },
  color: {
    type: 'boolean',
    optional: true,
    commands: PRINTING,
    description: 'Colour the output, or (--no-color) not, whatever NO_COLOR and FORCE_COLOR say',
    defaultDescription: 'colour on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it',
  },
  spec: {
    field: 'spec',
    type: 'string',
    placeholder: 'FILE',
    commands: [...CHECK_AND_VALIDATE, 'limits'],
    description: 'Check against another version of the contract: an OpenAPI 3.1 file',
    descriptionOn: { limits: 'Show the limits of another version of the contract: an OpenAPI 3.1 file' },
  },
  limits: {
    field: 'limits',
    type: 'string',
    list: true,
    placeholder: '[NAME=]FILE',
    commands: [...CHECK_AND_VALIDATE, 'limits'],
    description: 'Display limits for a custom channel: a JSON file shaped like spec/platform-limits.schema.json',
    descriptionOn: { limits: "Also show a custom channel's limits: a JSON file shaped like spec/platform-limits.schema.json" },
  },
  strict: {
    field: 'strict',
    type: 'boolean',
    commands: CHECK_AND_VALIDATE,
    description: 'Warnings fail the run too',
    descriptionOn: { validate: 'Warnings make the answer invalid too' },
  },
  'report-dir': {
    type: 'string',
    placeholder: 'DIR',
    commands: CHECK,
    description: `Write ${reportDirFiles()} into this folder`,
  },
  baseline: {
    field: 'baseline',
    type: 'string',
    placeholder: 'FILE',
    commands: CHECK,
    description:
      'Expected failures, one a line (case, case:rule, channel/case, channel/case:rule): they do not fail the run; an entry that passes does',
  },
  extended: {
    field: 'extended',
    type: 'boolean',
    commands: CHECK,
    description: "Also run the extended cases: a voice note, a document, a video, a quote of the person's own message",
  },
  quality: {
    field: 'quality',
    type: 'boolean',
    commands: CHECK,
    description: 'Also run the quality cases: auth, malformed input, forward compatibility, concurrency, retries, long input, latency',
  },
  insecure: {
    field: 'insecure',
    type: 'boolean',
    commands: CHECK,
    description: 'Accept an https certificate the system does not trust (self-signed, for local use only; says so loudly)',
  },
  runs: {
    field: 'runs',
    type: 'number',
    placeholder: 'N',
    commands: CHECK,
    description:
      'Play every case N times (1 to 100) on every channel, each play its own conversation; a case passes only when every play does, and is flaky when only some do',
    defaultDescription: '1',
    takes: 'a whole number from 1 to 100',
  },
  wait: {
    field: 'waitSeconds',
    type: 'number',
    placeholder: 'SECONDS',
    commands: CHECK,
    description: 'Keep trying to reach the agent (the HEAD probe, backing off from 100 ms to 1 s) for this long before giving up',
    defaultDescription: '0: one try; 60 with --start',
  },
  start: {
    type: 'string',
    placeholder: 'COMMAND',
    commands: ['check'],
    description:
      'Start the agent with this shell command, wait for its URL to answer, check it, then stop it (SIGTERM, SIGKILL after 5 s); its output is shown when the check fails and written to --report-dir as agent.log. Something already answering at the URL is refused (exit 2); the command exiting at any time fails the run',
  },
  'reuse-existing': {
    type: 'boolean',
    commands: ['check'],
    description: 'With --start: when something already answers at the URL, check it and do not start the command',
  },
  'max-failures': {
    type: 'number',
    placeholder: 'N',
    commands: CHECK,
    field: 'maxFailures',
    description: 'Stop after N failed cases: nothing new is sent, and the cases left are reported as not run',
    defaultDescription: 'no limit',
    takes: 'a whole number, 1 or more',
  },
  failed: {
    type: 'boolean',
    commands: CHECK,
    description:
      'Play only the cases (on their channels) that failed, were flaky or were not run in the last run, as .check-endpoint/last-run.json records it; with nothing to rerun, says so and exits 0',
  },
  'other-target': {
    type: 'boolean',
    commands: ['check'],
    description:
      "With --failed: play the last run's failed cases against the URL given, though the record was made for another (without it, another URL is refused)",
  },
  config: {
    type: 'string',
    placeholder: 'FILE',
    negatable: true,
    commands: ['check'],
    description:
      'Read the URL and flags from this JSON file (keys: the flags in camelCase; flags given win); --no-config reads none. Its schema: check-endpoint spec config',
    defaultDescription: 'check-endpoint.config.json in the current folder, if there is one',
  },
  verbose: {
    type: 'boolean',
    commands: CHECK,
    description: "Also show the --start agent's output when the check passes",
  },
  port: {
    type: 'number',
    placeholder: 'PORT',
    commands: ['serve-example'],
    description: 'Port to listen on (0 picks a free one)',
    default: 8080,
  },
  host: {
    type: 'string',
    placeholder: 'ADDRESS',
    commands: ['serve-example'],
    description: 'Address to listen on',
    default: '127.0.0.1',
  },
  out: {
    type: 'string',
    placeholder: 'DIR',
    commands: ['spec'],
    description: 'Write the file named (with the files its $refs name), or every file, into this folder instead of printing it',
  },
  help: { type: 'boolean', short: 'h', commands: EVERY_COMMAND, description: 'Show this help' },
  version: { type: 'boolean', commands: EVERY_COMMAND, description: 'Print the version' },
} as const satisfies Readonly<Record<string, OptionSpec>>;

/**
 * The flags of the cases' own settings, from the registry: `--latency-budget` sets quality/latency's
 * `latencyBudgetSeconds`. Check flags, listed by help after --quality.
 */
const SETTING_OPTIONS: Readonly<Record<string, NumberOption>> = Object.fromEntries(
  SCENARIO_SETTINGS.map((setting) => [
    setting.flag,
    {
      type: 'number',
      placeholder: setting.placeholder,
      commands: CHECK,
      description: setting.description,
      defaultDescription: String(setting.default),
      field: setting.field,
    },
  ]),
);

/**
 * The report formats' own flags, from their registry (src/report/formats.ts): `--junit FILE` writes
 * the JUnit report there. Check flags, listed by help before --report-dir.
 */
const REPORT_OPTIONS: Readonly<Record<string, StringOption>> = Object.fromEntries(
  REPORT_FORMATS.flatMap(({ flag }) =>
    flag ? [[flag.name, { type: 'string', placeholder: flag.placeholder, commands: CHECK, description: flag.help }]] : [],
  ),
);

/** A flag's name: one of the table's, or a case setting's. */
export type OptionName = keyof typeof OPTIONS | (string & {});

/** Every flag, in help's order: the table's, the case settings' after --quality, the report formats' before --report-dir. */
const ALL_OPTIONS: Readonly<Record<string, OptionSpec>> = Object.fromEntries(
  Object.entries(OPTIONS).flatMap(([name, spec]): [string, OptionSpec][] =>
    name === 'quality'
      ? [[name, spec], ...Object.entries(SETTING_OPTIONS)]
      : name === 'report-dir'
        ? [...Object.entries(REPORT_OPTIONS), [name, spec]]
        : [[name, spec]],
  ),
);

/** The flags that answer on their own instead of setting an argument of the command. */
export const ACTION_FLAGS = ['help', 'version'] as const satisfies readonly OptionName[];

export function isActionFlag(name: OptionName): boolean {
  return (ACTION_FLAGS as readonly OptionName[]).includes(name);
}

export function isOptionName(name: string): boolean {
  return Object.hasOwn(ALL_OPTIONS, name);
}

export const OPTION_NAMES: readonly OptionName[] = Object.keys(ALL_OPTIONS);

/** The table's entry for a flag, as its general type (the table itself is typed literally). */
export function optionSpec(name: OptionName): OptionSpec {
  const spec = ALL_OPTIONS[name];
  if (spec === undefined) throw new Error(`no flag --${name}`);
  return spec;
}

/** The check's flag that sets each library option: `channels` is --channel. */
const FLAG_OF_FIELD: ReadonlyMap<string, string> = new Map(
  OPTION_NAMES.flatMap((name) => {
    const { field } = optionSpec(name);
    return field !== undefined && optionSpec(name).commands.includes('check') ? [[field, name] as const] : [];
  }),
);

/** The command line's words: an option is named by its flag (`--channel`); one no flag sets, by its field. */
export const FLAG_NAMES: OptionNames = {
  kind: 'flags',
  name: (field) => {
    const flag = FLAG_OF_FIELD.get(field);
    return flag === undefined ? field : `--${flag}`;
  },
};

/** A command's flags, in the table's order. */
export function optionsOf(command: CommandName): OptionName[] {
  return OPTION_NAMES.filter((name) => optionSpec(name).commands.includes(command));
}

/** How help and errors write a flag: `--spec FILE`, `--json`, `-h, --help`. */
export function flagUsage(name: OptionName): string {
  const spec = optionSpec(name);
  if (spec.type === 'string' && spec.negatable) return `--${name} ${spec.placeholder}, --no-${name}`;
  if (spec.type !== 'boolean') return `--${name} ${spec.placeholder}`;
  return spec.short ? `-${spec.short}, --${name}` : `--${name}`;
}

export { argumentKey } from '../core/argument-key.js';

// The commands' arguments, derived from the table: a flag that is off, a list, or has a default is
// always there; any other is there only when given.
type Table = typeof OPTIONS;
type ArgumentFlag = Exclude<keyof Table, (typeof ACTION_FLAGS)[number]>;
type ArgumentKey<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<ArgumentKey<Tail>>}` : Name;
type ValueOf<Spec> = Spec extends { type: 'boolean' }
  ? boolean
  : Spec extends { list: true }
    ? string[]
    : Spec extends { type: 'number' }
      ? number
      : Spec extends { negatable: true }
        ? string | false
        : string;
type FlagOf<C extends CommandName> = { [Name in ArgumentFlag]: C extends Table[Name]['commands'][number] ? Name : never }[ArgumentFlag];
type AlwaysSet = { type: 'boolean'; optional?: never } | { list: true } | { default: string | number };
type SetFlagOf<C extends CommandName> = { [Name in FlagOf<C>]: Table[Name] extends AlwaysSet ? Name : never }[FlagOf<C>];
type Flatten<T> = { [K in keyof T]: T[K] };

/** The arguments a command's flags give it: `FlagsOf<'validate'>` is `{ channel: string[]; json: boolean; spec?: string; … }`. */
export type FlagsOf<C extends CommandName> = Flatten<
  { [Name in SetFlagOf<C> as ArgumentKey<Name>]: ValueOf<Table[Name]> } & {
    [Name in Exclude<FlagOf<C>, SetFlagOf<C>> as ArgumentKey<Name>]?: ValueOf<Table[Name]>;
  }
>;

/** A flag's value as the parser gives it. */
export type FlagValue = string | number | boolean | string[];

/** Whether a flag has a `--no-` form: an on/off flag, or a negatable one that takes a value. */
export function isNegatable(name: OptionName): boolean {
  const spec = optionSpec(name);
  return spec.type === 'boolean' || (spec.type === 'string' && spec.negatable === true);
}
