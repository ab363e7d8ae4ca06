/**
 * The live check: the HEAD probe, then every chosen case on every channel. The runner only plans
 * (plan.ts), schedules (here) and assembles the report (assemble.ts); each case plays its own
 * conversations (play-case.ts, the scenarios in src/cases/).
 */
import type { Report, TransportReport } from '../core/report.js';
import { AgentClient, type AgentClientOptions } from '../http/client.js';
import type { AgentTransport } from '../http/transport.js';
import { assembleReport, describeRun, errorReport } from './assemble.js';
import { interruption, playAll } from './play-all.js';
import { type CheckEndpointOptions, type CheckPlan, type CommandOptions, channelReports, planCheck } from './plan.js';
import { type ProbeResult, type ProbedSocket, waitForAgent } from './wait-for-agent.js';
import { type CheckTarget, type ResolvedTarget, plannedUrl, resolveTarget, transportReport } from './agent-target.js';
import { shownUrl } from '../http/redact.js';

export type { CheckEndpointOptions, CheckPlan } from './plan.js';
export type { CheckTarget, FetchHandler, FetchHandlerTarget, NodeListener, NodeListenerTarget } from './agent-target.js';
export { DEFAULT_TOKEN_ENV } from './defaults.js';

/** The run's description before any case: tool, contract, target, channels. */
export function describePlannedRun(plan: CheckPlan): ReturnType<typeof describeRun> {
  return describeRun(plan.contract, shownUrl(plan.url), channelReports(plan), plan.runs, plan.rules);
}

/** The HTTP client's settings for a run. */
function clientOptions(plan: CheckPlan): AgentClientOptions {
  const { hooks } = plan;
  return {
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
  };
}

/** A target opened for the run: its transport, how the report names it, and where reproduce lines send a turn. */
interface OpenedTarget {
  transport: AgentTransport;
  target: string;
  reproduceUrl: string | undefined;
  transportReport?: TransportReport;
  /** Where the HEAD probe goes over a socket, for advice on the connection; none for a fetch handler. */
  socket?: ProbedSocket;
}

async function openTarget(resolved: ResolvedTarget, plan: CheckPlan): Promise<OpenedTarget> {
  const settings = clientOptions(plan);
  if (resolved.kind === 'url')
    return {
      transport: new AgentClient(plan.url, settings),
      target: shownUrl(plan.url),
      reproduceUrl: shownUrl(plan.url),
      socket: { url: plan.url, direct: !plan.proxy },
    };
  // The in-process transports are loaded only for a handler: the command never needs them.
  if (resolved.kind === 'fetch-handler') {
    const { FetchHandlerTransport } = await import('../http/fetch-handler.js');
    const { timeoutMs, maxBodyBytes, token, headers, onExchange, signal } = settings;
    return {
      transport: new FetchHandlerTransport(resolved.handler, {
        url: plannedUrl(resolved),
        timeoutMs,
        maxBodyBytes,
        ...(token ? { token } : {}),
        ...(headers ? { headers } : {}),
        ...(onExchange ? { onExchange } : {}),
        ...(signal ? { signal } : {}),
      }),
      target: 'in-process fetch handler',
      reproduceUrl: undefined,
      transportReport: transportReport('fetch-handler'),
    };
  }
  // Served on loopback by the checker itself: no proxy, no TLS.
  const { serveListener } = await import('../http/listener-server.js');
  const served = await serveListener(resolved.listener, resolved.path);
  const { proxy: _proxy, ...direct } = settings;
  const client = new AgentClient(served.url, { ...direct, insecure: false });
  return {
    transport: {
      send: (sent) => client.send(sent),
      close: async () => {
        await client.close();
        await served.close();
      },
    },
    target: `Node request listener, served by check-endpoint at ${served.url.href}`,
    socket: { url: served.url, direct: true },
    reproduceUrl: undefined,
    transportReport: transportReport('node-listener'),
  };
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
      if (signal?.aborted) return assembleReport(description, [], plan.strict, undefined, interruption(signal));
      return errorReport(description, unreachedMessage(probe, description.target, plan.waitSeconds));
    }
    const { cases, stop } = await playAll(plan, client, opened.reproduceUrl);
    return assembleReport(description, cases, plan.strict, plan.baseline, stop);
  } finally {
    await client.close();
  }
}

/** Why the HEAD probe found no agent, in words. */
function unreachedMessage(probe: Extract<ProbeResult, { reached: false }>, target: string, waitSeconds: number): string {
  const waited = probe.waited ? ` after waiting ${waitSeconds} s` : '';
  const before = probe.gaveUp ? ' before it answered' : '';
  // A --start command that ended while something else answers; or it did reach the agent,
  // which dropped the connection: the classic handler that parses every body.
  if (probe.answeredByOther)
    return `The agent started by --start ended (${probe.reason}) before it answered, yet something else answers at ${target}: does an old agent still hold its port? Stop it, or check that one alone with --reuse-existing`;
  if (probe.closedOnHead)
    return `Your agent at ${target} closed the connection on HEAD without answering${waited}; it must answer HEAD with any status (a handler that parses every body crashes on HEAD): ${probe.reason}`;
  return `Could not reach your agent at ${target}${waited}: ${probe.reason}${before}`;
}

/**
 * Whether anything answers the HEAD probe at the target now, with one try: before --start runs
 * its command, an answer means someone else's agent would be checked.
 */
export async function somethingAnswers(plan: CheckPlan): Promise<boolean> {
  const { onExchange: _onExchange, signal: _signal, ...unrecorded } = clientOptions(plan);
  const client = new AgentClient(plan.url, unrecorded);
  try {
    return (await client.head()).kind === 'answer';
  } finally {
    await client.close();
  }
}
