/**
 * Playing a planned run's cases, after the HEAD probe: the schedule (which case on which channel,
 * in which batch), the tally of plays into case reports (a case reported once all its plays are
 * in; --max-failures counted as turns fail), and why the run stopped, if it did.
 */
import { commandName } from '../core/command-name.js';
import { conversationPattern, newRunId } from '../core/ids.js';
import type { CaseReport } from '../core/report.js';
import type { AgentTransport } from '../http/transport.js';
import type { Case } from '../cases/case.js';
import type { InProcessTarget } from '../validate/judge-exchange.js';
import { type PlayedCase, type Stop, combinePlays, notRunPlay } from './assemble.js';
import { isExpectedFailure } from './baseline.js';
import { AgentLiveness } from './liveness.js';
import { type CaseOnChannel, type CheckPlan, channelRules } from './plan.js';
import { type RunState, playCase, playConversationId } from './play-case.js';
import { runPooled } from '../core/pool.js';
import { reproduceTarget } from './reproduce-target.js';

/** One case on one channel, at its place in the report, and how many plays it gets. */
interface Slot {
  testCase: Case;
  channel: string;
  index: number;
  runs: number;
}

/** One play of a slot: what is scheduled. */
interface Task {
  slot: Slot;
  play: number;
}

/** The case and channel pairs the plan plays, in the report's order. */
export function scheduledPairs(plan: CheckPlan): CaseOnChannel[] {
  return schedule(plan).slots.map((slot) => ({ case: slot.testCase.id, channel: slot.channel }));
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
  const chosen = (entry: { testCase: Case; channel: string }): boolean =>
    only === undefined || only.some((pair) => pair.case === entry.testCase.id && pair.channel === entry.channel);
  const fixed = plan.cases.filter(
    (testCase) => testCase.group !== 'quality' && testCase.group !== 'scenario' && testCase.group !== 'explore',
  );
  groups.push(plan.channels.flatMap((channel) => fixed.map((testCase) => ({ testCase, channel }))).filter(chosen));
  // The team's scenarios, each on its own channels (the run's when it names none), all at once after the fixed cases.
  const team = plan.cases.filter((testCase) => testCase.group === 'scenario');
  groups.push(team.flatMap((testCase) => (testCase.channels ?? plan.channels).map((channel) => ({ testCase, channel }))).filter(chosen));
  // --explore: a batch per channel, each channel's conversations up to --concurrency at once.
  for (const testCase of plan.cases.filter((candidate) => candidate.group === 'explore')) {
    groups.push(...plan.channels.map((channel) => [{ testCase, channel }]).filter((group) => group.every(chosen)));
  }
  for (const testCase of plan.cases.filter((candidate) => candidate.group === 'quality')) {
    const channels =
      testCase.scope === 'run'
        ? only === undefined
          ? plan.channels.slice(0, 1)
          : plan.channels
        : plan.channels.filter((channel) => testCase.playsOn?.(channelRules(plan, channel)) ?? true);
    const group = channels.map((channel) => ({ testCase, channel })).filter(chosen);
    const kept = testCase.scope === 'run' ? group.slice(0, 1) : group;
    if (testCase.oneChannelAtATime) groups.push(...kept.map((entry) => [entry]));
    else groups.push(kept);
  }
  const slots: Slot[] = [];
  const batches = groups.map((group) =>
    group.flatMap((entry) => {
      const slot = { ...entry, index: slots.length, runs: entry.testCase.playsOnce ? 1 : plan.runs };
      slots.push(slot);
      return Array.from({ length: slot.runs }, (_, play) => ({ slot, play: play + 1 }));
    }),
  );
  return { slots, batches: plan.first ? firstPlayed(batches, plan.first) : batches };
}

/**
 * --failed-first (as pytest's --ff): the batches that hold a pair to play first go first, and in
 * each batch those pairs' plays go first; the rest keep their order, and the report (the slots) its own.
 */
function firstPlayed(batches: Task[][], first: readonly CaseOnChannel[]): Task[][] {
  const isFirst = (task: Task): boolean => first.some((pair) => pair.case === task.slot.testCase.id && pair.channel === task.slot.channel);
  const ordered = batches.map((batch) => [...batch.filter(isFirst), ...batch.filter((task) => !isFirst(task))]);
  return [...ordered.filter((batch) => batch.some(isFirst)), ...ordered.filter((batch) => !batch.some(isFirst))];
}

/**
 * The plays as they end, into case reports: a case is reported (onCase) once all its plays are in,
 * and --max-failures counts a case as failed from its first failing turn (without a baseline, which
 * may expect it to), so a case in flight sends no next turn once the limit is reached.
 */
class PlayTally {
  readonly cases: CaseReport[] = [];
  /** The cases finished so far, in the order they finished (quality/latency reads them). */
  readonly finished: CaseReport[] = [];
  readonly #failedCases = new Set<string>();
  readonly #plays: PlayedCase[][];
  readonly #totalPlays: number;
  #playsDone = 0;
  #playsFailed = 0;

  constructor(
    private readonly plan: CheckPlan,
    private readonly runId: string,
    slots: readonly Slot[],
    batches: readonly Task[][],
  ) {
    this.#plays = slots.map(() => []);
    this.#totalPlays = batches.reduce((sum, batch) => sum + batch.length, 0);
  }

