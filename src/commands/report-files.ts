import { promises as fs } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Report } from '../core/report.js';
import { UsageError } from '../core/usage-error.js';
import { argumentKey } from '../core/argument-key.js';
import { REPORT_FORMATS, type ReportExtras, type ReportFormat } from '../report/formats.js';
import type { Output } from './output.js';
import { writeFileAtomic } from './write-file-atomic.js';

/**
 * Writes a report file, creating its folder, atomically (a kill leaves the old file or the new one);
 * a failure is a usage error (exit 2), not a crash.
 */
export async function writeReportFile(file: string, content: string): Promise<void> {
  try {
    await fs.mkdir(dirname(resolve(file)), { recursive: true });
    await writeFileAtomic(file, content);
  } catch (cause) {
    throw new UsageError(`cannot write ${file}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`);
  }
}

/** Appends to a file (the GitHub step summary). */
export async function appendReportFile(file: string, content: string): Promise<void> {
  try {
    await fs.appendFile(file, content);
  } catch (cause) {
    throw new UsageError(`cannot write ${file}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`);
  }
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

/** Writes every report file asked for, then says which. */
export async function writeReports(args: ReportFileArgs, report: Report, extras: WriterExtras, output: Output): Promise<void> {
  const written: string[] = [];
  for (const writer of WRITERS) {
    const target = targetOf(args, writer.flag);
    if (target === undefined) continue;
    for (const { file, content } of await writer.files(target, report, extras)) {
      await writeReportFile(file, content);
      written.push(file);
    }
  }
  for (const file of written) output.line(output.colour.dim(`wrote ${file}`));
}
