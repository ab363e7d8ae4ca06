/**
 * The run, planned: the one place a run's options are resolved, for the library and the command
 * alike. The options are vetted (a TypeError for a key that is no option or a value of the wrong
 * type, an OptionError naming the field for a value the check cannot run with), files named are
 * read (the contract, the limits, the baseline, the .env file), defaults filled in, and the cases
 * chosen from the registry and the run's own cases; all before anything is sent.
 */
import { FileReadError, readBoundedText } from '../core/bounded-file.js';
import type { ChannelReport, RuleReport } from '../core/report.js';
import { RULES } from '../core/findings.js';
import { ruleFactsOf } from './rule-facts.js';
import { OptionError } from '../core/option-error.js';
import { UsageError } from '../core/usage-error.js';
import type { Contract, PlatformRules } from '../contract/contract.js';
import { answerValidators } from '../contract/compile-contract.js';
import { bundledContract, loadContract } from '../contract/load-contract.js';
import { type ProxyChoice, proxyFor } from '../http/proxy.js';
import type { SentCredentials } from '../validate/judge-exchange.js';
import { CASES, ruleIdsOf } from '../cases/registry.js';
import { type CaseSettingValues, resolveCaseSettings } from '../cases/case-settings.js';
import { platformRulesFor } from '../validate/validate-answer.js';
import type { Case, ExploreSettings } from '../cases/case.js';
import { freshSeed } from '../cases/explore/random.js';
import { DEFAULT_EXPLORE_TURNS } from './defaults.js';
import { type BaselineEntry, parseBaseline } from './baseline.js';
import { resolveChannels } from './channels.js';
import { namedLimitChannels, readLimitsOptions } from './limits-option.js';
import { type CheckEndpointOptions, resolveOptions } from './options.js';
import { parseTargetUrl } from './target-url.js';
import { type TeamScenarios, resolveTeamScenarios } from './team-scenarios.js';
import { chooseCases, isCase, ownCases } from './chosen-cases.js';
import { readDotenv } from './dotenv.js';
import {
  type Lookup,
  NOT_A_VARIABLE_NAME,
  NOT_IN_A_HEADER,
  type PlannedHeader,
  VARIABLE_NAME,
  type VariableSource,
  planHeaders,
} from './request-headers.js';

export type { CaseOnChannel, CheckEndpointOptions, CommandOptions } from './options.js';
import type { CaseOnChannel, CommandOptions, ResolvedOptions } from './options.js';

export interface CheckPlan {
  url: URL;
  contract: Contract;
  channels: string[];
  /** The cases to play, in the registry's order: the fixed and extended cases chosen, then the quality cases. */
  cases: Case[];
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
  /** The cases' own settings, by case id and name: as given, or each one's default. */
  caseSettings: CaseSettingValues;
  /** Every option as resolved (given, or by default): an option of the table is read here. */
  options: ResolvedOptions;
  /** Connections the client keeps: enough for --concurrency, and for the case that keeps the most conversations at once. */
  connections: number;
  waitSeconds: number;
  runs: number;
  /** Failed cases after which the run stops (--max-failures), or undefined: no limit. */
  maxFailures: number | undefined;
  /** The only case and channel pairs played (--failed), or undefined: every pair. */
  only: readonly CaseOnChannel[] | undefined;
  /** The case and channel pairs played first (--failed-first), or undefined: the report's order. */
  first: readonly CaseOnChannel[] | undefined;
  baseline: { file: string; entries: readonly BaselineEntry[] } | undefined;
  /** What the run tells as it goes, and what can stop it: the options' callbacks and signal, as given. */
  hooks: Pick<CheckEndpointOptions, 'onExchange' | 'onCase' | 'onPlay' | 'onCaseProgress' | 'signal'> & Pick<CommandOptions, 'agentExit'>;
  /** The team's scenarios (--scenarios), checked, their openings among `cases`; undefined when none were asked for. */
  teamScenarios: TeamScenarios | undefined;
  /** --explore's settings (its seed fresh when none was given). */
  explore: ExploreSettings;
}

