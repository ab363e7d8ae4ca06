/**
 * Whether the agent is still there. A turn that got no answer at all (refused, reset, closed) is
 * followed by one HEAD probe, or by a look at the agent's process under --start: when nothing
 * answers any more, the run stops there, as one finding, instead of failing every case left.
 * Under --start, the process's end stops the run too, even when something else still answers at
 * the URL (an old agent holding the port, which the new one died on with EADDRINUSE).
 */
import { type Finding, error } from '../core/findings.js';
import type { AgentTransport } from '../http/transport.js';

/** How the agent stopped: the failed turn's own reason, then what the process said, when known. */
export interface AgentStop {
  message: string;
  /** The agent's last lines of output, under --start. */
  lastLines: readonly string[];
  /** The --start process ended while something else went on answering at the URL. */
  answeredByOther?: boolean;
}

/** The one finding a dead agent gets, on the turn that found it gone. */
export function stoppedFinding(stop: AgentStop): Finding {
  const lines = stop.lastLines.slice(-5);
  if (stop.answeredByOther) {
    return error(
      'status',
      '',
      `expected this answer from the agent started by --start; it came from something else: ${stop.message}`,
      `${lines.length ? `Its last lines: ${lines.join(' ⏎ ')}. ` : ''}Does an old agent still hold its port? Stop it, or check that one alone with --reuse-existing.`,
    );
  }
  return error(
    'status',
    '',
    `expected an HTTP answer with status 200; got none: ${stop.message}`,
    lines.length
      ? `It stopped while answering this message; its last lines: ${lines.join(' ⏎ ')}`
      : "It stopped while answering this message: look at the agent's log for why.",
  );
}

/** Under --start: how the agent's process ended, once it has. */
export type AgentExit = () => { description: string; lastLines: readonly string[] } | undefined;

/** How long a look waits for the --start process's exit, once nothing answers. */
const EXIT_GRACE_MS = 1000;
const EXIT_POLL_MS = 25;

export class AgentLiveness {
  #stop: AgentStop | undefined;
  #checking: Promise<AgentStop | undefined> | undefined;

  constructor(
    readonly client: AgentTransport,
    readonly agentExit: AgentExit | undefined,
  ) {}

  /** The stop, once one is known. */
  get stop(): AgentStop | undefined {
    return this.#stop;
  }

  /**
   * After a turn got no answer (`reason`): how the agent stopped answering, or undefined while it
   * still answers. Turns that fail together share one look.
   */
  async confirm(reason: string): Promise<AgentStop | undefined> {
    if (this.#stop) return this.#stop;
    this.#checking ??= this.#look(reason).finally(() => (this.#checking = undefined));
    const stop = await this.#checking;
    this.#stop ??= stop;
    return stop;
  }

  /**
   * After a turn got an answer: under --start, whether the process has ended all the same, so that
   * the answer came from something else. Once it has, the run stops.
   */
  ended(): AgentStop | undefined {
    if (this.#stop) return this.#stop;
    const exited = this.agentExit?.();
    if (!exited) return undefined;
    this.#stop = {
      message: `the agent started by --start ended (${exited.description}) while something else went on answering at its URL`,
      lastLines: exited.lastLines,
      answeredByOther: true,
    };
    return this.#stop;
  }

  async #look(reason: string): Promise<AgentStop | undefined> {
    const exited = this.agentExit?.();
    if (exited) return { message: `the agent stopped answering (${reason}): ${exited.description}`, lastLines: exited.lastLines };
    const probe = await this.client.send({ method: 'HEAD' });
    if (probe.kind === 'answer') return undefined;
    const after = await this.#exitSoon();
    return {
      message: `the agent stopped answering (${reason}; a HEAD probe got no answer either: ${probe.message})${after ? `: ${after.description}` : ''}`,
      lastLines: after?.lastLines ?? [],
    };
  }

  /** Under --start, a process that no longer answers is usually exiting: its exit code is worth a moment. */
  async #exitSoon(): Promise<ReturnType<AgentExit>> {
    if (!this.agentExit) return undefined;
    for (let waited = 0; waited < EXIT_GRACE_MS; waited += EXIT_POLL_MS) {
      const exited = this.agentExit();
      if (exited) return exited;
      await new Promise((resolve) => setTimeout(resolve, EXIT_POLL_MS));
    }
    return this.agentExit();
  }
}
