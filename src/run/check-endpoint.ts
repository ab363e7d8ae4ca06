/**
 * The live check: the HEAD probe, then every chosen case on every channel. The runner only plans
 * (plan.ts), schedules (here) and assembles the report (assemble.ts); each case plays its own
 * conversations (play-case.ts, the scenarios in src/scenarios/).
 */
import { conversationPattern, newRunId } from '../core/ids.js';
import type { CaseReport, Report } from '../core/report.js';
import { AgentClient } from '../http/client.js';
import type { Scenario } from '../scenarios/scenario.js';
import { type PlayedCase, type Stop, assembleReport, combinePlays, describeRun, errorReport, notRunPlay } from './assemble.js';
import { isExpectedFailure } from './baseline.js';
import { AgentLiveness } from './liveness.js';
import { type CheckEndpointOptions, type CheckPlan, channelReports, planCheck } from './plan.js';
import { playCase, playConversationId } from './play-case.js';
import { runPooled } from './pool.js';
import { waitForAgent } from './wait-for-agent.js';
import { platformRulesFor } from '../validate/validate-answer.js';
import { type CheckTarget, type ResolvedTarget, clientOptions, openTarget, plannedUrl, resolveTarget } from './agent-target.js';
import { shownUrl } from '../http/redact.js';
import { addedHeaders } from './request-headers.js';
import { addedHeadersTooLarge, headersTooLargeReason } from '../validate/header-size-hints.js';

export type { CheckEndpointOptions, CheckPlan } from './plan.js';
export type {
  CheckTarget,
  FetchHandler,
  FetchHandlerTarget,
  NodeListener,
  NodeListenerTarget,
  RouteHandler,
  RouteModule,
  RouteModuleTarget,
} from './agent-target.js';
export { DEFAULT_TOKEN_ENV } from './defaults.js';

/** One case on one channel, at its place in the report, and how many plays it gets. */
interface Slot {
  scenario: Scenario;
  channel: string;
  index: number;
  runs: number;
}

/** One play of a slot: what is scheduled. */
interface Task {
  slot: Slot;
  play: number;
}

/**
 * The report's cases in order, and the batches their plays are played in. The fixed (and extended) cases are one
 * batch, channel by channel, all plays at once (up to --concurrency conversations); each quality
 * case is a batch of its own, its plays on its channels at once (a case of scope `run` on the
 * first channel only; a case with a large request, one batch per channel).
 */
function schedule(plan: CheckPlan): { slots: Slot[]; batches: Task[][] } {
  const groups: Omit<Slot, 'index' | 'runs'>[][] = [];
  const { only } = plan;
  // --failed: only the pairs named, a case of scope `run` on the channel it was played on.
  const chosen = (entry: { scenario: Scenario; channel: string }): boolean =>
    only === undefined || only.some((pair) => pair.case === entry.scenario.id && pair.channel === entry.channel);
  const fixed = plan.scenarios.filter((scenario) => scenario.group !== 'quality');
  groups.push(plan.channels.flatMap((channel) => fixed.map((scenario) => ({ scenario, channel }))).filter(chosen));
  for (const scenario of plan.scenarios.filter((candidate) => candidate.group === 'quality')) {
    const channels =
      scenario.scope === 'run'
        ? only === undefined
          ? plan.channels.slice(0, 1)
          : plan.channels
        : plan.channels.filter(
            (channel) =>
              scenario.playsOn?.(
                platformRulesFor(channel, plan.contract, Object.hasOwn(plan.limits, channel) ? plan.limits[channel] : undefined),
              ) ?? true,
          );
    const group = channels.map((channel) => ({ scenario, channel })).filter(chosen);
    const kept = scenario.scope === 'run' ? group.slice(0, 1) : group;
    if (scenario.oneChannelAtATime) groups.push(...kept.map((entry) => [entry]));
    else groups.push(kept);
  }
  const slots: Slot[] = [];
  const batches = groups.map((group) =>
    group.flatMap((entry) => {
      const slot = { ...entry, index: slots.length, runs: entry.scenario.playsOnce ? 1 : plan.runs };
      slots.push(slot);
      return Array.from({ length: slot.runs }, (_, play) => ({ slot, play: play + 1 }));
    }),
  );
  return { slots, batches };
}

/** The run's description before any case: tool, contract, target, channels. */
export function describePlannedRun(plan: CheckPlan): ReturnType<typeof describeRun> {
  return describeRun(plan.contract, shownUrl(plan.url), channelReports(plan), plan.runs, plan.rules);
}

