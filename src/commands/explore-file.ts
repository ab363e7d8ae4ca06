/**
 * `.check-endpoint/explore.json`: the conversations --explore found failing, each shrunk, kept
 * beside the record of the last run. The next --explore plays them first; --failed plays exactly
 * them; `show` prints them. Read as every file the tool reads: a regular file of at most 1 MiB,
 * checked field by field (src/cases/explore/kept-conversations.ts).
 */
import { join } from 'node:path';
import type { ExploreSettings, KeptConversation } from '../cases/case.js';
import { EXPLORE_CASE_ID } from '../cases/explore/explore-case.js';
import { KEPT_FORMAT_VERSION, keptAfter, keptConversationsOf } from '../cases/explore/kept-conversations.js';
import type { Report } from '../core/report.js';
import { UsageError } from '../core/usage-error.js';
import { STATE_FOLDER, makeStateFolder } from './last-run-file.js';
import { JsonFileError, jsonFileMessage, parseJsonText, readBoundedText } from './read-json-file.js';
import { writeFailureReason } from './report-files.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** As messages name it: relative to the current folder. */
export const EXPLORE_FILE = `${STATE_FOLDER}/explore.json`;

/** The kept conversations in the current folder: none when there is no file; a UsageError naming the file when it cannot be used. */
export function readKeptConversations(cwd = process.cwd()): KeptConversation[] {
  const fix = `delete it (it is rewritten by the next --explore)`;
  let value: unknown;
  try {
    value = parseJsonText(readBoundedText(join(cwd, EXPLORE_FILE)));
  } catch (cause) {
    if (!(cause instanceof JsonFileError)) throw cause;
    if (cause.code === 'ENOENT') return [];
    throw new UsageError(`${jsonFileMessage(cause, EXPLORE_FILE)}; ${fix}`);
  }
  const read = keptConversationsOf(value);
  if ('problem' in read) throw new UsageError(`${EXPLORE_FILE} ${read.problem}; ${fix}`);
  return read.kept;
}

/**
 * After a run that explored: the failures it found (and the earlier ones of channels it did not
 * explore) written to the file; a run that explored nothing leaves it as it is. Resolves to the
 * number of conversations kept, or undefined when nothing was written.
 */
export async function writeKeptConversations(
  report: Report,
  earlier: readonly KeptConversation[],
  cwd = process.cwd(),
): Promise<number | undefined> {
  if (!report.cases.some((caseReport) => caseReport.explore !== undefined)) return undefined;
  const conversations = keptAfter(earlier, report.cases);
  await makeStateFolder(cwd);
  await writeFileAtomic(join(cwd, EXPLORE_FILE), `${JSON.stringify({ version: KEPT_FORMAT_VERSION, conversations }, null, 2)}\n`);
  return conversations.length;
}

/** What of the command line decides what a run explores. */
interface ExploreArgs {
  explore: boolean;
  case: readonly string[];
  shrink?: boolean | undefined;
  seed?: number | undefined;
}

/**
 * The kept conversations a run plays: read only by a run that explores (--explore, --case explore,
 * or --failed replaying the explore case), undefined for any other. --failed plays them as they
 * are, so it refuses --no-shrink and --seed, which only make new ones.
 */
export function keptForRun(args: ExploreArgs, rerunCases: readonly string[] | undefined): KeptConversation[] | undefined {
  if (rerunCases && args.shrink === false)
    throw new UsageError(
      '--no-shrink goes with --explore, not --failed: --failed plays the kept conversations as they are, already shrunk',
    );
  if (rerunCases && args.seed !== undefined)
    throw new UsageError('--seed goes with --explore, not --failed: --failed plays the kept conversations, which no seed makes');
  const exploring = args.explore || args.case.includes(EXPLORE_CASE_ID) || rerunCases?.includes(EXPLORE_CASE_ID) === true;
  return exploring ? readKeptConversations() : undefined;
}

/** The header's line for a run that explores: its budget and seed (and how to play it again), or the kept conversations alone. */
export function exploreHeaderLine(explore: ExploreSettings): string {
  const kept = explore.kept.length ? `; ${explore.kept.length} kept conversation(s) played first (${EXPLORE_FILE})` : '';
  const how = explore.keptOnly
    ? 'the kept conversations only (--failed)'
    : `up to ${explore.turns} turns a channel, seed ${explore.seed} (--seed ${explore.seed} plays the same again)${kept}`;
  return `explore: ${how}`;
}

/** Writes the file after a run that explored, and says so on stderr; a folder it cannot write in is said, not fatal. */
export async function keepExplored(report: Report, kept: readonly KeptConversation[], quiet: boolean): Promise<void> {
  try {
    const count = await writeKeptConversations(report, kept);
    if (count !== undefined && !quiet) {
      process.stderr.write(
        count
          ? `kept in ${EXPLORE_FILE}: ${count === 1 ? '1 failing conversation' : `${count} failing conversations`}, played first by the next --explore and alone by --failed\n`
          : `${EXPLORE_FILE}: no failing conversation kept\n`,
      );
    }
  } catch (cause) {
    const reason = await writeFailureReason(EXPLORE_FILE, cause);
    process.stderr.write(`check-endpoint: could not keep the explored conversations in ${EXPLORE_FILE}: ${reason}\n`);
  }
}
