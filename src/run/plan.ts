/**
 * The run, planned: options resolved against their defaults and vetted (a UsageError for anything
 * the check cannot run with, before anything is sent), and the cases chosen from the registry.
 */
import type { ChannelReport } from '../core/report.js';
import { UsageError } from '../core/usage-error.js';
import type { Contract, PlatformRules } from '../contract/contract.js';
import { MAX_WAIT_SECONDS } from '../contract/contract.js';
import { bundledContract } from '../contract/load-contract.js';
import type { RecordedExchange } from '../http/client.js';
import { ALL_CASE_IDS, CASE_IDS, EXTENDED_SCENARIOS, QUALITY_SCENARIOS, SCENARIOS, isAnyCaseId } from '../scenarios/registry.js';
import type { Scenario } from '../scenarios/scenario.js';
import type { CaseReport } from '../core/report.js';
import type { BaselineEntry } from './baseline.js';
import type { AgentExit } from './liveness.js';
import { resolveChannels } from './channels.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_LATENCY_BUDGET_SECONDS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_QUALITY_CONVERSATIONS,
  DEFAULT_TOKEN_ENV,
} from './defaults.js';
import { parseTargetUrl } from './target-url.js';

export interface CheckEndpointOptions {
  /** Channels to check: platform names or custom names; `all` means the contract's platforms. Default `whatsapp`. */
  channels?: readonly string[];
  /** Case ids to run, of any group (`voice-note`, `quality/auth`); the five fixed cases when left out. */
  cases?: readonly string[];
  /** Run the extended cases too (`voice-note`, `document`, `video`, `quote-own`), with the fixed ones. */
  extended?: boolean;
  /** The environment variable that holds the bearer token. Default FLOW_FRAMEWORK_AGENT_TOKEN. */
  tokenEnv?: string;
  /** Where the token variable is read from. Default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Seconds the agent has for each answer; the contract's (60) when left out. */
  agentTimeoutSeconds?: number;
  /** Conversations in flight at once. Default 8. */
  concurrency?: number;
  /** The largest answer body accepted, in bytes. Default 10 MiB. */
  maxBodyBytes?: number;
  /** The contract; the bundled one when left out. */
  contract?: Contract;
  /** Display rules for custom channels, by channel name (`--limits`). */
  limits?: Readonly<Record<string, PlatformRules>>;
  /** Warnings fail the case too. */
  strict?: boolean;
  /** Accept an https certificate the system does not trust (a self-signed one, for local use only). */
  insecure?: boolean;
  /** Run the quality cases too (`quality/auth`, `quality/malformed`, ...), after the fixed ones. */
  quality?: boolean;
  /** Conversations at once in `quality/concurrency`. Default 8. */
  qualityConversations?: number;
  /** p95 latency above this many seconds is a warning in `quality/latency`. Default 10. */
  latencyBudgetSeconds?: number;
  /** Expected failures (--baseline): listed failures do not fail the run; a stale entry does. */
  baseline?: { file: string; entries: readonly BaselineEntry[] };
  /** Told of every HTTP exchange as it ends (the token redacted), for an HTTP archive. */
  onExchange?: (exchange: RecordedExchange) => void;
  /** Called as each case ends (or is given up: status `not-run`), with its report and its index in the report's `cases`. */
  onCase?: (caseReport: CaseReport, index: number) => void;
  /** Seconds to keep trying the HEAD probe until the agent answers (--wait). Default 0: one try. */
  waitSeconds?: number;
  /**
   * Interrupts the run: nothing new is sent, exchanges in flight are aborted, and the report holds
   * what finished (outcome `interrupted`). Its reason, `SIGINT` or `SIGTERM`, sets the exit code.
   */
  signal?: AbortSignal;
  /** Under --start: how the agent's process ended, once it has (a dead agent is then named so). */
  agentExit?: AgentExit;
}

export interface CheckPlan {
  url: URL;
  contract: Contract;
  channels: string[];
  /** The cases to play, in the registry's order: the fixed and extended cases chosen, then the quality cases. */
  scenarios: Scenario[];
  token: string | undefined;
  /** The token's environment variable (its value is `token`). */
  tokenEnv: string;
  timeoutSeconds: number;
  concurrency: number;
  maxBodyBytes: number;
  limits: Readonly<Record<string, PlatformRules>>;
  strict: boolean;
  insecure: boolean;
  qualityConversations: number;
  latencyBudgetSeconds: number;
  waitSeconds: number;
}

