/**
 * The run, planned: the one place a run's options are resolved, for the library and the command
 * alike. The options are vetted (a TypeError for a key that is no option or a value of the wrong
 * type, an OptionError naming the field for a value the check cannot run with), files named are
 * read (the contract, the limits, the baseline, the .env file), defaults filled in, and the cases
 * chosen from the registry and the run's own scenarios; all before anything is sent.
 */
import { promises as fs } from 'node:fs';
import type { ChannelReport, RuleReport } from '../core/report.js';
import { RULES } from '../core/findings.js';
import { ruleFactsOf } from './rule-facts.js';
import { CASE_ID } from '../core/ids.js';
import { OptionError } from '../core/option-error.js';
import { UsageError } from '../core/usage-error.js';
import type { Contract, PlatformRules } from '../contract/contract.js';
import { MAX_WAIT_SECONDS } from '../contract/contract.js';
import { answerValidators } from '../contract/compile-contract.js';
import { bundledContract, loadContract } from '../contract/load-contract.js';
import { type ProxyChoice, proxyFor } from '../http/proxy.js';
import type { SentCredentials } from '../validate/judge-exchange.js';
import {
  ALL_CASE_IDS,
  CASE_IDS,
  EXTENDED_SCENARIOS,
  QUALITY_SCENARIOS,
  SCENARIOS,
  SCENARIO_SETTINGS,
  ruleIdsOf,
  settingsOf,
} from '../scenarios/registry.js';
import type { Scenario } from '../scenarios/scenario.js';
import { type BaselineEntry, parseBaseline } from './baseline.js';
import { resolveChannels } from './channels.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_BODY_BYTES, DEFAULT_TOKEN_ENV } from './defaults.js';
import { namedLimitChannels, readLimitsOptions } from './limits-option.js';
import { type CheckEndpointOptions, vetOptionTypes } from './options.js';
import { parseTargetUrl } from './target-url.js';
import { type TeamScenarios, resolveTeamScenarios } from './team-scenarios.js';
import { readDotenv } from './dotenv.js';
import { type CurlHeader, shellQuote } from './reproduce.js';
import { type Lookup, NOT_IN_A_HEADER, type PlannedHeader, type VariableSource, planHeaders } from './request-headers.js';

export type { CaseOnChannel, CheckEndpointOptions } from './options.js';
import type { CaseOnChannel } from './options.js';

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
  /** The `[NAME=]FILE` values the limits were read from (`--limits`), for a reproduce line; none when given as rules. */
  limitFiles: readonly string[];
  strict: boolean;
  insecure: boolean;
  /** What each rule of the chosen cases requires: the common checks' and the cases' own. */
  rules: Record<string, RuleReport>;
  /** The cases' own settings, by option field: as given, or each one's default. */
  settings: Readonly<Record<string, number>>;
  /** Connections the client keeps: enough for --concurrency, and for the case that keeps the most conversations at once. */
  connections: number;
  waitSeconds: number;
  runs: number;
  /** Failed cases after which the run stops (--max-failures), or undefined: no limit. */
  maxFailures: number | undefined;
  /** The only case and channel pairs played (--failed), or undefined: every pair. */
  only: readonly CaseOnChannel[] | undefined;
  baseline: { file: string; entries: readonly BaselineEntry[] } | undefined;
  /** The team's scenarios (--scenarios), checked, their openings among `scenarios`; undefined when none were asked for. */
  teamScenarios: TeamScenarios | undefined;
  /** What the run tells as it goes, and what can stop it: the options' callbacks and signal, as given. */
  hooks: Pick<CheckEndpointOptions, 'onExchange' | 'onCase' | 'onPlay' | 'signal' | 'agentExit'>;
}

/** A number option: positive (a whole number where `integer`), at most `max`; `fallback` when left out. */
function positive(value: number | undefined, fallback: number, field: string, integer: boolean, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new OptionError(field, (on) => `${on.name(field)} must be a positive ${integer ? 'whole number' : 'number'}; got ${value}`);
  }
  if (value > max) throw new OptionError(field, (on) => `${on.name(field)} must be at most ${max}; got ${value}`);
  return value;
}

/** The most plays of a case --runs takes. */
export const MAX_RUNS = 100;

