/**
 * `.check-endpoint/last-run.json` in the current folder: the check writes it after every run that
 * got past its flags (atomically); `show` prints it and `--failed` reads which cases to play again.
 * The folder gets a `.gitignore` of `*`, as pytest's cache does, so it is never committed by mistake.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../core/report.js';
import { UsageError } from '../core/usage-error.js';
import { LAST_RUN_FORMAT_VERSION, type LastRun, lastRunRecord } from '../report/last-run.js';
import { JsonFileError, jsonFileMessage, parseJsonText, readBoundedText } from './read-json-file.js';
import { writeFileAtomic } from './write-file-atomic.js';
import { mergeRecords, playedAt } from '../report/merge-record.js';
import { commandWords } from '../core/command-words.js';
import { makeFolder } from './make-folder.js';

/** The folder the check keeps its own files in, in the current folder. */
export const STATE_FOLDER = '.check-endpoint';
/** As messages name it: relative to the current folder. */
export const LAST_RUN_FILE = `${STATE_FOLDER}/last-run.json`;

/** What writeLastRun wrote: the file, relative to `cwd`, and how many cases it kept from an earlier run (a partial run's record). */
export interface WrittenRecord {
  file: string;
  kept: number;
  /** When the earliest kept case was played; absent when none was kept. */
  keptFrom?: string;
}

/** Makes the check's own folder in `cwd`, with its `.gitignore` of `*`: for the record and every file beside it. */
export async function makeStateFolder(cwd: string): Promise<void> {
  const folder = join(cwd, STATE_FOLDER);
  await makeFolder(folder);
  await fs.writeFile(join(folder, '.gitignore'), '*\n', { flag: 'wx' }).catch((cause: NodeJS.ErrnoException) => {
    if (cause.code !== 'EEXIST') throw cause;
  });
}

/**
 * Records the run, with the flags `--failed` plays with again; after a partial run (`--failed`, a
 * narrower `--case` or `--channel`), merged into the record it found (report/merge-record.ts).
 */
export async function writeLastRun(
  report: Report,
  finishedAt: Date,
  flags: NonNullable<LastRun['flags']> = {},
  cwd = process.cwd(),
): Promise<WrittenRecord> {
  await makeStateFolder(cwd);
  const now = { ...lastRunRecord(report, finishedAt), flags };
  const record = mergeRecords(previousRecord(cwd), now);
  await writeFileAtomic(join(cwd, LAST_RUN_FILE), `${JSON.stringify(record, null, 2)}\n`);
  const kept = record.cases.filter((recorded) => recorded.playedAt !== now.finishedAt);
  const keptFrom = kept.map((recorded) => playedAt(recorded, record)).sort()[0];
  return { file: LAST_RUN_FILE, kept: kept.length, ...(keptFrom !== undefined ? { keptFrom } : {}) };
}

