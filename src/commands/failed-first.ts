/**
 * `--failed-first` (as pytest's --ff): every case is played, those the last run left to play again
 * (failed, flaky or not run, as --failed takes them from .check-endpoint/last-run.json) first. A
 * folder with no record, or one it cannot read, plays in the usual order, and says why.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/usage-error.js';
import { casesToRerun, whenRun } from '../report/last-run.js';
import type { CaseOnChannel } from '../run/plan.js';
import { LAST_RUN_FILE, readLastRun } from './last-run-file.js';

export interface FailedFirst {
  /** The pairs to play first (empty: the usual order). */
  pairs: CaseOnChannel[];
  /** For people, given the pairs this run plays: what goes first, or why nothing does. */
  note(played: readonly CaseOnChannel[]): string;
}

const inTheUsualOrder = (why: string): FailedFirst => ({ pairs: [], note: () => `--failed-first: ${why}: playing in the usual order` });

export async function failedFirst(cwd = process.cwd()): Promise<FailedFirst> {
  if (!existsSync(join(cwd, LAST_RUN_FILE))) return inTheUsualOrder('no run is recorded in this folder yet');
  let record;
  try {
    record = await readLastRun(cwd);
  } catch (cause) {
    if (!(cause instanceof UsageError)) throw cause;
    return inTheUsualOrder(cause.message.replace(/;.*$/, ''));
  }
  const pairs = casesToRerun(record).map((recorded) => ({ case: recorded.case, channel: recorded.channel }));
  const of = `the last run (${whenRun(record)}, ${LAST_RUN_FILE})`;
  if (pairs.length === 0) return inTheUsualOrder(`every case of ${of} passed`);
  const total = record.cases.length;
  return {
    pairs,
    note: (played) => {
      const isPlayed = (pair: CaseOnChannel): boolean => played.some((other) => other.case === pair.case && other.channel === pair.channel);
      const first = pairs.filter(isPlayed);
      const left = pairs.filter((pair) => !isPlayed(pair));
      // Not in this run: a --case or --channel narrower than the last run's.
      const notHere = left.length ? ` (not in this run: ${shown(left)})` : '';
      if (first.length === 0)
        return `--failed-first: none of the ${pairs.length} of ${total} cases that did not pass in ${of} is in this run${notHere}: playing in the usual order`;
      return `--failed-first: playing first the ${first.length} of ${total} cases that did not pass in ${of}: ${shown(first)}${notHere}`;
    },
  };
}

function shown(pairs: readonly CaseOnChannel[]): string {
  return pairs.map((pair) => `${pair.channel}/${pair.case}`).join(', ');
}
