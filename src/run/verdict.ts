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

/** An interrupted run's exit code, by the signal that ended it. */
export type InterruptExitCode = 130 | 143;

export function runVerdict(
  cases: readonly CaseReport[],
  staleBaselineEntries: number,
  stop?: { interrupted: InterruptExitCode } | 'agent-stopped' | 'max-failures',
): Pick<Report, 'outcome' | 'exitCode'> {
  if (typeof stop === 'object') return { outcome: 'interrupted', exitCode: stop.interrupted };
  // A run stopped by its agent's end, or at --max-failures, failed whatever its cases say.
  const failed =
    stop !== undefined || cases.some((caseReport) => caseReport.status !== 'passed' && !caseReport.expected) || staleBaselineEntries > 0;
  return failed ? { outcome: 'failed', exitCode: 1 } : { outcome: 'passed', exitCode: 0 };
}
