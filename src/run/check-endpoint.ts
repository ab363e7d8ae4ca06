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

export type { CheckEndpointOptions, CheckPlan } from './plan.js';
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
 * first channel only).
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
    const channels = scenario.scope === 'run' && only === undefined ? plan.channels.slice(0, 1) : plan.channels;
    const group = channels.map((channel) => ({ scenario, channel })).filter(chosen);
    groups.push(scenario.scope === 'run' ? group.slice(0, 1) : group);
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
  return describeRun(plan.contract, plan.url.href, channelReports(plan), plan.runs, plan.rules);
}

/**
 * Runs the live check against an agent's URL: the HEAD probe, then every case on every channel,
 * each case its own conversation, its turns in order, up to `concurrency` conversations at once.
 * Returns the same report as `--json`. Throws a TypeError for an options object it does not know
 * (a key that is no option, a value of the wrong type), a UsageError for options it cannot run
 * with; an agent that cannot be reached gives a report with outcome `error` and exit code 2.
 */
export async function checkEndpoint(target: string, options: CheckEndpointOptions = {}): Promise<Report> {
  return runPlannedCheck(await planCheck(target, options));
}

/** Runs a planned check (planCheck): what checkEndpoint does once the options are resolved. */
export async function runPlannedCheck(plan: CheckPlan): Promise<Report> {
  const { hooks } = plan;
  const client = new AgentClient(plan.url, {
    timeoutMs: plan.timeoutSeconds * 1000,
    maxBodyBytes: plan.maxBodyBytes,
    // A case that keeps several conversations in flight at once (quality/concurrency) gets a connection for each.
    connections: plan.connections,
    insecure: plan.insecure,
    ...(plan.token ? { token: plan.token } : {}),
    ...(plan.headers.length ? { headers: plan.headers } : {}),
    ...(plan.proxy ? { proxy: plan.proxy.url } : {}),
    ...(hooks.onExchange ? { onExchange: hooks.onExchange } : {}),
    ...(hooks.signal ? { signal: hooks.signal } : {}),
  });
  const description = describePlannedRun(plan);
  const { signal, agentExit } = hooks;
  try {
    const probe = await waitForAgent(client, {
      waitSeconds: plan.waitSeconds,
      gaveUp: () => agentExit?.()?.description,
      ...(signal ? { signal } : {}),
    });
    const interrupted = (): Stop | undefined => (signal?.aborted ? interruption(signal) : undefined);
    if (!probe.reached) {
      const stop = interrupted();
      if (stop) return assembleReport(description, [], plan.strict, undefined, stop);
      const waited = probe.waited ? ` after waiting ${plan.waitSeconds} s` : '';
      const before = probe.gaveUp ? ' before it answered' : '';
      // It did reach the agent, which dropped the connection: the classic handler that parses every body.
      const message = probe.closedOnHead
        ? `Your agent at ${description.target} closed the connection on HEAD without answering${waited}; it must answer HEAD with any status (a handler that parses every body crashes on HEAD): ${probe.reason}`
        : `Could not reach your agent at ${description.target}${waited}: ${probe.reason}${before}`;
      return errorReport(description, message);
    }
    const runId = newRunId();
    const { slots, batches } = schedule(plan);
    const cases: CaseReport[] = [];
    const finished: CaseReport[] = [];
    const liveness = new AgentLiveness(client, agentExit);
    // --max-failures: once that many cases have failed, nothing new is sent.
    let failedCases = 0;
    const maxedOut = (): boolean => plan.maxFailures !== undefined && failedCases >= plan.maxFailures;
    const halted = (): boolean => signal?.aborted === true || liveness.stop !== undefined || maxedOut();
    const run = { plan, client, runId, finishedCases: () => finished, liveness, signal, halted };
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
      if (caseReport.status === 'failed' && !caseReport.expected) failedCases++;
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
    const stop: Stop | undefined =
      interrupted() ??
      (liveness.stop ? { reason: 'agent-stopped', message: liveness.stop.message } : undefined) ??
      (maxedOut() && cases.some((caseReport) => caseReport.status === 'not-run') ? maxFailuresStop(plan.maxFailures!) : undefined);
    return assembleReport(description, cases, plan.strict, plan.baseline, stop);
  } finally {
    await client.close();
  }
}

/** The stop of a run that reached --max-failures. */
function maxFailuresStop(maxFailures: number): Stop {
  const cases = maxFailures === 1 ? '1 case' : `${maxFailures} cases`;
  return { reason: 'max-failures', message: `the run stopped at --max-failures ${maxFailures} (${cases} failed)` };
}

/** An interrupted run's stop: SIGTERM exits 143, anything else (SIGINT) 130. */
function interruption(signal: AbortSignal): Stop {
  const name = signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
  return { reason: 'interrupted', message: `the run was interrupted by ${name}`, exitCode: name === 'SIGTERM' ? 143 : 130 };
}
