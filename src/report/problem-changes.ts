/**
 * What changed between two runs, by their distinct problems (a problem's `id` is the same in every
 * run that has it): those the earlier run had and this one has not (fixed), those both have (still,
 * with the number each run gives it), and this run's own (new); one gone only because a case it came
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

/** A problem by its number in its run, and what it is: `problem 1 (schema /replies/0: image and replyTo are null; …)`. */
function named(problem: ProblemReport): string {
  const message = printable(problem.message);
  const cut = [...message].length > MESSAGE_EXCERPT ? `${[...message].slice(0, MESSAGE_EXCERPT - 1).join('')}…` : message;
  return `problem ${problem.number} (${printable(problem.rule)} ${printable(problem.path) || '(body)'}: ${cut})`;
}

/** The line of what changed: `since the last run: fixed: problem 1 (…) · new: problem 2 (…) · still: problem 1 (was 2)`. */
export function formatProblemChanges(changes: ProblemChanges, c: Colours): string {
  const parts = [
    ...(changes.fixed.length ? [c.green(`fixed: ${changes.fixed.map(named).join(', ')}`)] : []),
    ...(changes.added.length ? [c.red(`new: ${changes.added.map(named).join(', ')}`)] : []),
    ...(changes.unchecked.length
      ? [
          c.dim(
            `not checked (a case it came on was not played): ${changes.unchecked.map((problem) => `problem ${problem.number}`).join(', ')}`,
          ),
        ]
      : []),
    ...(changes.still.length
      ? [
          c.yellow(
            `still: ${changes.still
              .map(({ now, before }) =>
                now.number === before.number ? `problem ${now.number}` : `problem ${now.number} (was ${before.number})`,
              )
              .join(', ')}`,
          ),
        ]
      : []),
  ];
  return `since the last run: ${parts.length ? parts.join(' · ') : 'no problem then, none now'}`;
}
