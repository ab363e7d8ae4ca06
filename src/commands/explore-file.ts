/**
 * `.check-endpoint/explore.json`: the conversations --explore found failing, each shrunk, kept
 * beside the record of the last run. The next --explore plays them first; --failed plays exactly
 * them; `show` prints them. Read as every file the tool reads: a regular file of at most 1 MiB,
 * checked field by field (src/cases/explore/kept-conversations.ts).
 */
import { join } from 'node:path';
import type { KeptConversation } from '../cases/case.js';
import { KEPT_FORMAT_VERSION, keptAfter, keptConversationsOf } from '../cases/explore/kept-conversations.js';
import type { Report } from '../core/report.js';
import { UsageError } from '../core/usage-error.js';
import { STATE_FOLDER, makeStateFolder } from './last-run-file.js';
import { JsonFileError, jsonFileMessage, parseJsonText, readBoundedText } from './read-json-file.js';
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