/** The record a run merges into: none when there is none, or it cannot be read (it is then written anew). */
function previousRecord(cwd: string): LastRun | undefined {
  try {
    return readLastRunSync(cwd);
  } catch (cause) {
    if (cause instanceof UsageError) return undefined;
    throw cause;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const STATUSES = ['passed', 'failed', 'not-run'];
const LABELS = ['passing', 'flaky', 'failing', 'not-run'];
const OUTCOMES = ['passed', 'failed', 'error', 'interrupted'];

/** Whether a recorded case has what show and --failed read, of the right types. */
function isRecordedCase(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const { case: id, channel, status, label, expected, runs, passedRuns, turns, rules, findings } = value;
  return (
    typeof id === 'string' &&
    typeof channel === 'string' &&
    STATUSES.includes(String(status)) &&
    LABELS.includes(String(label)) &&
    typeof expected === 'boolean' &&
    Number.isInteger(runs) &&
    Number.isInteger(passedRuns) &&
    Number.isInteger(turns) &&
    Array.isArray(rules) &&
    (value.playedAt === undefined || typeof value.playedAt === 'string') &&
    Array.isArray(findings) &&
    findings.every(
      (finding) =>
        isRecord(finding) &&
        typeof finding.rule === 'string' &&
        (finding.severity === 'error' || finding.severity === 'warning') &&
        typeof finding.path === 'string' &&
        typeof finding.message === 'string' &&
        (finding.hint === null || typeof finding.hint === 'string') &&
        (finding.turn === null || Number.isInteger(finding.turn)) &&
        (finding.plays === undefined || Number.isInteger(finding.plays)) &&
        (finding.cause === undefined || isCause(finding.cause)),
    )
  );
}

/** A finding's cause, as spec/last-run.schema.json bounds it. */
function isCause(value: unknown): boolean {
  // Counted in code points, as the schema's maxLength is.
  const text = (field: unknown, most: number): boolean => typeof field === 'string' && field.length > 0 && Array.from(field).length <= most;
  return isRecord(value) && text(value.id, 100) && text(value.summary, 1000) && text(value.instance, 1000);
}

/** The record, checked field by field: anything else is a UsageError saying to run the check again. */
export function parseLastRun(text: string, file = LAST_RUN_FILE): LastRun {
  let value: unknown;
  try {
    value = parseJsonText(text);
  } catch (cause) {
    if (!(cause instanceof JsonFileError)) throw cause;
    throw new UsageError(`${file} ${cause.message}; run the check again to record a run anew`);
  }
  if (isRecord(value) && value.version !== LAST_RUN_FORMAT_VERSION && Number.isInteger(value.version)) {
    throw new UsageError(
      `${file} is of record format ${String(value.version)}, written by another version of check-endpoint (this one reads format ${LAST_RUN_FORMAT_VERSION}); run the check again`,
    );
  }
  const counts = isRecord(value) ? value.counts : undefined;
  const valid =
    isRecord(value) &&
    isRecord(value.tool) &&
    typeof value.tool.version === 'string' &&
    typeof value.target === 'string' &&
    typeof value.finishedAt === 'string' &&
    OUTCOMES.includes(String(value.outcome)) &&
    (value.error === null || typeof value.error === 'string') &&
    (value.stopped === null || (isRecord(value.stopped) && typeof value.stopped.message === 'string')) &&
    Number.isInteger(value.runs) &&
    Array.isArray(value.channels) &&
    value.channels.every((channel) => isRecord(channel) && typeof channel.name === 'string') &&
    isRecord(counts) &&
    ['cases', 'passed', 'failed', 'notRun', 'errors', 'warnings'].every((key) => Number.isInteger(counts[key])) &&
    Array.isArray(value.cases) &&
    value.cases.every(isRecordedCase) &&
    (value.spec === undefined ||
      (isRecord(value.spec) && typeof value.spec.version === 'string' && typeof value.spec.source === 'string')) &&
    // Each flag's value is checked against the option table where --failed reads them (src/cli/config-file.ts).
    (value.flags === undefined || isRecord(value.flags));
  if (!valid)
    throw new UsageError(
      `${file} is not a record of a run (its schema: ${commandWords('spec last-run')}); run the check again to record one anew`,
    );
  // Every field read is checked above, as spec/last-run.schema.json describes it.
  return value as unknown as LastRun;
}

/** The last run, as recorded in the current folder. A UsageError (exit 2) when there is none, or it cannot be read. */
export async function readLastRun(cwd = process.cwd()): Promise<LastRun> {
  return readLastRunSync(cwd);
}

/** readLastRun, for the command line's parser (which reads the config file so too): the record is at most 1 MiB. */
export function readLastRunSync(cwd = process.cwd()): LastRun {
  let text: string;
  try {
    // Bounded as the config file is: a regular file of at most 1 MiB.
    text = readBoundedText(join(cwd, LAST_RUN_FILE));
  } catch (cause) {
    if (!(cause instanceof JsonFileError)) throw cause;
    if (cause.code === 'ENOENT')
      throw new UsageError(`no run is recorded in this folder (${LAST_RUN_FILE} does not exist): run the check in this folder first`);
    throw new UsageError(`${jsonFileMessage(cause, LAST_RUN_FILE)}; run the check again to record a run anew`);
  }
  return parseLastRun(text);
}
