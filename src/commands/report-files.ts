import { promises as fs } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Report } from '../core/report.js';
import { UsageError } from '../core/usage-error.js';
import { writeBaseline } from '../report/baseline-file.js';
import type { HarRecorder } from '../report/har.js';
import { renderJunit } from '../report/junit.js';
import type { Output } from './output.js';

/** The report files a check can be asked for. */
export interface ReportFileArgs {
  junit?: string;
  har?: string;
  reportDir?: string;
  html?: string;
  writeBaseline?: string;
}

/** Writes a report file, creating its folder; a failure is a usage error (exit 2), not a crash. */
export async function writeReportFile(file: string, content: string): Promise<void> {
  try {
    await fs.mkdir(dirname(resolve(file)), { recursive: true });
    await fs.writeFile(file, content);
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

/**
 * The report files asked for: JUnit, HAR, the report folder (with the HTML preview, and the agent's log under --start),
 * the HTML preview, a new baseline. An interrupted run writes what finished, but no baseline: one
 * written from part of a run would forget the expected failures of the cases that did not run.
 */
export async function writeReports(
  args: ReportFileArgs,
  report: Report,
  extras: { archive: HarRecorder | undefined; agentLog: string | undefined; strict: boolean; startedAt: Date },
  output: Output,
): Promise<void> {
  const written: string[] = [];
  const write = async (file: string, content: string): Promise<void> => {
    await writeReportFile(file, content);
    written.push(file);
  };
  const { archive, agentLog, strict, startedAt } = extras;
  if (args.junit !== undefined) await write(args.junit, renderJunit(report, { startedAt }));
  if (args.har !== undefined && archive) await write(args.har, archive.toHar());
  if (args.reportDir !== undefined) {
    await write(join(args.reportDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    await write(join(args.reportDir, 'junit.xml'), renderJunit(report, { startedAt }));
    if (archive) await write(join(args.reportDir, 'traffic.har'), archive.toHar());
    if (agentLog !== undefined) await write(join(args.reportDir, 'agent.log'), agentLog);
    if (report.outcome !== 'error') await write(join(args.reportDir, 'report.html'), await htmlReport(report));
  }
  if (args.html !== undefined && report.outcome !== 'error') await write(args.html, await htmlReport(report));
  if (args.writeBaseline !== undefined && (report.outcome === 'passed' || report.outcome === 'failed')) {
    await write(args.writeBaseline, writeBaseline(report, strict));
  }
  for (const file of written) output.line(output.colour.dim(`wrote ${file}`));
}
