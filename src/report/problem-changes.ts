/**
 * What changed between two runs, by their distinct problems (a problem's `id` is the same in every
 * run that has it): those the earlier run had and this one has not (fixed), those both have (still),
 * and this run's own (new), each named by its name (its rule, pointer and channels), never by its number; one gone only because a case it came
 * on was not played this time is not checked, never fixed. --watch prints it under each run's digest.
 */
import type { ProblemReport } from '../core/report.js';
import type { Colours } from './colour.js';
import { printable } from './text.js';

export interface ProblemChanges {
  fixed: ProblemReport[];
  /** Gone from this run, but not checked: a case it came on was not played (the agent went down, --max-failures). */
  unchecked: ProblemReport[];
  still: { now: ProblemReport; before: ProblemReport }[];
  added: ProblemReport[];
}

/** A case on a channel this run played to its end, as the record names it. */
export interface PlayedPair {
  case: string;
  channel: string;
}

/** `played`: the pairs this run played (every one when left out); a problem is fixed only where every case it came on was played again. */
export function problemChanges(
  before: readonly ProblemReport[],
  now: readonly ProblemReport[],
  played?: readonly PlayedPair[],
): ProblemChanges {
  const earlier = new Map(before.map((problem) => [problem.id, problem]));
  const present = new Set(now.map((problem) => problem.id));
  const gone = before.filter((problem) => !present.has(problem.id));
  const checked = (problem: ProblemReport): boolean =>
    played === undefined ||
    problem.where.every((place) => played.some((pair) => pair.case === place.case && pair.channel === place.channel));
  return {
    fixed: gone.filter(checked),
    unchecked: gone.filter((problem) => !checked(problem)),
    still: now.flatMap((problem) => {
      const was = earlier.get(problem.id);
      return was ? [{ now: problem, before: was }] : [];
    }),
    added: now.filter((problem) => !earlier.has(problem.id)),
  };
}

/** How much of a problem's message the line quotes. */
const MESSAGE_EXCERPT = 60;

/** A problem's name, as its run called it. */
function nameOf(problem: ProblemReport): string {
  return printable(problem.name);
}

/** A problem gone: its name, and what it was (its number then is no help: the screen shows this run's). */
function gone(problem: ProblemReport): string {
  const message = printable(problem.message);
  const cut = [...message].length > MESSAGE_EXCERPT ? `${[...message].slice(0, MESSAGE_EXCERPT - 1).join('')}…` : message;
  return `${nameOf(problem)} (${cut})`;
}

/** A problem of this run: its name, and its number on the screen above. */
function shown(problem: ProblemReport): string {
  return `${nameOf(problem)} (problem ${problem.number})`;
}

/**
 * The line of what changed, each problem by its name, which is the same in both runs:
 * `since the last run: fixed: platform /replies/0/list/button on whatsapp (…) · still: schema /replies/0 on sms (problem 1)`.
 */
export function formatProblemChanges(changes: ProblemChanges, c: Colours): string {
  const parts = [
    ...(changes.fixed.length ? [c.green(`fixed: ${changes.fixed.map(gone).join(', ')}`)] : []),
    ...(changes.added.length ? [c.red(`new: ${changes.added.map(shown).join(', ')}`)] : []),
    ...(changes.unchecked.length
      ? [c.dim(`not checked (a case it came on was not played): ${changes.unchecked.map(nameOf).join(', ')}`)]
      : []),
    ...(changes.still.length ? [c.yellow(`still: ${changes.still.map(({ now }) => shown(now)).join(', ')}`)] : []),
  ];
  return `since the last run: ${parts.length ? parts.join(' · ') : 'no problem then, none now'}`;
}