  /** Whether --max-failures is reached. */
  maxedOut(): boolean {
    return this.plan.maxFailures !== undefined && this.#failedCases.size >= this.plan.maxFailures;
  }

  /** A turn failed its case: for --max-failures, unless a baseline may expect it to. */
  turnFailed(caseId: string, channel: string): void {
    if (!this.plan.baseline) this.#failedCases.add(caseKey(caseId, channel));
  }

  /** A play that was not played: the run was halted before it. */
  notRun({ slot, play }: Task): PlayedCase {
    return notRunPlay(slot.testCase.id, slot.channel, play, playConversationId(slot.testCase, slot.channel, this.runId, play));
  }

  /** One play ended; once its case's plays are all in, the case is reported. */
  record({ slot, play }: Task, played: PlayedCase): void {
    const { plan } = this;
    const ofSlot = this.#plays[slot.index]!;
    ofSlot[play - 1] = played;
    this.#playsDone++;
    if (played.status === 'failed') this.#playsFailed++;
    plan.hooks.onPlay?.(this.#playsDone, this.#totalPlays, this.#playsFailed);
    if (ofSlot.filter(Boolean).length < slot.runs) return;
    const combined = combinePlays(ofSlot, conversationPattern(this.runId, slot.channel, slot.testCase.id));
    const caseReport = plan.baseline
      ? { ...combined, expected: isExpectedFailure(combined, plan.baseline.entries, plan.strict) }
      : combined;
    this.cases[slot.index] = caseReport;
    if (caseReport.status !== 'not-run') this.finished.push(caseReport);
    if (caseReport.status === 'failed' && !caseReport.expected) this.#failedCases.add(caseKey(slot.testCase.id, slot.channel));
    plan.hooks.onCase?.(caseReport, slot.index);
  }
}

function caseKey(caseId: string, channel: string): string {
  return `${channel}\u0000${caseId}`;
}

/**
 * Plays every scheduled case on its channels, batch by batch, up to --concurrency plays at once;
 * nothing new once the run is halted (interrupted, the agent gone, --max-failures reached). Returns
 * the cases in the report's order, and why the run stopped, if it did.
 */
export async function playAll(
  plan: CheckPlan,
  client: AgentTransport,
  reproduceUrl: string | undefined,
  inProcess: InProcessTarget | undefined,
): Promise<{ cases: CaseReport[]; stop: Stop | undefined }> {
  const { signal, agentExit } = plan.hooks;
  const runId = newRunId();
  const { slots, batches } = schedule(plan);
  const tally = new PlayTally(plan, runId, slots, batches);
  const liveness = new AgentLiveness(client, agentExit);
  const halted = (): boolean => signal?.aborted === true || liveness.stop !== undefined || tally.maxedOut();
  const run: RunState = {
    plan,
    client,
    reproduce: reproduceTarget(plan, reproduceUrl),
    inProcess,
    runId,
    command: commandName(),
    finishedCases: () => tally.finished,
    liveness,
    signal,
    halted,
    turnFailed: (caseId, channel) => tally.turnFailed(caseId, channel),
  };
  // Plays whose turn found the agent gone: only the one whose turn was sent first keeps its failure.
  const foundItGone: { task: Task; played: PlayedCase; sentAt: number }[] = [];
  for (const batch of batches) {
    await runPooled(
      batch.map((task) => async () => {
        if (halted()) return tally.record(task, tally.notRun(task));
        const played = await playCase(task.slot.testCase, task.slot.channel, run, { play: task.play, runs: task.slot.runs });
        if (played.stoppedTurnSentAt === undefined) return tally.record(task, played.report);
        foundItGone.push({ task, played: played.report, sentAt: played.stoppedTurnSentAt });
      }),
      plan.concurrency,
    );
  }
  foundItGone.sort((a, b) => a.sentAt - b.sentAt);
  foundItGone.forEach(({ task, played }, index) => tally.record(task, index === 0 && !signal?.aborted ? played : tally.notRun(task)));
  return { cases: tally.cases, stop: runStop(plan, signal, liveness, tally) };
}

/** Why the run stopped: interrupted, a --start process that ended (even after the last turn was answered), or --max-failures. */
function runStop(plan: CheckPlan, signal: AbortSignal | undefined, liveness: AgentLiveness, tally: PlayTally): Stop | undefined {
  if (signal?.aborted) return interruption(signal);
  const agentStop = liveness.ended();
  if (agentStop) return { reason: 'agent-stopped', message: agentStop.message };
  if (tally.maxedOut() && tally.cases.some((caseReport) => caseReport.status === 'not-run'))
    return maxFailuresStop(plan.maxFailures!, tally.cases);
  return undefined;
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
export function interruption(signal: AbortSignal): Stop {
  const { reason } = signal as { reason: unknown };
  if (reason === 'SIGINT' || reason === 'SIGTERM')
    return { reason: 'interrupted', message: `the run was interrupted by ${reason}`, exitCode: reason === 'SIGTERM' ? 143 : 130 };
  const why = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
  return { reason: 'interrupted', message: `the run was aborted by the signal you passed (${why})`, exitCode: 130 };
}
