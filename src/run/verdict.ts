/**
 * The verdict rules, in one place. A finding fails its case when it is an error, or any finding
 * under --strict. A case passes with no such finding. The run fails when a case failed that no
 * --baseline entry expects, when a case could not be played or the agent stopped answering (a
 * --start process that ended, even after the last turn), or when a baseline entry is stale; it
 * exits 1 then, 0 otherwise. An interrupted run is neither:
 * it exits 130 (SIGINT) or 143 (SIGTERM) with what finished.
 */
import type { Finding } from '../core/findings.js';
import type { CaseReport, Report } from '../core/report.js';

export function failsCase(finding: Finding, strict: boolean): boolean {
  return finding.severity === 'error' || strict;
}

export function casePasses(findings: readonly Finding[], strict: boolean): boolean {
  return !findings.some((finding) => failsCase(finding, strict));
}

/** A case fails the run when it did not pass (it failed, or could not be played) and no --baseline entry expects it. */
export function failsRun(caseReport: Pick<CaseReport, 'status' | 'expected'>): boolean {
  return caseReport.status !== 'passed' && !caseReport.expected;
}

/** A run's counts: its cases (passed, failed, not played) and their findings by severity. */
export function caseCounts(
  cases: readonly { status: CaseReport['status']; findings: readonly Pick<Finding, 'severity'>[] }[],
): Report['counts'] {
  const findings = cases.flatMap((caseReport) => caseReport.findings);
  const passed = cases.filter((caseReport) => caseReport.status === 'passed').length;
  const notRun = cases.filter((caseReport) => caseReport.status === 'not-run').length;
  return {
    cases: cases.length,
    passed,
    failed: cases.length - notRun - passed,
    notRun,
    errors: findings.filter((finding) => finding.severity === 'error').length,
    warnings: findings.filter((finding) => finding.severity === 'warning').length,
  };
}

/** An interrupted run's exit code, by the signal that ended it. */
export type InterruptExitCode = 130 | 143;

export function runVerdict(
  cases: readonly CaseReport[],
  staleBaselineEntries: number,
  stop?: { interrupted: InterruptExitCode } | 'agent-stopped' | 'max-failures',
): Pick<Report, 'outcome' | 'exitCode'> {
  if (typeof stop === 'object') return { outcome: 'interrupted', exitCode: stop.interrupted };
  // A run stopped by its agent's end, or at --max-failures, failed whatever its cases say.
  const failed = stop !== undefined || cases.some(failsRun) || staleBaselineEntries > 0;
  return failed ? { outcome: 'failed', exitCode: 1 } : { outcome: 'passed', exitCode: 0 };
}
