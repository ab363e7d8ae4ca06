/**
 * The library's options: what each field is, and the first vetting of an options object, before
 * any value is used: a key that is no option is a TypeError naming it (with the option it is likely
 * a typo of), and so is a value of the wrong type. The command line maps its flags onto these
 * fields (src/cli/options.ts says which flag sets which field).
 */
import type { PlatformRules, Contract } from '../contract/contract.js';
import type { CaseReport } from '../core/report.js';
import type { RecordedExchange } from '../http/client.js';
import { SCENARIO_SETTINGS, type SettingField } from '../scenarios/registry.js';
import type { Scenario } from '../scenarios/scenario.js';
import { closestName } from '../validate/did-you-mean.js';
import type { BaselineEntry } from './baseline.js';
import type { AgentExit } from './liveness.js';

/**
 * The options of a run. Every flag of the check has its field here (src/cli/options.ts maps one
 * onto the other); the built-in cases' own settings (`latencyBudgetSeconds`, `qualityConversations`)
 * are fields too, declared by their cases. Nothing is read from the environment unless `env` is given.
 */
export interface CheckEndpointOptions extends Partial<Record<SettingField, number>> {
  /** Channels to check: platform names or custom names; `all` means the contract's platforms. Default `whatsapp`. */
  channels?: readonly string[];
  /** Case ids to run, of any group (`voice-note`, `quality/auth`) or of `scenarios`; the five fixed cases and `scenarios` when left out. */
  cases?: readonly string[];
  /** Run the extended cases too (`voice-note`, `document`, `video`, `quote-own`), with the fixed ones. */
  extended?: boolean;
  /** Run the quality cases too (`quality/auth`, `quality/malformed`, ...), after the fixed ones. */
  quality?: boolean;
  /**
   * The team's scenarios (what `flow test` plays after the check): a folder of `*.yaml` files
   * (`tests/scenarios`), or the objects they parse to. Each is checked before anything is sent, and
   * each valid one's opening is played on its channels, every answer judged by every common rule.
   * A case of your own (from defineScenario) in the list is played as such, as before.
   */
  scenarios?: string | readonly (Scenario | Readonly<Record<string, unknown>>)[];
  /** Play only the scenarios of these ids (`flow test --only`); every scenario when left out. */
  onlyScenarios?: readonly string[];
  /** The environment variable that holds the bearer token. Default FLOW_FRAMEWORK_AGENT_TOKEN. */
  tokenEnv?: string;
  /**
   * Where the token variable, the `secretHeaders` variables and the proxy variables (HTTPS_PROXY,
   * NO_PROXY, ...) are read from. None when left out: pass `env: process.env` to read the process's
   * environment, as the command does.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** A .env file: the token variable and the `secretHeaders` variables are read from it when `env` does not set them. None when left out. */
  dotenv?: string;
  /** Headers sent with every request, as given: not for secrets. */
  headers?: Readonly<Record<string, string>>;
  /**
   * Headers whose values are read from variables: header name to variable name. Treated like the
   * token: never printed, `<redacted>` in every report. `authorization` takes the bearer token's
   * place (an agent behind basic auth).
   */
  secretHeaders?: Readonly<Record<string, string>>;
  /** Seconds the agent has for each answer; the contract's (60) when left out. */
  agentTimeoutSeconds?: number;
  /** Conversations in flight at once. Default 8. */
  concurrency?: number;
  /** The largest answer body accepted, in bytes. Default 10 MiB. */
  maxBodyBytes?: number;
  /** The contract; the bundled one when left out. */
  contract?: Contract;
  /** Another version of the contract, from an OpenAPI 3.1 file (instead of `contract`). */
  spec?: string;
  /**
   * Display rules for custom channels: by channel name, or as files, `[NAME=]FILE` (a file without
   * a NAME applies to every custom channel of the run).
   */
  limits?: Readonly<Record<string, PlatformRules>> | readonly string[];
  /** Warnings fail the case too. */
  strict?: boolean;
  /** Accept an https certificate the system does not trust (a self-signed one, for local use only). */
  insecure?: boolean;
  /** Expected failures: a baseline file, or its entries. Listed failures do not fail the run; a stale entry does. */
  baseline?: string | { file: string; entries: readonly BaselineEntry[] };
  /** How many times each case is played on each channel, each play its own conversation (1 to 100). Default 1. */
  runs?: number;
  /** Seconds to keep trying the HEAD probe until the agent answers. Default 0: one try. */
  waitSeconds?: number;
  /**
   * Stop after this many failed cases: nothing new is sent (no new case, no next turn), and the
   * cases left are reported as not run. Unlimited when left out.
   */
  maxFailures?: number;
  /** Play only these case and channel pairs of the cases and channels chosen (the command's --failed); every pair when left out. */
  only?: readonly CaseOnChannel[];
  /** Told of every HTTP exchange as it ends (the token redacted), for an HTTP archive. */
  onExchange?: (exchange: RecordedExchange) => void;
  /** Called as each case ends (or is given up: status `not-run`), with its report and its index in the report's `cases`. */
  onCase?: (caseReport: CaseReport, index: number) => void;
  /** Called as each play ends: how many plays are done of all, and how many of them failed. */
  onPlay?: (done: number, total: number, failed: number) => void;
  /**
   * Interrupts the run: nothing new is sent, exchanges in flight are aborted, and the report holds
   * what finished (outcome `interrupted`). Its reason, `SIGINT` or `SIGTERM`, sets the exit code.
   */
  signal?: AbortSignal;
  /** How the agent's process ended, once it has (a dead agent is then named so); the command's --start sets it. */
  agentExit?: AgentExit;
}

