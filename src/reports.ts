/**
 * check-endpoint/report: the report writers, for a caller that holds a report (from
 * checkEndpoint, or a --json file): the command's text, JUnit XML, the HTML chat preview, the
 * HTTP archive (give HarRecorder's `record` to checkEndpoint's onExchange), GitHub's annotations
 * and step summary, and a baseline file. REPORT_FORMATS is the registry the command writes its
 * report files from (--report-dir, --junit, --html …): each format's id, file, flag and writer.
 */
export type { ReportExtras, ReportFormat } from './report/formats.js';
export { REPORT_FORMATS } from './report/formats.js';
export type { FormatReportOptions } from './report/format-report.js';
export { formatReport } from './report/format-report.js';
export type { JunitRun } from './report/junit.js';
export { renderJunit } from './report/junit.js';
export { renderHtmlReport } from './report/html.js';
export { HarRecorder } from './report/har.js';
export { githubAnnotations, githubStepSummary } from './report/github.js';
export { writeBaseline } from './report/baseline-file.js';
export type { Report } from './core/report.js';
