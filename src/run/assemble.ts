/**
 * The report, assembled: a case from its recorded turns, the run from its cases (the verdict rules
 * are verdict.ts's).
 */
import { now } from '../core/clock.js';
import { type Finding, replyIndex } from '../core/findings.js';
import type {
  CaseLabel,
  CaseReport,
  ChannelReport,
  ExploreReport,
  ExploredFailure,
  TransportReport,
  LatencyFigures,
  PlayReport,
  Report,
  ReportedFinding,
  RuleReport,
  RunStop,
  TurnReport,
} from '../core/report.js';
import { REPORT_FORMAT_VERSION } from '../core/report.js';
import { withCommand } from '../core/command-words.js';
import { withValues } from '../core/value-at.js';
import { groupProblems, problemId } from '../core/problems.js';
import { TOOL_VERSION } from '../core/version.js';
import type { Contract } from '../contract/contract.js';
import { type BaselineEntry, baselineOutcome } from './baseline.js';
import { leftOutData } from './recorded-request.js';
import { MAX_INLINE_REPRODUCE_BODY, curlCommand, replayCommand } from './reproduce.js';
import type { ReproduceTarget } from './reproduce-target.js';
import { ruleFactsOf } from './rule-facts.js';
import { type InterruptExitCode, casePasses, caseCounts, runVerdict } from './verdict.js';
import { isAnyCaseId } from '../cases/registry.js';

/** One turn as the context recorded it, before its findings are placed in the case. */
export interface RecordedTurn extends Omit<TurnReport, 'findings'> {
  findings: readonly Finding[];
}

/** What a case is made of, before its verdict. */
export interface CaseParts {
  id: string;
  channel: string;
  conversationId: string;
  /** When the case started, on the clock of core/clock.ts. */
  started: number;
  turns: readonly RecordedTurn[];
  /** Findings about the case as a whole, not one turn (reported with turn null). */
  caseFindings?: readonly Finding[];
  latency?: LatencyFigures;
  explore?: ExploreReport;
  /** It ended before it finished: without a failure it is not run, never passed. */
  cutShort?: boolean;
}

/**
 * The command that sends a failed turn's request again, or null for a turn without an error (and
 * for a handler checked in this process, which has no URL to send it to): a curl command with the
 * body exactly as sent, or, for a body over 1 KB, the check-endpoint command (named as `command`)
 * that plays the turn's case again. The token and secret headers named by their variables, and only where they were sent.
 */
function reproduceLine(
  turn: RecordedTurn,
  caseId: string,
  channel: string,
  command: string,
  target: ReproduceTarget | undefined,
): string | null {
  if (target === undefined) return null;
  if (!turn.findings.some((finding) => finding.severity === 'error')) return null;
  const body = turn.sentBody ?? JSON.stringify(turn.request);
  // A turn sent with another authorization (quality/auth) is reproduced without any: its made-up token is never written.
  const headers = turn.authorization === undefined ? target.headers : target.headers.filter((header) => header.name !== 'authorization');
  if (leftOutData(turn.request) || Buffer.byteLength(body) > MAX_INLINE_REPRODUCE_BODY) {
    // A case of your own (the library's customCases) is no case of the command line: it has no replay.
    return isAnyCaseId(caseId) ? replayCommand(command, target.url, channel, caseId, headers, target.flags) : null;
  }
  return curlCommand(target.url, body, headers);
}

/**
 * One turn as reported, at `index` in its case: each finding placed at its turn and reply, its
 * hint's commands written as `command`, its problem id, and (for a failed turn) its reproduce line.
 */
export function reportedTurn(
  turn: RecordedTurn,
  index: number,
  place: Pick<CaseParts, 'id' | 'channel'>,
  command: string,
  target: ReproduceTarget | undefined,
): TurnReport {
  const reproduce = reproduceLine(turn, place.id, place.channel, command, target);
  const findings = turn.findings.map((finding): ReportedFinding => ({
    ...finding,
    hint: withCommand(finding.hint, command),
    turn: index,
    reply: replyIndex(finding.path),
    reproduce,
    problem: problemId(finding),
  }));
  return { ...turn, findings };
}

