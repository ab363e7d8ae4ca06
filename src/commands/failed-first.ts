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
  /** For people: what goes first, or why nothing does. */
  note: string;
}

export async function failedFirst(cwd = process.cwd()): Promise<FailedFirst> {
  if (!existsSync(join(cwd, LAST_RUN_FILE)))
    return { pairs: [], note: '--failed-first: no run is recorded in this folder yet: playing in the usual order' };
  let record;
  try {
    record = await readLastRun(cwd);
  } catch (cause) {
    if (!(cause instanceof UsageError)) throw cause;
    return { pairs: [], note: `--failed-first: ${cause.message.replace(/;.*$/, '')}: playing in the usual order` };
  }
  const pairs = casesToRerun(record).map((recorded) => ({ case: recorded.case, channel: recorded.channel }));
  const of = `the last run (${whenRun(record)}, ${LAST_RUN_FILE})`;
  if (pairs.length === 0) return { pairs, note: `--failed-first: every case of ${of} passed: playing in the usual order` };
  const shown = pairs.map((pair) => `${pair.channel}/${pair.case}`).join(', ');
  return {
    pairs,
    note: `--failed-first: playing first the ${pairs.length} of ${record.cases.length} cases that did not pass in ${of}: ${shown}`,
  };
}
