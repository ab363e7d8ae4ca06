/**
 * After a run, its record: `.check-endpoint/last-run.json` written (a partial run's merged into the
 * last), or the last one kept when this run played no case, and the line on stderr that says which.
 */
import { commandName } from '../core/command-name.js';
import type { Report } from '../core/report.js';
import { UsageError } from '../core/usage-error.js';
import { type LastRun, whenRun } from '../report/last-run.js';
import { LAST_RUN_FILE, readLastRunSync, writeLastRun } from './last-run-file.js';
import { writeFailureReason } from './report-files.js';

/**
 * What the record is for, as the line that says where it is written puts it: `show` always;
 * `--failed` where it can play from it: not after a run that could not run, and with the URL again
 * when it had a query (the record keeps no query value).
 */
export function recordedNote(report: Pick<Report, 'outcome' | 'target'>, command: string): string {
  if (report.outcome === 'error') return `${command} show prints it (the check could not run: --failed has nothing to play again)`;
  if (report.target.includes('?'))
    return `${command} show prints it, ${command} URL --failed plays again what did not pass (the URL again: its query's values are not recorded)`;
  return `${command} show prints it, --failed plays again what did not pass`;
}

/** Writes .check-endpoint/last-run.json and says so on stderr; a folder it cannot write in is said, in words, not fatal. */
export async function recordRun(report: Report, flags: NonNullable<LastRun['flags']>, quiet: boolean): Promise<void> {
  // A run that played no case (the agent down, say) does not replace a record that has cases: --failed still plays what failed then.
  const kept = report.cases.length === 0 ? keptRecord() : undefined;
  if (kept) {
    if (!quiet)
      process.stderr.write(
        `not recorded: this run played no case, so ${LAST_RUN_FILE} keeps the run of ${kept.finishedAt} (${kept.cases.length} cases): --failed plays again what failed then\n`,
      );
    return;
  }
  try {
    const { file, kept, keptFrom } = await writeLastRun(report, new Date(), flags);
    const merged =
      kept && keptFrom
        ? ` (with the ${kept === 1 ? 'case' : `${kept} cases`} this run did not play, as played ${whenRun({ finishedAt: keptFrom })})`
        : '';
    if (!quiet) process.stderr.write(`recorded in ${file}${merged}: ${recordedNote(report, commandName())}\n`);
  } catch (cause) {
    const reason = await writeFailureReason(LAST_RUN_FILE, cause);
    process.stderr.write(`check-endpoint: could not record this run in ${LAST_RUN_FILE}: ${reason}\n`);
  }
}

/** The recorded run, when there is one that played cases; undefined when there is none or it cannot be read. */
function keptRecord(): LastRun | undefined {
  try {
    const record = readLastRunSync();
    return record.cases.length > 0 ? record : undefined;
  } catch (cause) {
    if (cause instanceof UsageError) return undefined;
    throw cause;
  }
}
