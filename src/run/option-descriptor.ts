/**
 * What a descriptor of an option is (src/run/option-descriptors.ts holds the table): the option's
 * kind, default, check and help, and the flag that sets it, as the command line parses it and help
 * shows it; and the value a flag gives the command.
 */
import type { CommandName } from '../core/command-name.js';

interface FlagBase {
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
export interface BooleanFlag extends FlagBase {
  type: 'boolean';
  /** A one-letter form: `-h`. */
  short?: string;
  /** Left unset when not given, rather than off: something else decides then (--color: the environment). */
  optional?: true;
}

export interface StringFlag extends FlagBase {
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
  /** Given with no value (last on the line, or before another flag), it takes this one: `--scenarios` is `--scenarios tests/scenarios`. */
  valueWhenBare?: string;
}

export interface NumberFlag extends FlagBase {
  type: 'number';
  placeholder: string;
  default?: number;
  /** What values it takes, for the message when the value is not a number: `a whole number from 1 to 100`. */
  takes?: string;
}

/** A flag, as the command line parses it and help shows it. */
export type FlagSpec = BooleanFlag | StringFlag | NumberFlag;

/** What an option holds, as its check and its TypeError say it. */
export type FieldKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'strings'
  | 'string record'
  | 'environment'
  | 'function'
  | 'contract'
  | 'limits'
  | 'baseline'
  | 'cases'
  | 'scenarios'
  | 'signal'
  | 'case settings';

/** One option of a run. */
export interface OptionDescriptor {
  kind: FieldKind;
  /** What it is, for the library's user. */
  help: string;
  /** The value when it is left out; none: left out (the run decides, as `help` says). */
  default?: string | number | boolean;
  /** What a number given must be, as "must be …" (the message adds what came); undefined when it is taken. */
  validate?: (value: number) => string | undefined;
  /** The flag that sets it on the command line, named by `name`. */
  flag?: FlagSpec & { name: string };
  /** The command maps the flag onto the option by hand (src/commands/check.ts says how). */
  special?: true;
  /**
   * It decided what the run sent or how it judged it, so the record of the run keeps its flag and
   * --failed plays again with it (src/commands/recorded-flags.ts).
   */
  recorded?: true;
  /**
   * It changes what a case finds, so a failed turn's replay line repeats its flag when its value is
   * not the default (src/run/reproduce-target.ts, reproduceFlags); the record keeps it too.
   */
  reproduce?: true;
}

/** A flag's value as the command gets it. */
export type FlagValueOf<Spec> = Spec extends { type: 'boolean' }
  ? boolean
  : Spec extends { list: true }
    ? string[]
    : Spec extends { type: 'number' }
      ? number
      : Spec extends { negatable: true }
        ? string | false
        : string;
/** A flag the command always gets a value for. */
export type AlwaysSet = { type: 'boolean'; optional?: never } | { list: true } | { default: string | number };
export type Flatten<T> = { [K in keyof T]: T[K] };
