/**
 * `assertEndpoint`: the check as an assertion for any test runner (node:test, Vitest, Jest,
 * Mocha): it resolves with the report when every case passed, and rejects with node:assert's
 * AssertionError (`code: 'ERR_ASSERTION'`), which every runner prints well, its message what
 * failed in the command's words, without colour. Warnings fail it only with `strict: true`;
 * otherwise the report it resolves with carries them as text, `warnings`, for the test to print.
 */
import { AssertionError } from 'node:assert';
import type { Report } from './core/report.js';
import { NO_COLOURS } from './report/colour.js';
import { formatDigest, problemsOf } from './report/digest.js';
import { caseColumns, formatCase, formatFailures } from './report/human.js';
import { type CheckEndpointOptions, type CheckTarget, checkEndpoint } from './run/check-endpoint.js';

/** What assertEndpoint resolves with: the report, and the warnings of its passing run as the command prints them. */
export interface AssertedReport extends Report {
  /**
   * The run's warnings as the command prints them: the digest (each distinct warning once, with its
   * hint), each case that passed with a warning naming them by number, and a last line counting
   * them; '' when no case warned. Not enumerable, so the report serialises as checkEndpoint's does.
   */
  readonly warnings: string;
}

/**
 * The warnings of a passing run, in the command's words, without colour; '' when there are none:
 * the digest (each distinct warning once, with its fix and where it came), each case that warned
 * naming its problems by number, and a line counting them.
 */
function warningsText(report: Report): string {
  const warned = report.cases.filter((caseReport) => caseReport.findings.some((finding) => finding.severity === 'warning'));
  if (warned.length === 0) return '';
  const count = warned.reduce((sum, caseReport) => sum + caseReport.findings.filter((finding) => finding.severity === 'warning').length, 0);
  const summary = `${count} warning${count === 1 ? '' : 's'} in ${warned.length} of ${report.cases.length} cases; they fail the assertion with strict: true.`;
  const problems = problemsOf(report);
  return [
    ...formatDigest(report, NO_COLOURS),
    '',
    ...warned.flatMap((caseReport) => formatCase(caseReport, NO_COLOURS, problems, caseColumns(warned))),
    '',
    summary,
  ].join('\n');
}

export async function assertEndpoint(target: CheckTarget, options: CheckEndpointOptions = {}): Promise<AssertedReport> {
  const report = await checkEndpoint(target, options);
  if (report.outcome === 'passed')
    return Object.defineProperty(report, 'warnings', { value: warningsText(report), enumerable: false }) as AssertedReport;
  // Operator `fail`, as assert.fail's own: runners print the message alone, with no actual-against-expected diff.
  throw new AssertionError({ message: formatFailures(report, NO_COLOURS).join('\n'), operator: 'fail', stackStartFn: assertEndpoint });
}
