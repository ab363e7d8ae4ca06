/**
 * The library's options: their type, derived from the descriptor table (option-descriptors.ts), and
 * their resolution, once, before any value is used: a key that is no option (or one inherited
 * through the prototype) is a TypeError naming it (with the option it is likely a typo of), and so
 * is a value of the wrong type; a value the check cannot run with is an OptionError naming the
 * field; a value left out takes its default. The command line maps its flags onto these fields
 * from the same table.
 */
import type { PlatformRules, Contract } from '../contract/contract.js';
import type { CaseReport } from '../core/report.js';
import { OptionError } from '../core/option-error.js';
import type { RecordedExchange } from '../http/client.js';
import { SETTING_OPTIONS, type SettingField } from '../cases/registry.js';
import { settingsOf } from '../cases/case-settings.js';
import type { JsonValue, Case, KeptConversation } from '../cases/case.js';
import { closestName } from '../validate/did-you-mean.js';
import type { BaselineEntry } from './baseline.js';
import type { AgentExit } from './liveness.js';
import type { FieldKind, Flatten } from './option-descriptor.js';
import { DESCRIBED, type Descriptors, type OptionField, descriptorOf } from './option-descriptors.js';

/** The type of the value each kind of option holds (a callback's type is its own: RunHooks). */
interface KindTypes {
  string: string;
  number: number;
  boolean: boolean;
  strings: readonly string[];
  'string record': Readonly<Record<string, string>>;
  environment: Readonly<Record<string, string | undefined>>;
  contract: Contract;
  limits: Readonly<Record<string, PlatformRules>> | readonly string[];
  baseline: string | { file: string; entries: readonly BaselineEntry[] };
  cases: readonly Case[];
  scenarios: string | readonly (Case | Readonly<Record<string, unknown>>)[];
  'case settings': Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;
  signal: AbortSignal;
}

type KindOf<F extends OptionField> = Descriptors[F]['kind'];
type ValueField = { [F in OptionField]: KindOf<F> extends keyof KindTypes ? F : never }[OptionField];
type ValueOf<F extends OptionField> = KindTypes[KindOf<F> & keyof KindTypes];

/** The options that hold values, from the table: `channels?: readonly string[]`, `concurrency?: number`, … */
type ValueOptions = { [F in ValueField]?: ValueOf<F> };

/** The callbacks a run tells as it goes (the table's options of kind `function`). */
export interface RunHooks {
  /** Told of every HTTP exchange as it ends (the token redacted), for an HTTP archive. */
  onExchange?: (exchange: RecordedExchange) => void;
  /** Called as each case ends (or is given up: status `not-run`), with its report and its index in the report's `cases`. */
  onCase?: (caseReport: CaseReport, index: number) => void;
  /** Called as each play ends: how many plays are done of all, and how many of them failed. */
  onPlay?: (done: number, total: number, failed: number) => void;
  /** Called as a long case goes (explore: after each of its conversations): the case, its channel, and its turns sent of its budget. */
  onCaseProgress?: (progress: CaseProgress) => void;
}

/** How far a long case has gone: `explore` on `whatsapp`, 120 of 300 turns, 1 problem found so far. */
export interface CaseProgress {
  case: string;
  channel: string;
  done: number;
  total: number;
  found: number;
}

// The table's callbacks and RunHooks agree: one without the other does not compile.
type HookField = { [F in OptionField]: KindOf<F> extends 'function' ? F : never }[OptionField];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type HooksMatchTable = Same<keyof RunHooks, HookField> extends true ? true : never;
const HOOKS_MATCH_TABLE: HooksMatchTable = true;
void HOOKS_MATCH_TABLE;

/**
 * The options of a run, one field per entry of the descriptor table (option-descriptors.ts says
 * what each is); the built-in cases' older setting fields (`latencyBudgetSeconds`,
 * `qualityConversations`) besides. Nothing is read from the environment unless `env` is given.
 */
export interface CheckEndpointOptions extends ValueOptions, RunHooks, Partial<Record<SettingField, number>> {}

/** One case on one channel: `{ case: 'typed', channel: 'sms' }`. */
export interface CaseOnChannel {
  case: string;
  channel: string;
}

/** What only the command gives a run, beside the library's options: not part of CheckEndpointOptions. */
export interface CommandOptions {
  /** Play only these case and channel pairs of the cases and channels chosen (--failed); every pair when left out. */
  only?: readonly CaseOnChannel[];
  /** Play these case and channel pairs first, then the rest (--failed-first, and each run of --watch); the report keeps its order. */
  first?: readonly CaseOnChannel[];
  /** How the agent's process ended, once it has (a dead agent is then named so); --start sets it. */
  agentExit?: AgentExit;
  /** Conversations --explore found failing in earlier runs (.check-endpoint/explore.json): played first. */
  exploreKept?: readonly KeptConversation[];
  /** --failed: --explore plays only those, exploring nothing new. */
  exploreKeptOnly?: boolean;
}

/** The options as resolved: each value given, or its default (a field without one stays undefined when left out). */
export type ResolvedOptions = Flatten<
  { [F in ValueField]: Descriptors[F] extends { default: unknown } ? ValueOf<F> : ValueOf<F> | undefined } & RunHooks
> & {
  /** The value given for a field (before defaults), or undefined: a case setting's older field (`latencyBudgetSeconds`) too. */
  givenValue(field: string): unknown;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown, allowUndefined = false): boolean {
  return isRecord(value) && Object.values(value).every((item) => typeof item === 'string' || (allowUndefined && item === undefined));
}