/** One case on one channel: `{ case: 'typed', channel: 'sms' }`. */
export interface CaseOnChannel {
  case: string;
  channel: string;
}

/** What a field holds, as its check and its TypeError say it. */
type FieldKind =
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
  | 'scenarios'
  | 'signal'
  | 'pairs';

/** Every field the options take, and what it holds: a field added to CheckEndpointOptions does not compile until it is here. */
const FIELD_KINDS = {
  channels: 'strings',
  cases: 'strings',
  extended: 'boolean',
  quality: 'boolean',
  scenarios: 'scenarios',
  onlyScenarios: 'strings',
  tokenEnv: 'string',
  env: 'environment',
  dotenv: 'string',
  headers: 'string record',
  secretHeaders: 'string record',
  agentTimeoutSeconds: 'number',
  concurrency: 'number',
  maxBodyBytes: 'number',
  contract: 'contract',
  spec: 'string',
  limits: 'limits',
  strict: 'boolean',
  insecure: 'boolean',
  baseline: 'baseline',
  runs: 'number',
  waitSeconds: 'number',
  maxFailures: 'number',
  only: 'pairs',
  onExchange: 'function',
  onCase: 'function',
  onPlay: 'function',
  signal: 'signal',
  agentExit: 'function',
} as const satisfies Record<Exclude<keyof CheckEndpointOptions, SettingField>, FieldKind>;

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
    takes: 'a folder of scenario files, or a list of scenarios (as their YAML parses to, or cases from defineScenario)',
    holds: (value) => typeof value === 'string' || (Array.isArray(value) && value.every(isRecord)),
  },
  signal: { takes: 'an AbortSignal', holds: (value) => value instanceof AbortSignal },
  pairs: {
    takes: 'a list of { case, channel }',
    holds: (value) =>
      Array.isArray(value) && value.every((item) => isRecord(item) && typeof item.case === 'string' && typeof item.channel === 'string'),
  },
};

function kindOf(field: string): FieldKind | undefined {
  return Object.hasOwn(FIELD_KINDS, field) ? FIELD_KINDS[field as keyof typeof FIELD_KINDS] : undefined;
}

/** Every option field: the run's own, then the cases' settings (the built-in cases', then `customSettings`). */
export function optionFields(customSettings: readonly string[] = []): string[] {
  return [...Object.keys(FIELD_KINDS), ...new Set([...SCENARIO_SETTINGS.map((setting) => setting.field), ...customSettings])];
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
 * Vets the keys and the value types of an options object: throws a TypeError for a key that is
 * no option (`case`: "did you mean cases?") or a value of the wrong type, naming the field.
 * A key left undefined counts as left out.
 */
export function vetOptionTypes(options: unknown): asserts options is CheckEndpointOptions {
  if (options === undefined) return;
  if (!isRecord(options)) throw new TypeError(`checkEndpoint's options must be an object; got ${described(options)}`);
  const scenarios: unknown[] = Array.isArray(options.scenarios) ? options.scenarios : [];
  const fields = optionFields(
    scenarios.flatMap((scenario) => (isRecord(scenario) && isRecord(scenario.settings) ? Object.keys(scenario.settings) : [])),
  );
  for (const [key, value] of Object.entries(options)) {
    if (!fields.includes(key)) {
      const meant = likelyField(key, fields);
      throw new TypeError(
        `"${key}" is not an option of checkEndpoint${meant === undefined ? '.' : `; did you mean ${meant}?`} The options: ${fields.join(', ')}`,
      );
    }
    if (value === undefined) continue;
    const check = KIND_CHECKS[kindOf(key) ?? 'number'];
    if (!check.holds(value)) throw new TypeError(`${key} must be ${check.takes}; got ${described(value)}`);
  }
}