/**
 * Runs the live check against an agent: its URL, a fetch handler called in this process, or a
 * Node request listener served on a loopback port for the run (see agent-target.ts). The HEAD
 * probe, then every case on every channel, each case its own conversation, its turns in order, up
 * to `concurrency` conversations at once. Returns the same report as `--json`. Throws a TypeError
 * for an options object it does not know (a key that is no option, a value of the wrong type) or
 * a target it cannot check, a UsageError for options it cannot run with; an agent that cannot be
 * reached gives a report with outcome `error` and exit code 2.
 */
export async function checkEndpoint(target: CheckTarget, options: CheckEndpointOptions = {}): Promise<Report> {
  const resolved = resolveTarget(target);
  return runPlannedCheck(await planCheck(plannedUrl(resolved), options), resolved);
}

/** Runs a planned check (planCheck): what checkEndpoint does once the options are resolved; the plan's URL unless another target is given. */
export async function runPlannedCheck(plan: CheckPlan, target: ResolvedTarget = { kind: 'url', url: plan.url.href }): Promise<Report> {
  const { hooks } = plan;
  const opened = await openTarget(target, plan);
  const client = opened.transport;
  const description = describeRun(plan.contract, opened.target, channelReports(plan), plan.runs, plan.rules, opened.transportReport);
  const { signal, agentExit } = hooks;
  try {
    const probe = await waitForAgent(client, {
      waitSeconds: plan.waitSeconds,
      gaveUp: () => agentExit?.()?.description,
      ...(signal ? { signal } : {}),
      ...(opened.socket ? { socket: opened.socket } : {}),
    });
    const interrupted = (): Stop | undefined => (signal?.aborted ? interruption(signal) : undefined);
    if (!probe.reached) {
      const stop = interrupted();
      if (stop) return assembleReport(description, [], plan.strict, undefined, stop);
      const waited = probe.waited ? ` after waiting ${plan.waitSeconds} s` : '';
      const before = probe.gaveUp ? ' before it answered' : '';
      // Headers the user added that no server takes are theirs to shrink, not the agent's to answer.
      const added = addedHeaders(plan.headers);
      // A --start command that ended while something else answers; or it did reach the agent,
      // which dropped the connection: the classic handler that parses every body.
      const message = probe.answeredByOther
        ? `The agent started by --start ended (${probe.reason}) before it answered, yet something else answers at ${description.target}: does an old agent still hold its port? Stop it, or check that one alone with --reuse-existing`
        : probe.heldSilently
          ? `The agent started by --start ended (${probe.reason}) before it answered, and something else holds its port: it took the connection to ${description.target} and did not answer. Does an old agent, or another program, hold the port? Stop it, or give --start another port`
          : probe.closedOnHead && addedHeadersTooLarge(added)
            ? `Your agent at ${description.target} closed the connection on HEAD without answering${waited}: ${headersTooLargeReason(added)} (${probe.reason})`
            : probe.closedOnHead
              ? `Your agent at ${description.target} closed the connection on HEAD without answering${waited}; it must answer HEAD with any status (a handler that parses every body crashes on HEAD): ${probe.reason}`
              : `Could not reach your agent at ${description.target}${waited}: ${probe.reason}${before}`;
      return errorReport(description, message);
    }
    const runId = newRunId();
    const { slots, batches } = schedule(plan);
    const cases: CaseReport[] = [];
    const finished: CaseReport[] = [];
    const liveness = new AgentLiveness(client, agentExit);
    // --max-failures: once that many cases have failed, nothing new is sent. A case counts as soon
    // as one of its turns fails (without a baseline, which may expect it to), so a case in flight
    // sends no next turn once the limit is reached, whichever answer came first.
    const failedCases = new Set<string>();
    const caseKey = (caseId: string, channel: string): string => `${channel}\u0000${caseId}`;
    const maxedOut = (): boolean => plan.maxFailures !== undefined && failedCases.size >= plan.maxFailures;
    const halted = (): boolean => signal?.aborted === true || liveness.stop !== undefined || maxedOut();
    const turnFailed = (caseId: string, channel: string): void => {
      if (!plan.baseline) failedCases.add(caseKey(caseId, channel));
    };
    const run = {
      plan,
      client,
      reproduceUrl: opened.reproduceUrl,
      runId,
      finishedCases: () => finished,
      liveness,
      signal,
      halted,
      turnFailed,
    };
    const plays = slots.map((): PlayedCase[] => []);
    const notRun = ({ slot, play }: Task): PlayedCase =>
      notRunPlay(slot.scenario.id, slot.channel, play, playConversationId(slot.scenario, slot.channel, runId, play));
    const totalPlays = batches.reduce((sum, batch) => sum + batch.length, 0);
    let playsDone = 0;
    let playsFailed = 0;
    // A case is reported once all its plays are in.
    const record = ({ slot, play }: Task, played: PlayedCase): void => {
      const ofSlot = plays[slot.index]!;
      ofSlot[play - 1] = played;
      playsDone++;
      if (played.status === 'failed') playsFailed++;
      hooks.onPlay?.(playsDone, totalPlays, playsFailed);
      if (ofSlot.filter(Boolean).length < slot.runs) return;
      const combined = combinePlays(ofSlot, conversationPattern(runId, slot.channel, slot.scenario.id));
      const caseReport = plan.baseline
        ? { ...combined, expected: isExpectedFailure(combined, plan.baseline.entries, plan.strict) }
        : combined;
      cases[slot.index] = caseReport;
      if (caseReport.status !== 'not-run') finished.push(caseReport);
      if (caseReport.status === 'failed' && !caseReport.expected) failedCases.add(caseKey(slot.scenario.id, slot.channel));
      hooks.onCase?.(caseReport, slot.index);
    };
    // Plays whose turn found the agent gone: only the one whose turn was sent first keeps its failure.
    const foundItGone: { task: Task; played: PlayedCase; sentAt: number }[] = [];
    for (const batch of batches) {
      await runPooled(
        batch.map((task) => async () => {
          if (halted()) return record(task, notRun(task));
          const played = await playCase(task.slot.scenario, task.slot.channel, run, { play: task.play, runs: task.slot.runs });
          if (played.stoppedTurnSentAt === undefined) return record(task, played.report);
          foundItGone.push({ task, played: played.report, sentAt: played.stoppedTurnSentAt });
        }),
        plan.concurrency,
      );
    }
    foundItGone.sort((a, b) => a.sentAt - b.sentAt);
    foundItGone.forEach(({ task, played }, index) => record(task, index === 0 && !signal?.aborted ? played : notRun(task)));
    // The stop, or a --start process that ended after the last turn was answered: that fails the run too.
    const agentStop = liveness.ended();
    const stop: Stop | undefined =
      interrupted() ??
      (agentStop ? { reason: 'agent-stopped', message: agentStop.message } : undefined) ??
      (maxedOut() && cases.some((caseReport) => caseReport.status === 'not-run') ? maxFailuresStop(plan.maxFailures!, cases) : undefined);
    return assembleReport(description, cases, plan.strict, plan.baseline, stop);
  } finally {
    await client.close();
  }
}

