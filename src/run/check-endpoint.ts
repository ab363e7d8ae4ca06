/**
 * The live check: the HEAD probe, then every chosen case on every channel. The runner only plans
 * (plan.ts), schedules (here) and assembles the report (assemble.ts); each case plays its own
 * conversations (play-case.ts, the cases in src/cases/).
 */
import type { Report } from '../core/report.js';
import { AgentClient } from '../http/client.js';
import { type CheckTarget, type ResolvedTarget, clientOptions, openTarget, plannedUrl, resolveTarget } from './agent-target.js';
import { assembleReport, describeRun, errorReport } from './assemble.js';
import { interruption, playAll } from './play-all.js';
import { withTeamScenarios } from './scenario-report.js';
import { type CheckEndpointOptions, type CheckPlan, type CommandOptions, channelReports, planCheck } from './plan.js';
import { addedHeaders } from './request-headers.js';
import { waitForAgent } from './wait-for-agent.js';
import { unreachedMessage } from './unreached-message.js';
import { shownUrl } from '../http/redact.js';

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
  return checkEndpointWith(target, options, {});
}

/** What the command adds to a run, beside the library's options: not part of CheckEndpointOptions. */
export interface CommandHooks extends CommandOptions {
  /**
   * Called once the options are resolved, before anything is sent: the command prints its header
   * from the plan, and starts its agent (--start). A throw ends the check there.
   */
  onPlanned?: (plan: CheckPlan) => Promise<void> | void;
}

/** checkEndpoint, with the command's hooks: the one sequence of a check, for the library and the command alike. */
export async function checkEndpointWith(target: CheckTarget, options: unknown, command: CommandHooks): Promise<Report> {
  const resolved = resolveTarget(target);
  const plan = await planCheck(plannedUrl(resolved), options, command);
  await command.onPlanned?.(plan);
  return runPlannedCheck(plan, resolved);
}

/** Runs a planned check (planCheck): what checkEndpoint does once the options are resolved. */
async function runPlannedCheck(plan: CheckPlan, target: ResolvedTarget): Promise<Report> {
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
    if (!probe.reached) {
      if (signal?.aborted)
        return withTeamScenarios(assembleReport(description, [], plan.strict, undefined, interruption(signal)), plan.teamScenarios);
      return withTeamScenarios(
        errorReport(description, unreachedMessage(probe, description.target, plan.waitSeconds, addedHeaders(plan.headers))),
        plan.teamScenarios,
      );
    }
    const inProcess = target.kind === 'url' ? undefined : { kind: target.kind, path: target.path };
    const { cases, stop } = await playAll(plan, client, opened.reproduceUrl, inProcess);
    return withTeamScenarios(assembleReport(description, cases, plan.strict, plan.baseline, stop), plan.teamScenarios);
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
