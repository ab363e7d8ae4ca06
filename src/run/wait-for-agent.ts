/**
 * The HEAD probe, tried again until the agent answers (`--wait`, `--start`): the agent and the
 * check often start together in CI. Any HTTP status counts as an answer.
 */
import type { AgentTransport, HttpFailure, HttpOutcome } from '../http/transport.js';
import { speaksTls } from '../http/speaks-tls.js';
import { connectionAdvice, speaksHttpsAdvice } from '../validate/connection-hints.js';

/** The first pause between tries, and the longest: 100 ms, 200 ms, 400 ms, ... up to 1 s. */
const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 1000;
/** How often a try in flight looks whether the agent's process has ended, and how long it may still answer once it has. */
const EXIT_POLL_MS = 25;
const ANSWER_AFTER_EXIT_MS = 1000;

export interface WaitOptions {
  /** Seconds to keep trying; 0 tries once. */
  waitSeconds: number;
  /** Gives up at once, with this reason, when the agent's process is known to have exited. */
  gaveUp?: () => string | undefined;
  signal?: AbortSignal;
  /** Where the probe goes over a socket, for advice on the connection; none for a handler called in this process. */
  socket?: ProbedSocket;
}

/** The agent's URL as reached over a socket, and whether directly (a TLS handshake may then be tried on its port). */
export interface ProbedSocket {
  url: URL;
  direct: boolean;
}

/**
 * `waited`: the time ran out after trying more than once; `gaveUp`: the agent's process ended
 * first; `answeredByOther`: it ended, yet something else answers at the URL; `heldSilently`: it
 * ended while something else had taken the try's connection and did not answer it; `closedOnHead`:
 * a try got through, and the agent closed or reset the connection without answering.
 */
export type ProbeResult =
  | { reached: true; outcome: HttpOutcome }
  | {
      reached: false;
      reason: string;
      waited: boolean;
      gaveUp: boolean;
      answeredByOther?: boolean;
      heldSilently?: boolean;
      closedOnHead: boolean;
    };

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

/**
 * What to do instead, when the failure shows the URL cannot work as given: the wrong scheme for the
 * port (an http:// URL whose port completes a TLS handshake), an untrusted certificate. Trying
 * again would not help. `tryTls`: try the handshake (once a run, after a close or bytes that are not HTTP).
 */
async function remedy(socket: ProbedSocket | undefined, failure: HttpFailure, tryTls: boolean): Promise<string | undefined> {
  if (socket === undefined) return undefined;
  const advice = connectionAdvice(failure, socket.url.href);
  if (advice) return advice;
  const plainHttp = socket.url.protocol === 'http:' && socket.direct;
  return tryTls && plainHttp && (await speaksTls(socket.url)) ? speaksHttpsAdvice(socket.url.href) : undefined;
}

/** The agent closed the connection without answering, or answered bytes that are not HTTP: perhaps TLS. */
function garbled(failure: HttpFailure): boolean {
  return failure.kind === 'network' && (failure.closedWithoutAnswer === true || /^HPE_/.test(failure.code ?? ''));
}

/**
 * One try's outcome; or, should the agent's process end while it is in flight (polled through
 * `gaveUp`), the outcome if it comes within a second more, else undefined: something else took
 * the connection and holds it silently, and waiting for the try's own deadline would tell nothing
 * more. The try left behind ends when the transport is closed.
 */
async function tryUnlessEnded(client: AgentTransport, gaveUp: (() => string | undefined) | undefined): Promise<HttpOutcome | undefined> {
  const sent = client.send({ method: 'HEAD' });
  if (gaveUp === undefined) return sent;
  return new Promise((resolve) => {
    let grace: NodeJS.Timeout | undefined;
    const poll = setInterval(() => {
      if (gaveUp() === undefined) return;
      clearInterval(poll);
      grace = setTimeout(() => resolve(undefined), ANSWER_AFTER_EXIT_MS);
    }, EXIT_POLL_MS);
    void sent.then((outcome) => {
      clearInterval(poll);
      clearTimeout(grace);
      resolve(outcome);
    });
  });
}

export async function waitForAgent(client: AgentTransport, options: WaitOptions): Promise<ProbeResult> {
  const deadline = Date.now() + options.waitSeconds * 1000;
  let pauseMs = FIRST_PAUSE_MS;
  let closedOnHead = false;
  let triedTls = false;
  for (;;) {
    const outcome = await tryUnlessEnded(client, options.gaveUp);
    const exited = options.gaveUp?.();
    if (outcome === undefined)
      return { reached: false, reason: exited ?? 'its process ended', waited: false, gaveUp: true, heldSilently: true, closedOnHead };
    if (outcome.kind === 'answer') {
      if (exited === undefined) return { reached: true, outcome };
      return { reached: false, reason: exited, waited: false, gaveUp: true, answeredByOther: true, closedOnHead };
    }
    const advice = await remedy(options.socket, outcome, !triedTls && garbled(outcome));
    triedTls ||= garbled(outcome);
    if (advice) return { reached: false, reason: `${outcome.message}. ${advice}`, waited: false, gaveUp: false, closedOnHead: false };
    closedOnHead ||= outcome.kind === 'network' && outcome.closedWithoutAnswer === true;
    if (exited !== undefined) return { reached: false, reason: exited, waited: false, gaveUp: true, closedOnHead };
    const left = deadline - Date.now();
    if (left <= 0 || options.signal?.aborted) {
      return { reached: false, reason: outcome.message, waited: options.waitSeconds > 0, gaveUp: false, closedOnHead };
    }
    await pause(Math.min(pauseMs, left), options.signal);
    pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS);
  }
}
