/**
 * `--failed`: what the last run leaves to play again. The case and channel pairs that failed, were
 * flaky or were not run (as Playwright's --last-failed and pytest's --lf), narrowed by --case and
 * --channel when given; none left is a run with nothing to send, which says so and passes (as
 * Playwright does: pytest would run everything, which after a green run is the slow surprise).
 * `against` names, after the run, what it checked (`of http://… (contract 1.0, bundled)`).
 */
import type { CaseOnChannel } from '../run/plan.js';
import { UsageError } from '../core/usage-error.js';
import { type LastRun, casesToRerun, whenRun } from '../report/last-run.js';
import { LAST_RUN_FILE } from './last-run-file.js';

export interface Rerun {
  /** The pairs to play, in the last run's order (empty: nothing to rerun). */
  only: CaseOnChannel[];
  /** Their cases and channels, each once, for the plan. */
  cases: string[];
  channels: string[];
  /** --runs of the last run: a flaky case gets as many plays again. */
  runs: number;
  /** For people: what is played again, or why nothing is. */
  note: string;
}

/** The pairs the last run leaves to play, narrowed to the --case and --channel given (none given: all of them). */
/** A UsageError for a record of a run that could not run: no case of it failed, so --failed has nothing to go on. */
export function assertRerunnable(record: LastRun): void {
  if (record.outcome === 'error') {
    throw new UsageError(
      `--failed: the last run (${whenRun(record)}) could not run, so no case of it failed: ${record.error ?? 'no reason recorded'}; run the check without --failed`,
    );
  }
}

export function rerunOf(record: LastRun, narrow: { cases: readonly string[]; channels: readonly string[] }, against = ''): Rerun {
  assertRerunnable(record);
  const left = casesToRerun(record).filter(
    (recorded) =>
      (narrow.cases.length === 0 || narrow.cases.includes(recorded.case)) &&
      (narrow.channels.length === 0 || narrow.channels.includes(recorded.channel)),
  );
  const only = left.map((recorded) => ({ case: recorded.case, channel: recorded.channel }));
  const from = `the last run (${whenRun(record)}, ${LAST_RUN_FILE})${against}`;
  const narrowed = narrow.cases.length || narrow.channels.length ? ' of the --case and --channel given' : '';
  const note = only.length
    ? `--failed: playing ${only.length} of ${record.cases.length} cases of ${from}: ${only.map((pair) => `${pair.channel}/${pair.case}`).join(', ')}`
    : `--failed: nothing to rerun: every case${narrowed} of ${from} passed`;
  return {
    only,
    cases: [...new Set(only.map((pair) => pair.case))],
    channels: [...new Set(only.map((pair) => pair.channel))],
    runs: record.runs,
    note,
  };
}
