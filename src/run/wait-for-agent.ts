/**
 * The HEAD probe, tried again until the agent answers (`--wait`, `--start`): the agent and the
 * check often start together in CI. Any HTTP status counts as an answer.
 */
import type { AgentTransport, HttpOutcome } from '../http/transport.js';

/** The first pause between tries, and the longest: 100 ms, 200 ms, 400 ms, ... up to 1 s. */
const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 1000;

export interface WaitOptions {
  /** Seconds to keep trying; 0 tries once. */
  waitSeconds: number;
  /** Gives up at once, with this reason, when the agent's process is known to have exited. */
  gaveUp?: () => string | undefined;
  signal?: AbortSignal;
}

/**
 * `waited`: the time ran out after trying more than once; `gaveUp`: the agent's process ended
 * first; `closedOnHead`: a try got through, and the agent closed or reset the connection without answering.
 */
export type ProbeResult =
  { reached: true; outcome: HttpOutcome } | { reached: false; reason: string; waited: boolean; gaveUp: boolean; closedOnHead: boolean };

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function waitForAgent(client: AgentTransport, options: WaitOptions): Promise<ProbeResult> {
  const deadline = Date.now() + options.waitSeconds * 1000;
  let pauseMs = FIRST_PAUSE_MS;
  let closedOnHead = false;
  for (;;) {
    const outcome = await client.send({ method: 'HEAD' });
    if (outcome.kind === 'answer') return { reached: true, outcome };
    closedOnHead ||= outcome.kind === 'network' && outcome.closedWithoutAnswer === true;
    const exited = options.gaveUp?.();
    if (exited !== undefined) return { reached: false, reason: exited, waited: false, gaveUp: true, closedOnHead };
    const left = deadline - Date.now();
    if (left <= 0 || options.signal?.aborted) {
      return { reached: false, reason: outcome.message, waited: options.waitSeconds > 0, gaveUp: false, closedOnHead };
    }
    await pause(Math.min(pauseMs, left), options.signal);
    pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS);
  }
}
