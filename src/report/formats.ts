/**
 * Every report format the command writes, in one registry: its id, its file in --report-dir, its
 * own flag with help's words, and its writer. --report-dir, the command's flags and their help,
 * the library's `check-endpoint/report` (REPORT_FORMATS) and docs/report-formats.md all read this
 * list. A new format is one entry here and its writer (CONTRIBUTING.md, "A report format").
 */
import type { Report } from '../core/report.js';
import { writeBaseline } from './baseline-file.js';
import type { HarRecorder } from './har.js';
import { renderJunit } from './junit.js';

/** What a writer gets besides the report. */
export interface ReportExtras {
  /** The run's HTTP archive, recorded when a format that reads it is asked for (`readsArchive`). */
  archive?: HarRecorder | undefined;
  /** --strict: warnings failed the run. */
  strict: boolean;
  /** When the run started: JUnit's timestamp. */
  startedAt: Date;
}

export interface ReportFormat {
  /** Stable, lower case: `junit`. */
  id: string;
  /** What it is, for people: `JUnit XML`. */
  title: string;
  /** Its file in --report-dir; none: it is written only where its flag says. */
  dirFile?: string;
  /** Its own flag, which names the file to write, and what help says of it; none: only in --report-dir. */
  flag?: { name: string; placeholder: string; help: string };
  /** The run records every exchange for it (the HTTP archive). */
  readsArchive?: true;
  /**
   * The file's text, or undefined when this run has nothing for it (no preview of a run that could
   * not start). A writer that needs a large module loads it here, so that a run without it never does.
   */
  render(report: Report, extras: ReportExtras): string | undefined | Promise<string | undefined>;
}

/** Every format, in the order the files are written. */
export const REPORT_FORMATS: readonly ReportFormat[] = [
  {
    id: 'json',
    title: 'the JSON report (spec/report.schema.json), as --json prints it',
    dirFile: 'report.json',
    render: (report) => `${JSON.stringify(report, null, 2)}\n`,
  },
  {
    id: 'junit',
    title: 'JUnit XML: one testsuite per channel, one testcase per case',
    dirFile: 'junit.xml',
    flag: { name: 'junit', placeholder: 'FILE', help: 'Also write a JUnit XML report: one testsuite per channel, one testcase per case' },
    render: (report, { startedAt }) => renderJunit(report, { startedAt }),
  },
  {
    id: 'har',
    title: 'an HTTP archive (HAR 1.2) of every exchange, the token and secret headers redacted',
    dirFile: 'traffic.har',
    flag: {
      name: 'har',
      placeholder: 'FILE',
      help: 'Also write an HTTP archive (HAR 1.2) of every exchange; the token is written as <redacted>',
    },
    readsArchive: true,
    render: (_report, { archive }) => archive?.toHar(),
  },
  {
    id: 'html',
    title: 'the HTML chat preview: every conversation as chat bubbles, per platform',
    dirFile: 'report.html',
    flag: {
      name: 'html',
      placeholder: 'FILE',
      help: 'Also write a self-contained HTML page showing every conversation as chat bubbles, per platform',
    },
    // The renderer is loaded only when a preview is asked for.
    render: async (report) => (report.outcome === 'error' ? undefined : (await import('./html.js')).renderHtmlReport(report)),
  },
  {
    id: 'baseline',
    title: "a baseline file: this run's failures, one a line, for --baseline",
    flag: { name: 'write-baseline', placeholder: 'FILE', help: "Write this run's failures as a baseline file" },
    // Not from part of a run: it would forget the expected failures of the cases that did not run.
    render: (report, { strict }) =>
      report.outcome === 'passed' || report.outcome === 'failed' ? writeBaseline(report, strict) : undefined,
  },
];

/** The files --report-dir writes, for help: `report.json, junit.xml, traffic.har and report.html`. */
export function reportDirFiles(): string {
  const files = REPORT_FORMATS.flatMap((format) => (format.dirFile === undefined ? [] : [format.dirFile]));
  return files.length === 1 ? files[0]! : `${files.slice(0, -1).join(', ')} and ${files.at(-1)}`;
}
