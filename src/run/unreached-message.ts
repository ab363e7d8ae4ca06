/**
 * Why the HEAD probe before a run found no agent, in words: what the check and the chat page say
 * when they cannot begin.
 */
import { type AddedHeader, addedHeadersTooLarge, headersTooLargeReason } from '../validate/header-size-hints.js';
import { fixSentence } from '../validate/stack-fixes.js';
import type { ProbeResult } from './wait-for-agent.js';

/** Why the HEAD probe found no agent, in words; `added`: the headers the user added to every request. */
export function unreachedMessage(
  probe: Extract<ProbeResult, { reached: false }>,
  target: string,
  waitSeconds: number,
  added: readonly AddedHeader[],
): string {
  const waited = probe.waited ? ` after waiting ${waitSeconds} s` : '';
  const before = probe.gaveUp ? ' before it answered' : '';
  // A --start command that ended while something else answers, or holds its port without a word;
  // headers the user added that no server takes (theirs to shrink, not the agent's to answer); or
  // it did reach the agent, which dropped the connection: the classic handler that parses every body.
  if (probe.answeredByOther)
    return `The agent started by --start ended (${probe.reason}) before it answered, yet something else answers at ${target}: does an old agent still hold its port? Stop it, or check that one alone with --reuse-existing`;
  if (probe.heldSilently)
    return `The agent started by --start ended (${probe.reason}) before it answered, and something else holds its port: it took the connection to ${target} and did not answer. Does an old agent, or another program, hold the port? Stop it, or give --start another port`;
  if (probe.closedOnHead && addedHeadersTooLarge(added))
    return `Your agent at ${target} closed the connection on HEAD without answering${waited}: ${headersTooLargeReason(added)} (${probe.reason})`;
  if (probe.closedOnHead)
    return `Your agent at ${target} closed the connection on HEAD without answering${waited}; it must answer HEAD with any status (a handler that parses every body crashes on HEAD): ${probe.reason}. ${fixSentence('head-probe', undefined)}`;
  return `Could not reach your agent at ${target}${waited}: ${probe.reason}${before}`;
}