/** runs: a whole number from 1 to 100; 1 when left out. */
function runs(value: number | undefined): number {
  if (value === undefined) return 1;
  if (!Number.isInteger(value) || value < 1 || value > MAX_RUNS) {
    throw new OptionError('runs', (on) => `${on.name('runs')} must be a whole number from 1 to ${MAX_RUNS}; got ${value}`);
  }
  return value;
}

/** waitSeconds: 0 (one try, the default) or more seconds. */
function waitSeconds(value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isFinite(value) || value < 0) {
    throw new OptionError('waitSeconds', (on) => `${on.name('waitSeconds')} must be a number of seconds, 0 or more; got ${value}`);
  }
  if (value > MAX_WAIT_SECONDS) {
    throw new OptionError('waitSeconds', (on) => `${on.name('waitSeconds')} must be at most ${MAX_WAIT_SECONDS}; got ${value}`);
  }
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
  if (tokenEnv === '') throw new OptionError('tokenEnv', (on) => `${on.name('tokenEnv')} needs the name of an environment variable`);
  const found = lookup(tokenEnv);
  const token = found?.value;
  if (options.tokenEnv !== undefined && !token) {
    throw new OptionError(
      'tokenEnv',
      (on) =>
        `${on.name('tokenEnv')} names ${tokenEnv}, but that environment variable is ${token === undefined ? `not set (${where})` : 'empty'}`,
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

/** Where variables were looked for, as a message says it. */
function searched(options: CheckEndpointOptions): string {
  const places = [...(options.env !== undefined ? ['the environment'] : []), ...(options.dotenv !== undefined ? [options.dotenv] : [])];
  if (places.length === 0) return 'no env was given: pass env: process.env to read the environment';
  return `in ${places.join(' or ')}`;
}

function isCase(item: Scenario | Readonly<Record<string, unknown>>): item is Scenario {
  return typeof item.run === 'function';
}

/** The run's own cases (from defineScenario, in `scenarios`), vetted: ids of their own, none a built-in case's. */
function ownScenarios(scenarios: CheckEndpointOptions['scenarios']): Scenario[] {
  const own = typeof scenarios === 'string' || scenarios === undefined ? [] : scenarios.filter(isCase);
  own.forEach((scenario, index) => {
    if (!CASE_ID.test(scenario.id)) {
      throw new OptionError(
        'scenarios',
        (on) =>
          `${on.name('scenarios')}[${index}]: "${scenario.id.slice(0, 60)}" is not a case id: lower case letters, digits, _ and -, with one / at most (acme/greeting)`,
      );
    }
    if (SCENARIOS.some((known) => known.id === scenario.id) || own.findIndex((other) => other.id === scenario.id) !== index) {
      throw new OptionError('scenarios', (on) => `${on.name('scenarios')}: two cases are called "${scenario.id}"; give each its own id`);
    }
  });
  return own;
}

/**
 * The chosen cases: those `cases` names (built-in of any group, or the run's own), else the fixed
 * five and the run's own; with `extended` every extended case besides, with `quality` every
 * quality case. The built-in ones in the registry's order, then the run's own in theirs.
 */
function chooseScenarios(options: CheckEndpointOptions, own: readonly Scenario[]): Scenario[] {
  const all = [...SCENARIOS, ...own];
  const ids: string[] = options.cases?.length ? [...options.cases] : [...CASE_IDS, ...own.map((scenario) => scenario.id)];
  for (const id of ids) {
    if (!all.some((scenario) => scenario.id === id)) {
      throw new OptionError(
        'cases',
        () => `"${id}" is not a case; the cases are ${[...ALL_CASE_IDS, ...own.map((scenario) => scenario.id)].join(', ')}`,
      );
    }
  }
  const chosen = new Set<Scenario>([
    ...all.filter((scenario) => ids.includes(scenario.id)),
    ...(options.extended ? EXTENDED_SCENARIOS : []),
    ...(options.quality ? QUALITY_SCENARIOS : []),
  ]);
  return all.filter((scenario) => chosen.has(scenario));
}

/** Every case's settings (the built-in cases' and the run's own), as given or by default, vetted. */
function resolveSettings(options: CheckEndpointOptions, own: readonly Scenario[]): Record<string, number> {
  const given = new Map<string, unknown>(Object.entries(options));
  const settings: Record<string, number> = {};
  for (const setting of [...SCENARIO_SETTINGS, ...settingsOf(own)]) {
    const value = given.get(setting.field);
    if (value !== undefined && typeof value !== 'number') throw new TypeError(`${setting.field} must be a number; got ${typeof value}`);
    settings[setting.field] = positive(value, setting.default, setting.field, setting.integer ?? false, setting.max);
  }
  return settings;
}

/** The team's scenarios: a folder's files, or the objects of `scenarios` that are not cases; undefined when none were given. */
async function teamScenariosOf(options: CheckEndpointOptions, contract: Contract, limited: readonly string[]): Promise<TeamScenarios | undefined> {
  const given = options.scenarios;
  const objects = typeof given === 'string' || given === undefined ? [] : given.filter((item) => !isCase(item));
  if (given === undefined || (typeof given !== 'string' && objects.length === 0)) {
    if (options.onlyScenarios?.length) throw new OptionError('onlyScenarios', (on) => `${on.name('onlyScenarios')} names scenarios, and none were given: add ${on.name('scenarios')}`);
    return undefined;
  }
  const channels = [...Object.keys(contract.platforms), ...limited.filter((name) => !Object.hasOwn(contract.platforms, name))];
  return resolveTeamScenarios(typeof given === 'string' ? given : objects, channels, options.onlyScenarios);
}

/** The contract: the one given, or the --spec file's, or the bundled one; its answer schema compiled (ContractError when it does not). */
async function resolveContract(options: CheckEndpointOptions): Promise<Contract> {
  if (options.contract !== undefined && options.spec !== undefined) {
    throw new OptionError('spec', (on) => `give ${on.name('spec')} or contract, not both`);
  }
  const contract = options.contract ?? (options.spec !== undefined ? await loadContract(options.spec) : bundledContract());
  answerValidators(contract);
  return contract;
}

/** The custom channels' display rules: as given, or read from the `[NAME=]FILE` files. */
async function resolveLimits(
  limits: CheckEndpointOptions['limits'],
  channels: readonly string[],
  contract: Contract,
): Promise<Readonly<Record<string, PlatformRules>>> {
  if (limits === undefined) return {};
  if (!isFileList(limits)) return limits;
  return readLimitsOptions(
    limits,
    channels.filter((name) => !Object.hasOwn(contract.platforms, name)),
  );
}

function isFileList(limits: NonNullable<CheckEndpointOptions['limits']>): limits is readonly string[] {
  return Array.isArray(limits);
}

/** The channels the limits name: a record's keys, or the NAMEs of `NAME=FILE` values. */
function limitedChannels(limits: CheckEndpointOptions['limits']): string[] {
  if (limits === undefined) return [];
  return isFileList(limits) ? namedLimitChannels(limits) : Object.keys(limits);
}

/** The baseline: as given, or read from its file, its entries naming the cases and rules known to the run. */
async function resolveBaseline(baseline: CheckEndpointOptions['baseline'], known: readonly Scenario[]): Promise<CheckPlan['baseline']> {
  if (typeof baseline !== 'string') return baseline;
  let text: string;
  try {
    text = await fs.readFile(baseline, 'utf8');
  } catch (cause) {
    throw new UsageError(`cannot read the baseline file ${baseline}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`);
  }
  return {
    file: baseline,
    entries: parseBaseline(text, baseline, { cases: known.map((scenario) => scenario.id), rules: [...RULES, ...ruleIdsOf(known)] }),
  };
}

/**
 * Resolves and vets a run's options: the one place, for the library and the command alike. Throws
 * a TypeError for a key that is no option or a value of the wrong type, an OptionError (a
 * UsageError naming the field) for a value the check cannot run with, a ContractError for a
 * contract that cannot be used; nothing is sent before.
 */
export async function planCheck(target: string, options: CheckEndpointOptions = {}): Promise<CheckPlan> {
  vetOptionTypes(options);
  const contract = await resolveContract(options);
  const channels = resolveChannels(options.channels ?? [], contract, limitedChannels(options.limits));
  const limits = await resolveLimits(options.limits, channels, contract);
  const own = ownScenarios(options.scenarios);
  const teamScenarios = await teamScenariosOf(options, contract, limitedChannels(options.limits));
  const baseline = await resolveBaseline(options.baseline, [...SCENARIOS, ...own]);
  const tokenEnv = options.tokenEnv ?? DEFAULT_TOKEN_ENV;
  const url = parseTargetUrl(target, tokenEnv);
  const env = options.env ?? {};
  const dotenv = options.dotenv === undefined ? {} : readDotenv(options.dotenv);
  const lookup = variableLookup(env, dotenv, options.dotenv);
  const where = searched(options);
  const headers = planHeaders(options.headers, options.secretHeaders, lookup, where);
  // A secret authorization header takes the bearer token's place.
  const token = headers.some((header) => header.name === 'authorization') ? undefined : readToken(options, tokenEnv, lookup, where);
  const scenarios = [...chooseScenarios(options, own), ...(teamScenarios?.cases ?? [])];
  const settings = resolveSettings(options, own);
  const concurrency = positive(options.concurrency, DEFAULT_CONCURRENCY, 'concurrency', true);
  const { onExchange, onCase, onPlay, signal, agentExit } = options;
  return {
    url,
    contract,
    channels,
    scenarios,
    token: token?.token,
    tokenEnv,
    tokenSource: token?.source,
    dotenvFile: options.dotenv,
    headers,
    proxy: proxyFor(url, env),
    timeoutSeconds: positive(options.agentTimeoutSeconds, contract.agentTimeoutSeconds, 'agentTimeoutSeconds', false, MAX_WAIT_SECONDS),
    concurrency,
    maxBodyBytes: positive(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes', true),
    limits,
    limitFiles: options.limits !== undefined && isFileList(options.limits) ? options.limits : [],
    strict: options.strict ?? false,
    insecure: options.insecure ?? false,
    rules: ruleFactsOf(contract, scenarios),
    settings,
    connections: Math.max(
      concurrency,
      ...scenarios.map((scenario) => scenario.conversationsAtOnce?.((field) => settings[field] ?? Number.NaN) ?? 0),
    ),
    waitSeconds: waitSeconds(options.waitSeconds),
    runs: runs(options.runs),
    maxFailures: options.maxFailures === undefined ? undefined : positive(options.maxFailures, 1, 'maxFailures', true),
    only: options.only,
    baseline,
    teamScenarios,
    hooks: {
      ...(onExchange ? { onExchange } : {}),
      ...(onCase ? { onCase } : {}),
      ...(onPlay ? { onPlay } : {}),
      ...(signal ? { signal } : {}),
      ...(agentExit ? { agentExit } : {}),
    },
  };
}

/** The channels as reported: each one's platform name, and where its display limits come from. */
export function channelReports(plan: CheckPlan): ChannelReport[] {
  // A team scenario plays on its own channels, which the run's may leave out.
  const scenarioChannels = plan.teamScenarios?.played.flatMap((scenario) => scenario.channels ?? []) ?? [];
  return [...new Set([...plan.channels, ...scenarioChannels])].map((name) => {
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

/**
 * The flags a replay of a case needs to be judged and sent as the run was: another contract, the
 * custom channels' limits, the .env file, the timeout, the body limit, --strict and --insecure.
 */
export function reproduceFlags(plan: CheckPlan): string[] {
  return [
    ...(plan.contract.source !== 'bundled' ? ['--spec', shellQuote(plan.contract.source)] : []),
    ...plan.limitFiles.flatMap((file) => ['--limits', shellQuote(file)]),
    ...(plan.dotenvFile !== undefined ? ['--dotenv', shellQuote(plan.dotenvFile)] : []),
    ...(plan.timeoutSeconds !== plan.contract.agentTimeoutSeconds ? ['--agent-timeout', String(plan.timeoutSeconds)] : []),
    ...(plan.maxBodyBytes !== DEFAULT_MAX_BODY_BYTES ? ['--max-body', String(plan.maxBodyBytes)] : []),
    ...(plan.strict ? ['--strict'] : []),
    ...(plan.insecure ? ['--insecure'] : []),
  ];
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
