import { promises as fs } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Report } from '../core/report.js';
import { argumentKey } from '../core/argument-key.js';
import { REPORT_FORMATS, type ReportExtras, type ReportFormat } from '../report/formats.js';
import type { Output } from './output.js';
import { writeFileAtomic } from './write-file-atomic.js';
import { makeFolder } from './make-folder.js';

/** A report file that could not be written: which, asked for by what (`--junit`, `GITHUB_STEP_SUMMARY`), and why, in words. */
export interface UnwrittenFile {
  file: string;
  by: string;
  reason: string;
}

/** The nearest existing path of `file`'s folders that is not a folder: what stands in the way of a path under it. */
async function fileInTheWay(file: string): Promise<string | undefined> {
  for (let folder = dirname(resolve(file)); ; folder = dirname(folder)) {
    const stats = await fs.stat(folder).catch(() => undefined);
    if (stats) return stats.isDirectory() ? undefined : folder;
    if (dirname(folder) === folder) return undefined;
  }
}

/** Why `file` could not be written, in words (the system's code after them, for searching): never a bare EISDIR. */
export async function writeFailureReason(file: string, cause: unknown): Promise<string> {
  const error = cause as NodeJS.ErrnoException;
  const code = error.code;
  const words = async (): Promise<string> => {
    switch (code) {
      case 'EISDIR':
        return 'it is a folder, not a file: name a file in it';
      case 'EEXIST':
      case 'ENOTDIR': {
        const inTheWay = await fileInTheWay(file);
        return inTheWay ? `${inTheWay} is a file, not a folder` : 'a part of its path is a file, not a folder';
      }
      case 'EACCES':
      case 'EPERM': {
        const folder = dirname(resolve(file));
        const writable = await fs.access(folder, fs.constants.W_OK).then(
          () => true,
          () => false,
        );
        return writable ? 'permission denied' : `permission denied: the folder ${folder} is read-only to this user`;
      }
      case 'EROFS':
        return 'the file system is read-only';
      case 'ENOSPC':
        return 'no space is left on the device';
      case 'EDQUOT':
        return 'the disk quota is used up';
      case 'ENAMETOOLONG':
        return 'its name is too long';
      case 'ELOOP':
        return 'too many symbolic links on its path';
      case 'ENOENT':
        return 'a folder on its path does not exist';
      default:
        return error.message ?? String(cause);
    }
  };
  return code ? `${await words()} (${code})` : await words();
}

/** Writes one file, creating its folder, atomically (a kill leaves the old file or the new one). Resolves to why not, or undefined. */
async function writeOne(file: string, content: string): Promise<string | undefined> {
  try {
    await makeFolder(dirname(resolve(file)));
    await writeFileAtomic(file, content);
    return undefined;
  } catch (cause) {
    return writeFailureReason(file, cause);
  }
}

/** Appends the GitHub step summary to the file GITHUB_STEP_SUMMARY names; resolves to it if it could not be. */
export async function appendStepSummary(file: string, content: string): Promise<UnwrittenFile[]> {
  try {
    await fs.appendFile(file, content);
    return [];
  } catch (cause) {
    return [{ file, by: 'GITHUB_STEP_SUMMARY', reason: await writeFailureReason(file, cause) }];
  }
}

/** What is said of the files that could not be written: each with its reason, then what it means for the run. */
export function unwrittenLines(unwritten: readonly UnwrittenFile[]): string[] {
  if (unwritten.length === 0) return [];
  return [
    ...unwritten.map(({ file, by, reason }) => `check-endpoint: could not write ${file} (${by}): ${reason}`),
    `check-endpoint: ${unwritten.length === 1 ? 'that file was' : `those ${unwritten.length} files were`} not written; every other report asked for was, and the run's verdict stands (exit 2: a report asked for is missing)`,
  ];
}

/** What the writers get besides the report: the run's extras (a --start agent's log, agent.log, is written in the report folder as it runs: agent-log.ts). */
export type WriterExtras = ReportExtras;

/** One report file (or folder of them) a flag asks for: the files it writes there, none when the run has nothing for it. */
interface ReportWriter {
  flag: string;
  files(target: string, report: Report, extras: WriterExtras): Promise<{ file: string; content: string }[]>;
}

/** A format's file, or none when the run has nothing for it. */
async function fileOf(
  format: ReportFormat,
  file: string,
  report: Report,
  extras: WriterExtras,
): Promise<{ file: string; content: string }[]> {
  const content = await format.render(report, extras);
  return content === undefined ? [] : [{ file, content }];
}

/**
 * The report files a check can write, in the order they are written, from the formats' registry
 * (src/report/formats.ts): each format's own flag, then the report folder (each format's file
 * there; a --start agent's log, agent.log, is written there as it runs). An interrupted run writes what finished.
 */
const WRITERS: readonly ReportWriter[] = [
  ...REPORT_FORMATS.flatMap((format) =>
    format.flag
      ? [{ flag: format.flag.name, files: (file: string, report: Report, extras: WriterExtras) => fileOf(format, file, report, extras) }]
      : [],
  ),
  {
    flag: 'report-dir',
    files: async (folder, report, extras) => [
      ...(
        await Promise.all(
          REPORT_FORMATS.map((format) =>
            format.dirFile === undefined ? [] : fileOf(format, join(folder, format.dirFile), report, extras),
          ),
        )
      ).flat(),
    ],
  },
];

/** The report files asked for: the check's arguments, each format's flag under its key (`writeBaseline`). */
export type ReportFileArgs = object;

function targetOf(args: ReportFileArgs, flag: string): string | undefined {
  const value: unknown = Object.entries(args).find(([key]) => key === argumentKey(flag))?.[1];
  return typeof value === 'string' ? value : undefined;
}

/** Whether the run must record its HTTP archive: a format that reads it is asked for, by its flag or --report-dir. */
export function wantsArchive(args: ReportFileArgs): boolean {
  return REPORT_FORMATS.some(
    (format) =>
      format.readsArchive === true &&
      ((format.flag !== undefined && targetOf(args, format.flag.name) !== undefined) ||
        (format.dirFile !== undefined && targetOf(args, 'report-dir') !== undefined)),
  );
}

/**
 * Writes every report file asked for, each path once, then says which. One that cannot be written
 * stops none of the others: resolves to those that could not be, each with its reason.
 */
export async function writeReports(args: ReportFileArgs, report: Report, extras: WriterExtras, output: Output): Promise<UnwrittenFile[]> {
  const written: string[] = [];
  const unwritten: UnwrittenFile[] = [];
  // A path two flags ask for (--html D/report.html beside --report-dir D) is written once.
  const paths = new Set<string>();
  for (const writer of WRITERS) {
    const target = targetOf(args, writer.flag);
    if (target === undefined) continue;
    const by = `--${writer.flag}`;
    for (const { file, content } of await writer.files(target, report, extras)) {
      if (paths.has(resolve(file))) continue;
      paths.add(resolve(file));
      const reason = await writeOne(file, content);
      if (reason === undefined) written.push(file);
      else unwritten.push({ file, by, reason });
    }
  }
  for (const file of written) output.line(output.colour.dim(`wrote ${file}`));
  return unwritten;
}
