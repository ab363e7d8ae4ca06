import type { Reply } from '../core/answer.js';
import { CASE_IDS, type CaseDefinition, FIXED_CASES, type PastTurn, isCaseId } from '../cases/fixed-cases.js';
import type { AgentRequest } from '../core/request.js';
import { AgentClient, type RecordedExchange } from '../http/client.js';
import {
  type CaseReport,
  type ChannelReport,
  REPORT_FORMAT_VERSION,
  type Report,
  type ReportedFinding,
  type TurnReport,
} from '../core/report.js';
import { replyIndex } from '../core/findings.js';
import { assembleCase } from './assemble.js';
import { type Contract, MAX_WAIT_SECONDS, type PlatformRules } from '../contract/contract.js';
import { bundledContract } from '../contract/load-contract.js';
import { UsageError } from '../core/usage-error.js';
import { TOOL_VERSION } from '../core/version.js';
import { resolveChannels } from './channels.js';
import { checkTurn } from '../validate/judge-exchange.js';
import { applyBaseline, type BaselineEntry, isExpectedFailure } from './baseline.js';
import { reproduceCase } from './reproduce.js';
import { runPooled } from './pool.js';
import { parseTargetUrl } from './target-url.js';
import { now } from '../core/clock.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_LATENCY_BUDGET_SECONDS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_QUALITY_CONVERSATIONS,
  DEFAULT_TOKEN_ENV,
} from './defaults.js';

export { DEFAULT_TOKEN_ENV } from './defaults.js';

export interface CheckEndpointOptions {
  /** Channels to check: platform names or custom names; `all` means the contract's platforms. Default `whatsapp`. */
  channels?: readonly string[];
  /** Case ids to run; all five when left out. */
  cases?: readonly string[];
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
  /** Called as each case ends, with its report and its index in the report's `cases`. */
  onCase?: (caseReport: CaseReport, index: number) => void;
}

interface Plan {
  url: URL;
  contract: Contract;
  channels: string[];
  cases: CaseDefinition[];
  token: string | undefined;
  timeoutSeconds: number;
  concurrency: number;
  maxBodyBytes: number;
  limits: Readonly<Record<string, PlatformRules>>;
  strict: boolean;
  insecure: boolean;
  /** The token's environment variable (its value is `token`). */
  tokenEnv: string;
  quality: boolean;
  qualityConversations: number;
  latencyBudgetSeconds: number;
}

function positive(value: number | undefined, fallback: number, what: string, integer: boolean, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new UsageError(`${what} must be a positive ${integer ? 'whole number' : 'number'}; got ${value}`);
  }
  if (value > max) throw new UsageError(`${what} must be at most ${max}; got ${value}`);
  return value;
}

/** Characters an HTTP header value cannot carry: line breaks, NUL, and anything past Latin-1. */
const NOT_IN_A_HEADER = /[\r\n\0]|[^\t\x20-\x7e\x80-\xff]/;

/** Resolves and vets the options. Throws UsageError for anything the check cannot run with. */
export type { Plan as CheckPlan };

export function planCheck(target: string, options: CheckEndpointOptions = {}): Plan {
  const contract = options.contract ?? bundledContract();
  const tokenEnv = options.tokenEnv ?? DEFAULT_TOKEN_ENV;
  const url = parseTargetUrl(target, tokenEnv);
  const channels = resolveChannels(options.channels ?? [], contract);
  const caseIds = options.cases?.length ? [...new Set(options.cases)] : [...CASE_IDS];
  for (const id of caseIds) {
    if (!isCaseId(id)) throw new UsageError(`"${id}" is not a case; the cases are ${CASE_IDS.join(', ')}`);
  }
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
  return {
    url,
    contract,
    channels,
    cases: FIXED_CASES.filter((definition) => caseIds.includes(definition.id)),
    token: token || undefined,
    timeoutSeconds: positive(options.agentTimeoutSeconds, contract.agentTimeoutSeconds, '--agent-timeout', false, MAX_WAIT_SECONDS),
    concurrency: positive(options.concurrency, DEFAULT_CONCURRENCY, '--concurrency', true),
    maxBodyBytes: positive(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, '--max-body', true),
    limits: options.limits ?? {},
    strict: options.strict ?? false,
    insecure: options.insecure ?? false,
    tokenEnv,
    quality: options.quality ?? false,
    qualityConversations: positive(options.qualityConversations, DEFAULT_QUALITY_CONVERSATIONS, '--quality-conversations', true),
    latencyBudgetSeconds: positive(
      options.latencyBudgetSeconds,
      DEFAULT_LATENCY_BUDGET_SECONDS,
      '--latency-budget',
      false,
      MAX_WAIT_SECONDS,
    ),
  };
}

function channelReports(plan: Plan): ChannelReport[] {
  return plan.channels.map((name) => {
    if (Object.hasOwn(plan.limits, name)) return { name, title: plan.limits[name]!.title, limits: 'file' };
    const rules = Object.hasOwn(plan.contract.platforms, name) ? plan.contract.platforms[name] : undefined;
    return { name, title: rules?.title ?? null, limits: rules ? 'spec' : 'none' };
  });
}

/** The URL as reported: never with credentials (they are refused anyway). */
function reportedTarget(url: URL): string {
  return url.href;
}

/** What a report says before any case runs: the tool, the contract, the target and the channels. */
export type RunDescription = Pick<Report, 'version' | 'tool' | 'spec' | 'target' | 'channels'>;

export function describeRun(plan: Plan): RunDescription {
  return {
    version: REPORT_FORMAT_VERSION,
    tool: { name: 'check-endpoint', version: TOOL_VERSION },
    spec: { version: plan.contract.version, source: plan.contract.source },
    target: reportedTarget(plan.url),
    channels: channelReports(plan),
  };
}