/** One play of a case, as assembled, with the case it belongs to. */
export interface PlayedCase extends PlayReport {
  id: string;
  channel: string;
  latency?: LatencyFigures;
  explore?: ExploreReport;
}

/**
 * One play as reported: every finding of its turns and its own, each placed at its turn and reply,
 * its hint's commands written as `command` (core/command-words.ts); its problem id is taken first,
 * from the hint as the check wrote it.
 */
export function assemblePlay(
  parts: CaseParts,
  play: number,
  strict: boolean,
  command: string,
  target: ReproduceTarget | undefined,
): PlayedCase {
  const turns = parts.turns.map((turn, index) => reportedTurn(turn, index, parts, command, target));
  const caseFindings = (parts.caseFindings ?? []).map((finding): ReportedFinding => ({
    ...finding,
    hint: withCommand(finding.hint, command),
    turn: null,
    reply: replyIndex(finding.path),
    reproduce: null,
    problem: problemId(finding),
  }));
  const findings = [...turns.flatMap((turn) => turn.findings), ...caseFindings];
  const passed = casePasses(findings, strict);
  return {
    id: parts.id,
    channel: parts.channel,
    play,
    conversationId: parts.conversationId,
    passed: passed && !parts.cutShort,
    status: !passed ? 'failed' : parts.cutShort ? 'not-run' : 'passed',
    durationMs: Math.round(now() - parts.started),
    turns,
    findings,
    ...(parts.latency ? { latency: parts.latency } : {}),
    ...(parts.explore ? { explore: withReplay(parts.explore, parts.channel, command, target) } : {}),
  };
}

/** The explore figures with each failure's replay line: the exploration again, with its seed. */
function withReplay(explore: ExploreReport, channel: string, command: string, target: ReproduceTarget | undefined): ExploreReport {
  const base = target && replayCommand(command, target.url, channel, 'explore', target.headers, target.flags);
  // A kept conversation is no seed's: --failed plays it again.
  const replayOf = (failure: ExploredFailure): string | null =>
    base === undefined
      ? null
      : failure.source === 'kept'
        ? `${base} --failed`
        : `${base} --explore-turns ${explore.turnBudget} --seed ${explore.seed}`;
  return { ...explore, found: explore.found.map((failure) => ({ ...failure, replay: replayOf(failure) })) };
}

/** A play that was not played, or not to its end: the agent stopped answering, or the run was interrupted. */
export function notRunPlay(id: string, channel: string, play: number, conversationId: string): PlayedCase {
  return { id, channel, play, conversationId, passed: false, status: 'not-run', durationMs: 0, turns: [], findings: [] };
}

function labelOf(plays: readonly PlayReport[], passedRuns: number): CaseLabel {
  if (plays.some((play) => play.status === 'not-run')) return 'not-run';
  return passedRuns === plays.length ? 'passing' : passedRuns === 0 ? 'failing' : 'flaky';
}

/** Each distinct finding of the plays once, with how many plays had it and the first that did. */
function distinctFindings(plays: readonly PlayReport[]): ReportedFinding[] {
  const seen = new Map<string, ReportedFinding & { plays: number; play: number }>();
  for (const play of plays) {
    const inThisPlay = new Set<string>();
    for (const finding of play.findings) {
      const key = JSON.stringify([finding.rule, finding.severity, finding.path, finding.message]);
      const known = seen.get(key);
      if (!known) seen.set(key, { ...finding, plays: 1, play: play.play });
      else if (!inThisPlay.has(key)) known.plays++;
      inThisPlay.add(key);
    }
  }
  return [...seen.values()];
}

/**
 * The case on its channel from its plays: it passes only when every play passed (an answer that
 * breaks one time in five is a real defect). With one play the case is that play.
 */