const KIND_CHECKS: Record<FieldKind, { takes: string; holds: (value: unknown) => boolean }> = {
  string: { takes: 'a string', holds: (value) => typeof value === 'string' },
  number: { takes: 'a number', holds: (value) => typeof value === 'number' },
  boolean: { takes: 'true or false', holds: (value) => typeof value === 'boolean' },
  strings: {
    takes: 'a list of strings',
    holds: (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
  },
  'string record': { takes: 'an object of strings ({ name: "value" })', holds: (value) => isStringRecord(value) },
  environment: { takes: 'an object of strings, such as process.env', holds: (value) => isStringRecord(value, true) },
  function: { takes: 'a function', holds: (value) => typeof value === 'function' },
  contract: {
    takes: 'a contract (from loadContract or bundledContract)',
    holds: (value) => isRecord(value) && isRecord(value.platforms) && typeof value.agentTimeoutSeconds === 'number',
  },
  limits: {
    takes: 'an object of display rules by channel, or a list of "[NAME=]FILE" strings',
    holds: (value) =>
      (Array.isArray(value) && value.every((item) => typeof item === 'string')) ||
      (isRecord(value) && Object.values(value).every(isRecord)),
  },
  baseline: {
    takes: 'a baseline file name, or { file, entries }',
    holds: (value) => typeof value === 'string' || (isRecord(value) && typeof value.file === 'string' && Array.isArray(value.entries)),
  },
  scenarios: {
    takes: 'a folder of scenario files, or a list of scenarios (as their YAML parses to)',
    holds: (value) => typeof value === 'string' || (Array.isArray(value) && value.every(isRecord)),
  },
  cases: {
    takes: 'a list of cases (from defineCase)',
    holds: (value) =>
      Array.isArray(value) && value.every((item) => isRecord(item) && typeof item.id === 'string' && typeof item.run === 'function'),
  },
  signal: { takes: 'an AbortSignal', holds: (value) => value instanceof AbortSignal },
  'case settings': {
    takes: 'an object of settings by case id: { "quality/latency": { budgetMs: 2000 } }',
    holds: (value) => isRecord(value) && Object.values(value).every(isRecord),
  },
};

/** Every option field: the table's, then the cases' older setting fields (the built-in cases', then `customSettings`). */
export function optionFields(customSettings: readonly string[] = []): string[] {
  return [
    ...DESCRIBED.map((descriptor) => descriptor.field),
    ...new Set([...SETTING_OPTIONS.map((option) => option.field), ...customSettings]),
  ];
}

/** A JSON-ish glimpse of a wrong value, for the TypeError: its type, never more than a few characters of it. */
function described(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 20 ? `${value.slice(0, 19)}…` : value)})`;
  return typeof value === 'object' ? 'an object' : `${typeof value === 'number' ? 'the number' : typeof value} ${String(value)}`;
}

/** The field a key is likely meant for: one it begins (`latencyBudget`, `wait`), or one a typo away (`case`, `tokenENV`). */
function likelyField(key: string, fields: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const begun = lower.length >= 3 ? fields.find((field) => field.toLowerCase().startsWith(lower)) : undefined;
  return begun ?? closestName(key, fields);
}

/**
 * Resolves a run's options, once: vets the keys and the value types (a TypeError for a key that is
 * no option, `case`: "did you mean cases?", for a key inherited through the prototype, and for a
 * value of the wrong type, naming the field), then each value against its descriptor (an
 * OptionError naming the field), and fills in the defaults. A key left undefined counts as left out.
 */
export function resolveOptions(options: unknown): ResolvedOptions {
  if (options !== undefined && !isRecord(options))
    throw new TypeError(`checkEndpoint's options must be an object; got ${described(options)}`);
  const given = ownOptions(options ?? {});
  const own: unknown[] = [given.customCases, given.scenarios].flatMap((list) => (Array.isArray(list) ? list : []));
  const custom = own.filter((testCase): testCase is Case => isRecord(testCase) && isRecord(testCase.settings));
  const fields = optionFields(settingsOf(custom).flatMap((setting) => (setting.option ? [setting.option.field] : [])));
  for (const [key, value] of Object.entries(given)) {
    if (!fields.includes(key)) {
      const meant = likelyField(key, fields);
      throw new TypeError(
        `"${key}" is not an option of checkEndpoint${meant === undefined ? '.' : `; did you mean ${meant}?`} The options: ${fields.join(', ')}`,
      );
    }
    if (value === undefined) continue;
    const check = KIND_CHECKS[descriptorOf(key)?.kind ?? 'number'];
    if (!check.holds(value)) throw new TypeError(`${key} must be ${check.takes}; got ${described(value)}`);
  }
  const resolved: Record<string, unknown> = {};
  for (const { field, validate, default: fallback } of DESCRIBED) {
    const value = given[field];
    const problem = typeof value === 'number' ? validate?.(value) : undefined;
    if (problem !== undefined) throw new OptionError(field, (on) => `${on.name(field)} ${problem}; got ${value}`);
    resolved[field] = value ?? fallback;
  }
  // Each field of the table, of the type its kind checked above, or its default (of the same type).
  return { ...(resolved as Omit<ResolvedOptions, 'givenValue'>), givenValue: (field) => given[field] };
}

/**
 * The options' own enumerable keys, as a plain object: a key inherited through the prototype
 * (`Object.create({ token: 'x' })`) would be read by `options.token` yet is no key of the object,
 * so it is refused as an unknown key would be.
 */
function ownOptions(options: Record<string, unknown>): Record<string, unknown> {
  for (const key in options) {
    if (!Object.hasOwn(options, key)) {
      throw new TypeError(
        `"${key}" is inherited through the options' prototype, not a key of their own: checkEndpoint reads only an options object's own keys (spread the defaults in: { ...defaults, cases: [...] })`,
      );
    }
  }
  return Object.fromEntries(Object.entries(options));
}
