import { promises as fs } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Report } from '../core/report.js';
import { writeBaseline } from '../report/baseline-file.js';
import type { HarRecorder } from '../report/har.js';
import { renderJunit } from '../report/junit.js';
import type { Output } from './output.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** The report files a check can be asked for. */
export interface ReportFileArgs {
  junit?: string;
  har?: string;
  reportDir?: string;
  html?: string;
  writeBaseline?: string;
}

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
    await fs.mkdir(dirname(resolve(file)), { recursive: true });
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

/** The HTML preview, its renderer loaded only when one is asked for. */
async function htmlReport(report: Report): Promise<string> {
  const { renderHtmlReport } = await import('../report/html.js');
  return renderHtmlReport(report);
}

/** The flags as typed. */
const FLAG_WORDS: Record<keyof ReportFileArgs, string> = {
  junit: 'junit',
  har: 'har',
  reportDir: 'report-dir',
  html: 'html',
  writeBaseline: 'write-baseline',
};

/** What the writers get besides the report. */
interface WriterExtras {
  archive: HarRecorder | undefined;
  agentLog: string | undefined;
  strict: boolean;
  startedAt: Date;
}

/** One report file (or folder of them) a flag asks for: the files it writes there, none when the run has nothing for it. */
interface ReportWriter {
  flag: keyof ReportFileArgs;
  files(target: string, report: Report, extras: WriterExtras): Promise<{ file: string; content: string }[]>;
}

/**
 * The report files a check can write, in the order they are written: JUnit, HAR, the report
 * folder (with the HTML preview, and the agent's log under --start), the HTML preview, a new baseline. An interrupted run
 * writes what finished, but no baseline: one written from part of a run would forget the expected
 * failures of the cases that did not run.
 */
const WRITERS: readonly ReportWriter[] = [
  { flag: 'junit', files: async (file, report, { startedAt }) => [{ file, content: renderJunit(report, { startedAt }) }] },
  { flag: 'har', files: async (file, _report, { archive }) => (archive ? [{ file, content: archive.toHar() }] : []) },
  {
    flag: 'reportDir',
    files: async (folder, report, { archive, agentLog, startedAt }) => [
      { file: join(folder, 'report.json'), content: `${JSON.stringify(report, null, 2)}\n` },
      { file: join(folder, 'junit.xml'), content: renderJunit(report, { startedAt }) },
      ...(archive ? [{ file: join(folder, 'traffic.har'), content: archive.toHar() }] : []),
      ...(agentLog !== undefined ? [{ file: join(folder, 'agent.log'), content: agentLog }] : []),
      ...(report.outcome !== 'error' ? [{ file: join(folder, 'report.html'), content: await htmlReport(report) }] : []),
    ],
  },
  {
    flag: 'html',
    files: async (file, report) => (report.outcome === 'error' ? [] : [{ file, content: await htmlReport(report) }]),
  },
  {
    flag: 'writeBaseline',
    files: async (file, report, { strict }) =>
      report.outcome === 'passed' || report.outcome === 'failed' ? [{ file, content: writeBaseline(report, strict) }] : [],
  },
];

/**
 * Writes every report file asked for, then says which. One that cannot be written stops none of
 * the others: resolves to those that could not be, each with its reason.
 */
export async function writeReports(args: ReportFileArgs, report: Report, extras: WriterExtras, output: Output): Promise<UnwrittenFile[]> {
  const written: string[] = [];
  const unwritten: UnwrittenFile[] = [];
  for (const writer of WRITERS) {
    const target = args[writer.flag];
    if (target === undefined) continue;
    const by = `--${FLAG_WORDS[writer.flag]}`;
    for (const { file, content } of await writer.files(target, report, extras)) {
      const reason = await writeOne(file, content);
      if (reason === undefined) written.push(file);
      else unwritten.push({ file, by, reason });
    }
  }
  for (const file of written) output.line(output.colour.dim(`wrote ${file}`));
  return unwritten;
}