/** A report for a check that could not run (exit code 2). */
export function errorReport(target: string, message: string, contract: Contract = bundledContract()): Report {
  return {
    version: REPORT_FORMAT_VERSION,
    tool: { name: 'check-endpoint', version: TOOL_VERSION },
    spec: { version: contract.version, source: contract.source },
    target,
    channels: [],
    outcome: 'error',
    exitCode: 2,
    error: { message },
    counts: { cases: 0, passed: 0, failed: 0, errors: 0, warnings: 0 },
    cases: [],
    baseline: null,
  };
}

async function runConversation(
  plan: Plan,
  client: AgentClient,
  runId: string,
  channel: string,
  definition: CaseDefinition,
): Promise<CaseReport> {
  const conversationId = `${channel}:chk_${runId}.${definition.id}.1`;
  const started = now();
  const past: PastTurn[] = [];
  const turns: TurnReport[] = [];
  for (const [index, turn] of definition.turns.entries()) {
    const messageId = `chk_${runId}.${channel}.${definition.id}.p${index + 1}`;
    const request: AgentRequest = { conversationId, messageId, channel, message: turn.message(past) };
    const outcome = await client.post(JSON.stringify(request));
    const verdict = checkTurn(outcome, {
      channel,
      contract: plan.contract,
      ...(Object.hasOwn(plan.limits, channel) ? { limits: plan.limits[channel]! } : {}),
      personMessageIds: [...past.map((earlier) => earlier.messageId), messageId],
      expectsReply: turn.expectsReply,
      timeoutSeconds: plan.timeoutSeconds,
    });
    const replies: Reply[] | undefined = verdict.replies;
    past.push({
      messageId,
      message: request.message,
      replies,
      agentMessageIds: (replies ?? []).map((_, reply) => `chk_${runId}.${channel}.${definition.id}.a${index + 1}.${reply}`),
    });
    turns.push({
      messageId,
      request,
      status: outcome.kind === 'answer' ? outcome.status : null,
      latencyMs: outcome.latencyMs,
      answer: verdict.answer,
      findings: verdict.findings.map((finding): ReportedFinding => ({ ...finding, turn: index, reply: replyIndex(finding.path) })),
    });
  }
  const caseReport = assembleCase({ id: definition.id, channel, conversationId, started, turns }, plan.strict);
  return reproduceCase(caseReport, plan.url.href, plan.token ? plan.tokenEnv : undefined);
}

/**
 * Runs the live check against an agent's URL: the HEAD probe, then every case on every channel,
 * each case its own conversation, its turns in order, up to `concurrency` conversations at once.
 * Returns the same report as `--json`. Throws UsageError for options it cannot run with; an agent
 * that cannot be reached gives a report with outcome `error` and exit code 2.
 */
export async function checkEndpoint(target: string, options: CheckEndpointOptions = {}): Promise<Report> {
  const plan = planCheck(target, options);
  const client = new AgentClient(plan.url, {
    timeoutMs: plan.timeoutSeconds * 1000,
    maxBodyBytes: plan.maxBodyBytes,
    connections: plan.concurrency,
    insecure: plan.insecure,
    ...(plan.token ? { token: plan.token } : {}),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
  });
  const base = describeRun(plan);
  // What a case is, as it ends: with a baseline, whether its failure is an expected one.
  const withExpectation = (caseReport: CaseReport): CaseReport => ({
    ...caseReport,
    expected: options.baseline ? isExpectedFailure(caseReport, options.baseline.entries, plan.strict) : false,
  });
  try {
    const probe = await client.head();
    if (probe.kind !== 'answer') {
      return { ...errorReport(base.target, `Could not reach your agent at ${base.target}: ${probe.message}`, plan.contract), ...base };
    }
    // Fresh for every run, so runs never share conversation history (node:crypto would cost start-up time).
    const runId = Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
    const conversations = plan.channels.flatMap((channel) => plan.cases.map((definition) => ({ channel, definition })));
    const cases = await runPooled(
      conversations.map(({ channel, definition }, index) => async () => {
        const caseReport = withExpectation(await runConversation(plan, client, runId, channel, definition));
        options.onCase?.(caseReport, index);
        return caseReport;
      }),
      plan.concurrency,
    );
    if (plan.quality) {
      // Loaded only for --quality: the checks beyond the contract (auth, bad input, load, latency).
      const { runQualityCases } = await import('../quality/run-quality.js');
      for (const qualityCase of await runQualityCases({ plan, client, runId, fixedCases: [...cases] })) {
        const caseReport = withExpectation(reproduceCase(qualityCase, plan.url.href, plan.token ? plan.tokenEnv : undefined));
        options.onCase?.(caseReport, cases.length);
        cases.push(caseReport);
      }
    }
    const all = cases.flatMap((caseReport) => caseReport.findings);
    const passed = cases.filter((caseReport) => caseReport.passed).length;
    const failed = cases.length - passed;
    const report: Report = {
      ...base,
      outcome: failed === 0 ? 'passed' : 'failed',
      exitCode: failed === 0 ? 0 : 1,
      error: null,
      counts: {
        cases: cases.length,
        passed,
        failed,
        errors: all.filter((finding) => finding.severity === 'error').length,
        warnings: all.filter((finding) => finding.severity === 'warning').length,
      },
      cases,
      baseline: null,
    };
    return options.baseline ? applyBaseline(report, options.baseline.entries, options.baseline.file, plan.strict) : report;
  } finally {
    await client.close();
  }
}