export { MAX_RUNS } from './option-descriptors.js';

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
  given: string | undefined,
  tokenEnv: string,
  lookup: Lookup,
  where: string,
): { token: string; source: VariableSource } | undefined {
  if (tokenEnv === '') throw new OptionError('tokenEnv', (on) => `${on.name('tokenEnv')} needs the name of an environment variable`);
  if (!VARIABLE_NAME.test(tokenEnv)) {
    throw new OptionError(
      'tokenEnv',
      (on) => `${on.name('tokenEnv')}: the value given ${NOT_A_VARIABLE_NAME}; name the variable that holds the token, such as MY_TOKEN`,
    );
  }
  const found = lookup(tokenEnv);
  const token = found?.value;
  if (given !== undefined && !token) {
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
function searched(options: ResolvedOptions): string {
  const places = [...(options.env !== undefined ? ['the environment'] : []), ...(options.dotenv !== undefined ? [options.dotenv] : [])];
  if (places.length === 0) return 'no env was given: pass env: process.env to read the environment';
  return `in ${places.join(' or ')}`;
}

/** The team's scenarios: a folder's files, or the objects of `scenarios` that are not cases; undefined when none were given. */
async function teamScenariosOf(
  options: ResolvedOptions,
  contract: Contract,
  limited: readonly string[],
): Promise<TeamScenarios | undefined> {
  const given = options.scenarios;
  const objects = typeof given === 'string' || given === undefined ? [] : given.filter((item) => !isCase(item));
  const only = options.onlyScenarios
    ?.flatMap((ids) => ids.split(','))
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (given === undefined || (typeof given !== 'string' && objects.length === 0)) {
    if (only?.length) {
      throw new OptionError(
        'onlyScenarios',
        (on) => `${on.name('onlyScenarios')} names scenarios, and none were given: add ${on.name('scenarios')}`,
      );
    }
    return undefined;
  }
  const channels = [...Object.keys(contract.platforms), ...limited.filter((name) => !Object.hasOwn(contract.platforms, name))];
  return resolveTeamScenarios(typeof given === 'string' ? given : objects, channels, only?.length ? only : undefined);
}

/** The contract: the one given, or the --spec file's, or the bundled one; its answer schema compiled (ContractError when it does not). */
async function resolveContract(options: ResolvedOptions): Promise<Contract> {
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

/** The largest baseline file read: one line a known problem, a few KB. */
const MAX_BASELINE_BYTES = 8 * 1024 * 1024;

/** The baseline: as given, or read from its file, its entries naming the cases and rules known to the run. */
async function resolveBaseline(baseline: CheckEndpointOptions['baseline'], known: readonly Case[]): Promise<CheckPlan['baseline']> {
  if (typeof baseline !== 'string') return baseline;
  let text: string;
  try {
    text = readBoundedText(baseline, MAX_BASELINE_BYTES);
  } catch (cause) {
    if (!(cause instanceof FileReadError)) throw cause;
    throw new UsageError(`cannot read the baseline file ${baseline}: ${cause.message}`);
  }
  return {
    file: baseline,
    entries: parseBaseline(text, baseline, { cases: known.map((testCase) => testCase.id), rules: [...RULES, ...ruleIdsOf(known)] }),
  };
}

/**
 * Resolves and vets a run's options: the one place, for the library and the command alike. Throws
 * a TypeError for a key that is no option or a value of the wrong type, an OptionError (a
 * UsageError naming the field) for a value the check cannot run with, a ContractError for a
 * contract that cannot be used; nothing is sent before.
 */
export async function planCheck(target: string, given: unknown = {}, command: CommandOptions = {}): Promise<CheckPlan> {
  const options = resolveOptions(given);
  const contract = await resolveContract(options);
  const channels = resolveChannels(options.channels ?? [], contract, limitedChannels(options.limits));
  const limits = await resolveLimits(options.limits, channels, contract);
  const own = ownCases(options);
  const teamScenarios = await teamScenariosOf(options, contract, limitedChannels(options.limits));
  const baseline = await resolveBaseline(options.baseline, [...CASES, ...own]);
  const { tokenEnv } = options;
  const url = parseTargetUrl(target, tokenEnv);
  const env = options.env ?? {};
  const dotenv = options.dotenv === undefined ? {} : readDotenv(options.dotenv);
  const lookup = variableLookup(env, dotenv, options.dotenv);
  const where = searched(options);
  const headers = planHeaders(options.headers, options.secretHeaders, lookup, where);
  // A secret authorization header takes the bearer token's place.
  const token = headers.some((header) => header.name === 'authorization')
    ? undefined
    : readToken(options.givenValue('tokenEnv') === undefined ? undefined : tokenEnv, tokenEnv, lookup, where);
  const cases = [...chooseCases(options, own), ...(teamScenarios?.cases ?? [])];
  const caseSettings = resolveCaseSettings([...CASES, ...own], options.caseSettings, options.givenValue);
  const { onExchange, onCase, onPlay, onCaseProgress, signal } = options;
  const { agentExit } = command;
  return {
    url,
    contract,
    channels,
    cases,
    token: token?.token,
    tokenEnv,
    tokenSource: token?.source,
    dotenvFile: options.dotenv,
    headers,
    proxy: proxyFor(url, env),
    timeoutSeconds: options.agentTimeoutSeconds ?? contract.agentTimeoutSeconds,
    concurrency: options.concurrency,
    maxBodyBytes: options.maxBodyBytes,
    limits,
    limitFiles: options.limits !== undefined && isFileList(options.limits) ? options.limits : [],
    strict: options.strict,
    insecure: options.insecure,
    rules: ruleFactsOf(contract, cases),
    caseSettings,
    options,
    connections: Math.max(
      options.concurrency,
      ...cases.map((testCase) => testCase.conversationsAtOnce?.((name) => caseSettings[testCase.id]?.[name] ?? null) ?? 0),
    ),
    waitSeconds: options.waitSeconds,
    runs: options.runs,
    maxFailures: options.maxFailures,
    only: command.only,
    first: command.first,
    baseline,
    teamScenarios,
    explore: exploreSettings(options, cases, command),
    hooks: {
      ...(onExchange ? { onExchange } : {}),
      ...(onCase ? { onCase } : {}),
      ...(onPlay ? { onPlay } : {}),
      ...(onCaseProgress ? { onCaseProgress } : {}),
      ...(signal ? { signal } : {}),
      ...(agentExit ? { agentExit } : {}),
    },
  };
}

/** --explore's settings: its flags vetted against the cases chosen, its seed drawn when none was given. */
function exploreSettings(options: ResolvedOptions, cases: readonly Case[], command: CommandOptions): ExploreSettings {
  const exploring = cases.some((testCase) => testCase.group === 'explore');
  // The command gives a flag with a default its default whether typed or not: what differs from it was asked for.
  const defaults = { exploreTurns: DEFAULT_EXPLORE_TURNS, seed: undefined, shrink: true };
  for (const field of ['exploreTurns', 'seed', 'shrink'] as const) {
    const given = options.givenValue(field);
    if (!exploring && given !== undefined && given !== defaults[field]) {
      throw new OptionError(
        field,
        (on) => `${on.name(field)} sets what --explore plays, and this run does not explore: add ${on.name('explore')}`,
      );
    }
  }
  return {
    turns: options.exploreTurns,
    seed: options.seed ?? freshSeed(),
    shrink: options.shrink,
    kept: command.exploreKept ?? [],
    keptOnly: command.exploreKeptOnly ?? false,
  };
}

/** What a channel's platform shows and takes: its --limits file's rules, or the contract's; undefined for a custom channel without limits. */
export function channelRules(plan: Pick<CheckPlan, 'contract' | 'limits'>, channel: string): PlatformRules | undefined {
  return platformRulesFor(channel, plan.contract, Object.hasOwn(plan.limits, channel) ? plan.limits[channel] : undefined);
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