function positive(value: number | undefined, fallback: number, what: string, integer: boolean, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new UsageError(`${what} must be a positive ${integer ? 'whole number' : 'number'}; got ${value}`);
  }
  if (value > max) throw new UsageError(`${what} must be at most ${max}; got ${value}`);
  return value;
}

/** --wait: 0 (one try, the default) or more seconds. */
function waitSeconds(value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`--wait must be a number of seconds, 0 or more; got ${value}`);
  if (value > MAX_WAIT_SECONDS) throw new UsageError(`--wait must be at most ${MAX_WAIT_SECONDS}; got ${value}`);
  return value;
}

/** Characters an HTTP header value cannot carry: line breaks, NUL, and anything past Latin-1. */
const NOT_IN_A_HEADER = /[\r\n\0]|[^\t\x20-\x7e\x80-\xff]/;

/** The token from its variable, vetted; undefined when none is set (and none was asked for). */
function readToken(options: CheckEndpointOptions, tokenEnv: string): string | undefined {
  const env = options.env ?? process.env;
  if (tokenEnv === '') throw new UsageError('--token-env needs the name of an environment variable');
  const token = env[tokenEnv];
  if (options.tokenEnv !== undefined && !token) {
    throw new UsageError(`--token-env names ${tokenEnv}, but that environment variable is ${token === undefined ? 'not set' : 'empty'}`);
  }
  if (token && NOT_IN_A_HEADER.test(token)) {
    // Said without the value: a token pasted with a trailing newline is common.
    throw new UsageError(
      `${tokenEnv} holds a line break or a character an HTTP header cannot carry; check how it was set (a trailing newline is common)`,
    );
  }
  return token || undefined;
}

/**
 * The chosen cases, in the registry's order: those --case names (of any group), else the fixed
 * five; with --extended every extended case besides, with --quality every quality case.
 */
function chooseScenarios(cases: readonly string[] | undefined, extended: boolean, quality: boolean): Scenario[] {
  const ids: string[] = cases?.length ? [...cases] : [...CASE_IDS];
  for (const id of ids) {
    if (!isAnyCaseId(id)) throw new UsageError(`"${id}" is not a case; the cases are ${ALL_CASE_IDS.join(', ')}`);
  }
  const chosen = new Set<Scenario>([
    ...SCENARIOS.filter((scenario) => ids.includes(scenario.id)),
    ...(extended ? EXTENDED_SCENARIOS : []),
    ...(quality ? QUALITY_SCENARIOS : []),
  ]);
  return SCENARIOS.filter((scenario) => chosen.has(scenario));
}

/** Resolves and vets the options. Throws UsageError for anything the check cannot run with. */
export function planCheck(target: string, options: CheckEndpointOptions = {}): CheckPlan {
  const contract = options.contract ?? bundledContract();
  const tokenEnv = options.tokenEnv ?? DEFAULT_TOKEN_ENV;
  const url = parseTargetUrl(target, tokenEnv);
  return {
    url,
    contract,
    channels: resolveChannels(options.channels ?? [], contract, Object.keys(options.limits ?? {})),
    scenarios: chooseScenarios(options.cases, options.extended ?? false, options.quality ?? false),
    token: readToken(options, tokenEnv),
    tokenEnv,
    timeoutSeconds: positive(options.agentTimeoutSeconds, contract.agentTimeoutSeconds, '--agent-timeout', false, MAX_WAIT_SECONDS),
    concurrency: positive(options.concurrency, DEFAULT_CONCURRENCY, '--concurrency', true),
    maxBodyBytes: positive(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, '--max-body', true),
    limits: options.limits ?? {},
    strict: options.strict ?? false,
    insecure: options.insecure ?? false,
    qualityConversations: positive(options.qualityConversations, DEFAULT_QUALITY_CONVERSATIONS, '--quality-conversations', true),
    latencyBudgetSeconds: positive(
      options.latencyBudgetSeconds,
      DEFAULT_LATENCY_BUDGET_SECONDS,
      '--latency-budget',
      false,
      MAX_WAIT_SECONDS,
    ),
    waitSeconds: waitSeconds(options.waitSeconds),
  };
}

/** The channels as reported: each one's platform name, and where its display limits come from. */
export function channelReports(plan: CheckPlan): ChannelReport[] {
  return plan.channels.map((name) => {
    if (Object.hasOwn(plan.limits, name)) return { name, title: plan.limits[name]!.title, limits: 'file' };
    const rules = Object.hasOwn(plan.contract.platforms, name) ? plan.contract.platforms[name] : undefined;
    return { name, title: rules?.title ?? null, limits: rules ? 'spec' : 'none' };
  });
}
