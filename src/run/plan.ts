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
import { type ProxyChoice, proxyFor } from '../http/proxy.js';
import type { SentCredentials } from '../validate/judge-exchange.js';
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
import { readDotenv } from './dotenv.js';
import type { CurlHeader } from './reproduce.js';
import { type Lookup, NOT_IN_A_HEADER, type PlannedHeader, type VariableSource, planHeaders } from './request-headers.js';

export interface CheckEndpointOptions {
  /** Channels to check: platform names or custom names; `all` means the contract's platforms. Default `whatsapp`. */
  channels?: readonly string[];
  /** Case ids to run, of any group (`voice-note`, `quality/auth`); the five fixed cases when left out. */
  cases?: readonly string[];
  /** Run the extended cases too (`voice-note`, `document`, `video`, `quote-own`), with the fixed ones. */
  extended?: boolean;
  /** The environment variable that holds the bearer token. Default FLOW_FRAMEWORK_AGENT_TOKEN. */
  tokenEnv?: string;
  /** Where the token variable, the --header-env variables and the proxy variables are read from. Default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * A .env file (`--dotenv`): the token variable and the --header-env variables are read from it
   * when `env` does not set them. The command reads `.env` in the current folder unless told
   * otherwise; the library reads none unless given one.
   */
  dotenv?: string;
  /** Headers sent with every request, as given (`--header`): not for secrets. */
  headers?: Readonly<Record<string, string>>;
  /**
   * Headers whose values are read from variables (`--header-env`): header name to variable name.
   * Treated like the token: never printed, `<redacted>` in every report. `authorization` takes the
   * bearer token's place (an agent behind basic auth).
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
  /** Called as each play ends: how many plays are done of all, and how many of them failed. */
  onPlay?: (done: number, total: number, failed: number) => void;
  /** How many times each case is played on each channel, each play its own conversation (--runs, 1 to 100). Default 1. */
  runs?: number;
  /** Seconds to keep trying the HEAD probe until the agent answers (--wait). Default 0: one try. */
  waitSeconds?: number;
  /**
   * Stop after this many failed cases (--max-failures): nothing new is sent (no new case, no next
   * turn), and the cases left are reported as not run. Unlimited when left out.
   */
  maxFailures?: number;
  /**
   * Play only these case and channel pairs (--failed) of the cases and channels chosen; every pair
   * when left out.
   */
  only?: readonly CaseOnChannel[];
  /**
   * Interrupts the run: nothing new is sent, exchanges in flight are aborted, and the report holds
   * what finished (outcome `interrupted`). Its reason, `SIGINT` or `SIGTERM`, sets the exit code.
   */
  signal?: AbortSignal;
  /** Under --start: how the agent's process ended, once it has (a dead agent is then named so). */
  agentExit?: AgentExit;
}

/** One case on one channel: `{ case: 'typed', channel: 'sms' }`. */
export interface CaseOnChannel {
  case: string;
  channel: string;
}

export interface CheckPlan {
  url: URL;
  contract: Contract;
  channels: string[];
  /** The cases to play, in the registry's order: the fixed and extended cases chosen, then the quality cases. */
  scenarios: Scenario[];
  /** The bearer token, unless none is set or --header-env gives the authorization header instead. */
  token: string | undefined;
  /** The token's environment variable (its value is `token`), and where it was set. */
  tokenEnv: string;
  tokenSource: VariableSource | undefined;
  /** The .env file read, if any. */
  dotenvFile: string | undefined;
  /** Sent with every request besides the checker's own (--header, --header-env). */
  headers: PlannedHeader[];
  /** The proxy every request goes through (HTTPS_PROXY and the like), or undefined. */
  proxy: ProxyChoice | undefined;
  timeoutSeconds: number;
  concurrency: number;
  maxBodyBytes: number;
  limits: Readonly<Record<string, PlatformRules>>;
  strict: boolean;
  insecure: boolean;
  qualityConversations: number;
  latencyBudgetSeconds: number;
  waitSeconds: number;
  runs: number;
  /** Failed cases after which the run stops (--max-failures), or undefined: no limit. */
  maxFailures: number | undefined;
  /** The only case and channel pairs played (--failed), or undefined: every pair. */
  only: readonly CaseOnChannel[] | undefined;
}

function positive(value: number | undefined, fallback: number, what: string, integer: boolean, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new UsageError(`${what} must be a positive ${integer ? 'whole number' : 'number'}; got ${value}`);
  }
  if (value > max) throw new UsageError(`${what} must be at most ${max}; got ${value}`);
  return value;
}

