/**
 * The verdict rules, in one place. A finding fails its case when it is an error, or any finding
 * under --strict. A case passes with no such finding. The run fails when a case failed that no
 * --baseline entry expects, or when a baseline entry is stale; it exits 1 then, 0 otherwise.
 */
import type { Finding } from '../core/findings.js';
import type { CaseReport, Report } from '../core/report.js';

export function failsCase(finding: Finding, strict: boolean): boolean {
  return finding.severity === 'error' || strict;
}

export function casePasses(findings: readonly Finding[], strict: boolean): boolean {
  return !findings.some((finding) => failsCase(finding, strict));
}

export function runVerdict(cases: readonly CaseReport[], staleBaselineEntries: number): Pick<Report, 'outcome' | 'exitCode'> {
  const failed = cases.some((caseReport) => !caseReport.passed && !caseReport.expected) || staleBaselineEntries > 0;
  return failed ? { outcome: 'failed', exitCode: 1 } : { outcome: 'passed', exitCode: 0 };
}