export function combinePlays(played: readonly PlayedCase[], conversationPattern: string): CaseReport {
  const first = played[0]!;
  const plays: PlayReport[] = played.map(({ play, conversationId, passed, status, durationMs, turns, findings }) => ({
    play,
    conversationId,
    passed,
    status,
    durationMs,
    turns,
    findings,
  }));
  const passedRuns = plays.filter((play) => play.status === 'passed').length;
  const label = labelOf(plays, passedRuns);
  const several = plays.length > 1;
  const shown = plays.find((play) => play.status === 'failed') ?? plays[0]!;
  return {
    id: first.id,
    channel: first.channel,
    conversationId: several ? conversationPattern : first.conversationId,
    passed: label === 'passing',
    status: label === 'not-run' ? 'not-run' : label === 'passing' ? 'passed' : 'failed',
    durationMs: plays.reduce((sum, play) => sum + play.durationMs, 0),
    turns: shown.turns,
    findings: several ? distinctFindings(plays) : first.findings,
    ...(first.latency ? { latency: first.latency } : {}),
    ...(first.explore ? { explore: first.explore } : {}),
    expected: false,
    runs: plays.length,
    passedRuns,
    label,
    plays,
  };
}

/** What a report says before any case runs: the tool, the contract, the target and the channels. */
export type RunDescription = Pick<Report, 'version' | 'tool' | 'spec' | 'target' | 'transport' | 'channels' | 'runs' | 'rules'>;

/** The run's description; its rules are the common checks' unless the planned cases' are given. */
export function describeRun(
  contract: Contract,
  target: string,
  channels: ChannelReport[],
  runs = 1,
  rules: Record<string, RuleReport> = ruleFactsOf(contract, []),
  transport?: TransportReport,
): RunDescription {
  return {
    version: REPORT_FORMAT_VERSION,
    tool: { name: 'check-endpoint', version: TOOL_VERSION },
    spec: { version: contract.version, source: contract.source },
    target,
    ...(transport ? { transport } : {}),
    channels,
    runs,
    rules,
  };
}

/** The baseline a run is held to: its file, and its entries. */
export interface Baseline {
  file: string;
  entries: readonly BaselineEntry[];
}

/** Why a run ended early, as the runner knows it: for an interrupted run, also its exit code. */
export type Stop =
  (RunStop & { reason: 'agent-stopped' | 'max-failures' }) | (RunStop & { reason: 'interrupted'; exitCode: InterruptExitCode });

/** The run's report from its cases, each already marked expected or not by the baseline. */
export function assembleReport(
  description: RunDescription,
  cases: CaseReport[],
  strict: boolean,
  baseline?: Baseline,
  stop?: Stop,
): Report {
  // Only the cases that were played are held to the baseline: an interrupted run says nothing of the rest.
  const played = cases.filter((caseReport) => caseReport.status !== 'not-run');
  const outcomeOfBaseline = baseline ? baselineOutcome(played, baseline.entries, baseline.file, strict) : null;
  const { rules, ...head } = description;
  return {
    ...head,
    ...runVerdict(
      cases,
      outcomeOfBaseline?.stale.length ?? 0,
      stop && (stop.reason === 'interrupted' ? { interrupted: stop.exitCode } : stop.reason),
    ),
    error: null,
    stopped: stop ? { reason: stop.reason, message: stop.message } : null,
    counts: caseCounts(cases),
    problems: withValues(groupProblems(played), played),
    cases,
    baseline: outcomeOfBaseline,
    rules,
  };
}

/** A report for a check that could not run (exit code 2). */
export function errorReport(description: RunDescription, message: string): Report {
  const { rules, ...head } = description;
  return {
    ...head,
    outcome: 'error',
    exitCode: 2,
    error: { message },
    stopped: null,
    counts: { cases: 0, passed: 0, failed: 0, notRun: 0, errors: 0, warnings: 0 },
    problems: [],
    cases: [],
    baseline: null,
    rules,
  };
}
