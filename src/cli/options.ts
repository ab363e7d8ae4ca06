/**
 * Every flag of every command, in one table: the parser reads it, help is written from it, and the
 * commands' argument types are derived from it. A new flag is one entry here (and, if a command's
 * argument interface names it, one field there: parse.ts does not compile until both agree). The
 * cases' own settings (--latency-budget, --quality-conversations) join the table from the case
 * registry; each flag of the check names the library option (`field`) it sets, and the CLI says
 * the library's errors again naming the flag (FLAG_NAMES).
 */
import type { OptionNames } from '../core/option-error.js';
import { SETTING_OPTIONS } from '../cases/registry.js';
import { REPORT_FORMATS, reportDirFiles } from '../report/formats.js';
import { DESCRIBED, type Descriptors } from '../run/option-descriptors.js';
import type { AlwaysSet, BooleanFlag, FlagSpec, FlagValueOf, Flatten, NumberFlag, StringFlag } from '../run/option-descriptor.js';
import { type CommandName, NAMED_COMMANDS } from './commands.js';

export type BooleanOption = BooleanFlag;
export type StringOption = StringFlag;
export type NumberOption = NumberFlag;
export type OptionSpec = FlagSpec;

// Literal lists, so that the argument types below know which command takes which flag.
const CHECK = ['check', 'demo'] as const satisfies readonly CommandName[];
const CHECK_AND_VALIDATE = ['check', 'demo', 'validate'] as const satisfies readonly CommandName[];
const EVERY_COMMAND = ['check', ...NAMED_COMMANDS] as const satisfies readonly CommandName[];
/** The commands that print for people, in colour where wanted. */
const PRINTING = ['check', 'demo', 'validate', 'show'] as const satisfies readonly CommandName[];

/** The flags that set a run's options, from the descriptor table (src/run/option-descriptors.ts), each with the field it sets. */
type RunFlags = {
  [F in keyof Descriptors as Descriptors[F] extends { flag: { name: infer Name extends string } } ? Name : never]: Descriptors[F] extends {
    flag: infer Flag;
  }
    ? Omit<Flag, 'name'> & { field: F }
    : never;
};
// Each flag as the descriptor gives it, under its name, with its field: the shape RunFlags names.
const RUN_FLAGS = Object.fromEntries(
  DESCRIBED.flatMap(({ field, flag }) => {
    if (flag === undefined) return [];
    const { name, ...spec } = flag;
    return [[name, { ...spec, field }]];
  }),
) as RunFlags;