/** How long the look before --start waits for an answer: what holds the port silently does not answer, and is found once the command dies on it. */
const ANSWERS_BEFORE_START_MS = 2000;

/**
 * Whether anything answers the HEAD probe at the target now, with one try of at most 2 s: before
 * --start runs its command, an answer means someone else's agent would be checked.
 */
export async function somethingAnswers(plan: CheckPlan): Promise<boolean> {
  const { onExchange: _onExchange, signal: _signal, ...unrecorded } = clientOptions(plan);
  const client = new AgentClient(plan.url, { ...unrecorded, timeoutMs: Math.min(unrecorded.timeoutMs, ANSWERS_BEFORE_START_MS) });
  try {
    return (await client.head()).kind === 'answer';
  } finally {
    await client.close();
  }
}

/**
 * The stop of a run that reached --max-failures, with the real counts: cases already in flight
 * when the limit was reached finish, so more than the limit may have failed.
 */
function maxFailuresStop(maxFailures: number, cases: readonly CaseReport[]): Stop {
  const failed = cases.filter((caseReport) => caseReport.status === 'failed' && !caseReport.expected).length;
  const notPlayed = cases.filter((caseReport) => caseReport.status === 'not-run').length;
  const count = (n: number): string => (n === 1 ? '1 case' : `${n} cases`);
  return {
    reason: 'max-failures',
    message: `the run stopped at --max-failures ${maxFailures} (${count(failed)} failed, ${count(notPlayed)} not played)`,
  };
}

/**
 * An interrupted run's stop: the command's signals (the reason it aborts with) SIGTERM exit 143 and
 * SIGINT 130; the library's own signal, aborted with any other reason, is said as such (130).
 */
function interruption(signal: AbortSignal): Stop {
  const { reason } = signal as { reason: unknown };
  if (reason === 'SIGINT' || reason === 'SIGTERM')
    return { reason: 'interrupted', message: `the run was interrupted by ${reason}`, exitCode: reason === 'SIGTERM' ? 143 : 130 };
  const why = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
  return { reason: 'interrupted', message: `the run was aborted by the signal you passed (${why})`, exitCode: 130 };
}
