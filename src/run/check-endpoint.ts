/**
 * The live check: the HEAD probe, then every chosen case on every channel. The runner only plans
 * (plan.ts), schedules (here) and assembles the report (assemble.ts); each case plays its own
 * conversations (play-case.ts, the scenarios in src/scenarios/).
 */
import { newRunId } from '../core/ids.js';
import type { CaseReport, Report } from '../core/report.js';
import { AgentClient } from '../http/client.js';
import type { Scenario } from '../scenarios/scenario.js';
import { type Stop, assembleReport, describeRun, errorReport, notRunCase } from './assemble.js';
import { isExpectedFailure } from './baseline.js';
import { AgentLiveness } from './liveness.js';
import { type CheckEndpointOptions, type CheckPlan, channelReports, planCheck } from './plan.js';
import { firstConversationId, playCase } from './play-case.js';
import { runPooled } from './pool.js';
import { waitForAgent } from './wait-for-agent.js';

export type { CheckEndpointOptions, CheckPlan } from './plan.js';
export { DEFAULT_TOKEN_ENV } from './defaults.js';

/** One case on one channel, at its place in the report. */
interface Slot {
  scenario: Scenario;
  channel: string;
  index: number;
}

/**
 * The report's cases in order, in the batches they are played in. The fixed (and extended) cases are one batch,
 * channel by channel, all at once (up to --concurrency conversations); each quality case is a
 * batch of its own, on its channels at once (a case of scope `run` on the first channel only).
 */
function schedule(plan: CheckPlan): Slot[][] {
  const batches: Omit<Slot, 'index'>[][] = [];
  const fixed = plan.scenarios.filter((scenario) => scenario.group !== 'quality');
  batches.push(plan.channels.flatMap((channel) => fixed.map((scenario) => ({ scenario, channel }))));
  for (const scenario of plan.scenarios.filter((candidate) => candidate.group === 'quality')) {
    const channels = scenario.scope === 'run' ? plan.channels.slice(0, 1) : plan.channels;
    batches.push(channels.map((channel) => ({ scenario, channel })));
  }
  let index = 0;
  return batches.map((batch) => batch.map((slot) => ({ ...slot, index: index++ })));
}

/** The run's description before any case: tool, contract, target, channels. */
export function describePlannedRun(plan: CheckPlan): ReturnType<typeof describeRun> {
  return describeRun(plan.contract, plan.url.href, channelReports(plan));
}

/**
 * Runs the live check against an agent's URL: the HEAD probe, then every case on every channel,
 * each case its own conversation, its turns in order, up to `concurrency` conversations at once.
 * Returns the same report as `--json`. Throws UsageError for options it cannot run with; an agent
 * that cannot be reached gives a report with outcome `error` and exit code 2.
 */
export async function checkEndpoint(target: string, options: CheckEndpointOptions = {}): Promise<Report> {
  const plan = planCheck(target, options);
  const quality = plan.scenarios.some((scenario) => scenario.group === 'quality');
  const client = new AgentClient(plan.url, {
    timeoutMs: plan.timeoutSeconds * 1000,
    maxBodyBytes: plan.maxBodyBytes,
    // quality/concurrency keeps all of its conversations in flight at once.
    connections: Math.max(plan.concurrency, quality ? plan.qualityConversations : 0),
    insecure: plan.insecure,
    ...(plan.token ? { token: plan.token } : {}),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const description = describePlannedRun(plan);
  const { signal, agentExit } = options;
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
      return errorReport(description, `Could not reach your agent at ${description.target}${waited}: ${probe.reason}`);
    }
    const runId = newRunId();
    const cases: CaseReport[] = [];
    const finished: CaseReport[] = [];
    const liveness = new AgentLiveness(client, agentExit);
    const run = { plan, client, runId, finishedCases: () => finished, liveness, signal };
    const notRun = (slot: Slot): CaseReport =>
      notRunCase(slot.scenario.id, slot.channel, firstConversationId(slot.scenario, slot.channel, runId));
    const record = (slot: Slot, played: CaseReport): void => {
      const caseReport = options.baseline
        ? { ...played, expected: isExpectedFailure(played, options.baseline.entries, plan.strict) }
        : played;
      cases[slot.index] = caseReport;
      if (caseReport.status !== 'not-run') finished.push(caseReport);
      options.onCase?.(caseReport, slot.index);
    };
    // Cases whose turn found the agent gone: only the one whose turn was sent first keeps its failure.
    const foundItGone: { slot: Slot; played: CaseReport; sentAt: number }[] = [];
    for (const batch of schedule(plan)) {
      await runPooled(
        batch.map((slot) => async () => {
          if (signal?.aborted || liveness.stop) return record(slot, notRun(slot));
          const played = await playCase(slot.scenario, slot.channel, run);
          if (played.stoppedTurnSentAt === undefined) return record(slot, played.report);
          foundItGone.push({ slot, played: played.report, sentAt: played.stoppedTurnSentAt });
        }),
        plan.concurrency,
      );
    }
    foundItGone.sort((a, b) => a.sentAt - b.sentAt);
    foundItGone.forEach(({ slot, played }, index) => record(slot, index === 0 && !signal?.aborted ? played : notRun(slot)));
    const stop: Stop | undefined =
      interrupted() ?? (liveness.stop ? { reason: 'agent-stopped', message: liveness.stop.message } : undefined);
    return assembleReport(description, cases, plan.strict, options.baseline, stop);
  } finally {
    await client.close();
  }
}

/** An interrupted run's stop: SIGTERM exits 143, anything else (SIGINT) 130. */
function interruption(signal: AbortSignal): Stop {
  const name = signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
  return { reason: 'interrupted', message: `the run was interrupted by ${name}`, exitCode: name === 'SIGTERM' ? 143 : 130 };
}