/** The most plays of a case --runs takes. */
export const MAX_RUNS = 100;

/** --runs: a whole number from 1 to 100; 1 when left out. */
function runs(value: number | undefined): number {
  if (value === undefined) return 1;
  if (!Number.isInteger(value) || value < 1 || value > MAX_RUNS) {
    throw new UsageError(`--runs must be a whole number from 1 to ${MAX_RUNS}; got ${value}`);
  }
  return value;
}

/** --wait: 0 (one try, the default) or more seconds. */
function waitSeconds(value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`--wait must be a number of seconds, 0 or more; got ${value}`);
  if (value > MAX_WAIT_SECONDS) throw new UsageError(`--wait must be at most ${MAX_WAIT_SECONDS}; got ${value}`);
  return value;
}

/** Variables from the environment, or else from the .env file: a variable already set wins. */
function variableLookup(
  env: Readonly<Record<string, string | undefined>>,
  dotenv: Record<string, string>,
  file: string | undefined,
): Lookup {
  return (variable) => {
    const set = env[variable];
    if (set !== undefined) return { value: set, source: { from: 'environment' } };
    if (file !== undefined && Object.hasOwn(dotenv, variable)) return { value: dotenv[variable]!, source: { from: 'dotenv', file } };
    return undefined;
  };
}

/** The token from its variable, vetted; undefined when none is set (and none was asked for). */
function readToken(
  options: CheckEndpointOptions,
  tokenEnv: string,
  lookup: Lookup,
  where: string,
): { token: string; source: VariableSource } | undefined {
  if (tokenEnv === '') throw new UsageError('--token-env needs the name of an environment variable');
  const found = lookup(tokenEnv);
  const token = found?.value;
  if (options.tokenEnv !== undefined && !token) {
    throw new UsageError(
      `--token-env names ${tokenEnv}, but that environment variable is ${token === undefined ? `not set (${where})` : 'empty'}`,
    );
  }
  if (token && NOT_IN_A_HEADER.test(token)) {
    // Said without the value: a token pasted with a trailing newline is common.
    throw new UsageError(
      `${tokenEnv} holds a line break or a character an HTTP header cannot carry; check how it was set (a trailing newline is common)`,
    );
  }
  return token && found ? { token, source: found.source } : undefined;
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
  const env = options.env ?? process.env;
  const dotenv = options.dotenv === undefined ? {} : readDotenv(options.dotenv, '--dotenv');
  const lookup = variableLookup(env, dotenv, options.dotenv);
  const where = options.dotenv === undefined ? 'in the environment' : `in the environment or ${options.dotenv}`;
  const headers = planHeaders(options.headers, options.secretHeaders, lookup, where);
  // --header-env authorization=VAR takes the bearer token's place.
  const token = headers.some((header) => header.name === 'authorization') ? undefined : readToken(options, tokenEnv, lookup, where);
  return {
    url,
    contract,
    channels: resolveChannels(options.channels ?? [], contract, Object.keys(options.limits ?? {})),
    scenarios: chooseScenarios(options.cases, options.extended ?? false, options.quality ?? false),
    token: token?.token,
    tokenEnv,
    tokenSource: token?.source,
    dotenvFile: options.dotenv,
    headers,
    proxy: proxyFor(url, env),
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
    runs: runs(options.runs),
    maxFailures: options.maxFailures === undefined ? undefined : positive(options.maxFailures, 1, '--max-failures', true),
    only: options.only,
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

/** What every request carries to prove who sent it, by variable, for the hints of a 401 or 403. */
export function sentCredentials(plan: CheckPlan): SentCredentials {
  const variable = plan.headers.find((candidate) => candidate.name === 'authorization')?.variable;
  return {
    authorization: variable ? { from: 'header-env', variable } : plan.token ? { from: 'token', variable: plan.tokenEnv } : undefined,
    tokenEnv: plan.tokenEnv,
    secretHeaders: plan.headers.filter((candidate) => candidate.secret).map((candidate) => candidate.name),
  };
}

/** The headers a reproduce line sends: the token and secret headers by their variables, the others as given. */
export function reproduceHeaders(plan: CheckPlan): CurlHeader[] {
  const token: CurlHeader[] = plan.token ? [{ name: 'authorization', variable: plan.tokenEnv, prefix: 'Bearer ' }] : [];
  return [
    ...token,
    ...plan.headers.map((header): CurlHeader =>
      header.variable ? { name: header.name, variable: header.variable } : { name: header.name, value: header.value },
    ),
  ];
}