/** The command's own flags: what the command does with the report and the run, beyond the run's options. */
const COMMAND_FLAGS = {
  'person-message-id': {
    type: 'string',
    list: true,
    placeholder: 'ID',
    commands: ['validate'],
    description: 'A person message id of the conversation; replyTo and reactions must name one',
  },
  json: {
    type: 'boolean',
    commands: [...CHECK_AND_VALIDATE, 'limits', 'show', 'scenarios'],
    description: 'Print the report as one JSON document on stdout (human lines go to stderr)',
    descriptionOn: {
      validate: 'Print the result as JSON on stdout',
      limits: 'Print the limits as one JSON document on stdout',
      show: "Print the last run's record as it is stored (its schema: `check-endpoint spec last-run`)",
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
    description:
      'Print only the digest (each problem once, with its fix and a reproduce line) and the summary: no case line, no note of the record; a passing run without warnings prints its summary line alone',
  },
  color: {
    type: 'boolean',
    optional: true,
    commands: PRINTING,
    description: 'Colour the output, or (--no-color) not, whatever NO_COLOR and FORCE_COLOR say',
    defaultDescription: 'colour on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it',
  },
  'report-dir': {
    type: 'string',
    placeholder: 'DIR',
    commands: CHECK,
    description: `Write ${reportDirFiles()} into this folder`,
  },
  start: {
    type: 'string',
    placeholder: 'COMMAND',
    commands: ['check', 'chat'],
    descriptionOn: {
      chat: 'Start the agent with this shell command and wait for its URL to answer before serving the page; its output is shown on the page, with a button that restarts it; stopped with the page (SIGTERM, SIGKILL after 5 s)',
    },
    description:
      'Start the agent with this shell command, wait for its URL to answer, check it, then stop it (SIGTERM, SIGKILL after 5 s); its output goes to agent.log in --report-dir (or .check-endpoint/), its last lines shown only when it dies during the run. Something already answering at the URL is refused (exit 2); the command exiting at any time fails the run',
  },
  'reuse-existing': {
    type: 'boolean',
    commands: ['check'],
    description: 'With --start: when something already answers at the URL, check it and do not start the command',
  },
  failed: {
    type: 'boolean',
    commands: CHECK,
    description:
      'Play only the cases (on their channels) that failed, were flaky or were not run in the last run, as .check-endpoint/last-run.json records it; with nothing to rerun, says so and exits 0',
  },
  'failed-first': {
    type: 'boolean',
    commands: ['check'],
    description:
      'Play every case, those that failed, were flaky or were not run in the last run (.check-endpoint/last-run.json) first, as pytest --ff does; with no run recorded, in the usual order',
  },
  watch: {
    type: 'boolean',
    commands: ['check'],
    description:
      "Check again on every change to a file of the agent's folder (the current one, or --watch-dir), the --start agent restarted (without --start, once the agent's own reload answers again), what failed first; prints what changed since the last run. Enter plays again, q quits with the last run's exit code",
  },
  'watch-dir': {
    type: 'string',
    placeholder: 'DIR',
    commands: ['check'],
    description:
      'With --watch: the folder to watch (.git, node_modules, vendor, __pycache__, virtual environments, build outputs such as dist, build, target and tmp, the reports, .check-endpoint and what its .gitignore files leave out are left out)',
    defaultDescription: 'the current folder',
  },
  'watch-ignore': {
    type: 'string',
    list: true,
    placeholder: 'PATTERN',
    commands: ['check'],
    description:
      "With --watch: leave out what this gitignore pattern matches, relative to the watched folder (logs/, '*.jsonl'), as the agent's .gitignore files are",
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
    commands: ['check', 'chat'],
    description:
      'Read the URL and flags from this JSON file (keys: the flags in camelCase; flags given win); --no-config reads none. Its schema: `check-endpoint spec config`',
    defaultDescription: 'check-endpoint.config.json in the current folder, if there is one',
  },
  verbose: {
    type: 'boolean',
    commands: CHECK,
    description:
      "Also show every failed turn's reproduce line under its case (the digest shows one per problem), and the --start agent's last lines when it did not die (its whole output is in agent.log)",
  },
  open: {
    type: 'boolean',
    commands: ['chat'],
    description: "Open the page in the system's browser (xdg-open, open or start)",
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
  lint: {
    type: 'boolean',
    commands: ['scenarios'],
    description: 'Check the files alone: parse them and check each key this checker reads, sending nothing (the only thing scenarios does)',
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

/** The table: the run's flags, then the command's own. Help lists a command's flags in this order. */
export const OPTIONS = { ...RUN_FLAGS, ...COMMAND_FLAGS } as const satisfies Readonly<Record<string, OptionSpec>>;

/**
 * The flags of the cases' own settings, from the registry: `--latency-budget` sets quality/latency's
 * `latencyBudgetSeconds`. Check flags, listed by help after --quality.
 */
const SETTING_FLAGS: Readonly<Record<string, NumberOption>> = Object.fromEntries(
  SETTING_OPTIONS.flatMap((option) =>
    option.flag === undefined
      ? []
      : [
          [
            option.flag,
            {
              type: 'number',
              placeholder: option.placeholder,
              commands: CHECK,
              description: option.description,
              defaultDescription: String(option.default),
              field: option.field,
            },
          ],
        ],
  ),
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
      ? [[name, spec], ...Object.entries(SETTING_FLAGS)]
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
type ValueOf<Spec> = FlagValueOf<Spec>;
type FlagOf<C extends CommandName> = { [Name in ArgumentFlag]: C extends Table[Name]['commands'][number] ? Name : never }[ArgumentFlag];
type SetFlagOf<C extends CommandName> = { [Name in FlagOf<C>]: Table[Name] extends AlwaysSet ? Name : never }[FlagOf<C>];

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
