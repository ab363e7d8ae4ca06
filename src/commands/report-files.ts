import { promises as fs } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Report } from '../core/report.js';
import { UsageError } from '../core/usage-error.js';
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

/** The HTML preview, its renderer loaded only when one is asked for. */
async function htmlReport(report: Report): Promise<string> {
  const { renderHtmlReport } = await import('../report/html.js');
  return renderHtmlReport(report);
}

/** What the writers get besides the report. */
interface WriterExtras {
  archive: HarRecorder | undefined;
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
 * folder (with the HTML preview; a --start agent's log, agent.log, is written there as it runs), the HTML preview, a new baseline. An interrupted run
 * writes what finished, but no baseline: one written from part of a run would forget the expected
 * failures of the cases that did not run.
 */
const WRITERS: readonly ReportWriter[] = [
  { flag: 'junit', files: async (file, report, { startedAt }) => [{ file, content: renderJunit(report, { startedAt }) }] },
  { flag: 'har', files: async (file, _report, { archive }) => (archive ? [{ file, content: archive.toHar() }] : []) },
  {
    flag: 'reportDir',
    files: async (folder, report, { archive, startedAt }) => [
      { file: join(folder, 'report.json'), content: `${JSON.stringify(report, null, 2)}\n` },
      { file: join(folder, 'junit.xml'), content: renderJunit(report, { startedAt }) },
      ...(archive ? [{ file: join(folder, 'traffic.har'), content: archive.toHar() }] : []),
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

/** Writes every report file asked for, then says which. */
export async function writeReports(args: ReportFileArgs, report: Report, extras: WriterExtras, output: Output): Promise<void> {
  const written: string[] = [];
  for (const writer of WRITERS) {
    const target = args[writer.flag];
    if (target === undefined) continue;
    for (const { file, content } of await writer.files(target, report, extras)) {
      await writeReportFile(file, content);
      written.push(file);
    }
  }
  for (const file of written) output.line(output.colour.dim(`wrote ${file}`));
}
