/**
 * `--start "COMMAND"` as the check and the chat read it: the wait it implies, the empty command it
 * refuses, the secrets its output must never show, and what to say of a port something else holds.
 */
import { secretsAssignedIn } from '../core/secret-names.js';
import { UsageError } from '../core/usage-error.js';
import { isLoopbackOrUnspecified } from '../core/loopback.js';
import { runSecrets } from '../http/sent-headers.js';
import type { CheckPlan } from '../run/plan.js';
import { holderSentence, portHolder, portOf } from './port-holder.js';

/** How long --start waits for the agent to answer when --wait does not say. */
const START_WAIT_SECONDS = 60;

/** --wait's seconds; with --start and no --wait, 60; undefined for neither. */
export function waitSecondsOf(args: { wait?: number | undefined; start?: string | undefined }): number | undefined {
  return args.wait ?? (args.start !== undefined ? START_WAIT_SECONDS : undefined);
}

/** `--start ""` is a usage error: there is no agent to start. */
export function refuseEmptyStart(start: string | undefined): void {
  if (start !== undefined && start.trim() === '') throw new UsageError('--start needs the command that starts your agent');
}

/**
 * Every secret of the run (the token, secret headers, the query's keys, the proxy's password) and
 * what the --start command itself sets a secret-named variable to: never in the command as shown,
 * in what the agent prints, or in the command line of a process found holding the port.
 */
export function startSecrets(plan: CheckPlan, start: string | undefined): string[] {
  return [...runSecrets(plan, plan.url, plan.proxy?.url), ...secretsAssignedIn(start ?? '')];
}

/**
 * What holds the port of a loopback URL, and how to stop it (port-holder.ts); undefined for
 * another host. `foundOnly`: only when /proc names the process, without the words on how to find it.
 */
export async function heldPortNote(
  url: URL,
  secrets: readonly string[],
  options: { foundOnly?: boolean } = {},
): Promise<string | undefined> {
  if (!isLoopbackOrUnspecified(url)) return undefined;
  const holder = await portHolder(portOf(url), secrets);
  return holder === undefined && options.foundOnly ? undefined : holderSentence(portOf(url), holder);
}
