import { findingRules } from '../core/findings.js';
import type { Report } from '../core/report.js';
import { failsCase } from '../run/verdict.js';

/** Today's failures as a baseline file: one `channel/case:rule` line for each rule that fails each case. */
export function writeBaseline(report: Report, strict: boolean): string {
  const lines = new Set<string>();
  for (const caseReport of report.cases) {
    if (caseReport.passed) continue;
    for (const finding of caseReport.findings.filter((candidate) => failsCase(candidate, strict))) {
      for (const rule of findingRules(finding)) lines.add(`${caseReport.channel}/${caseReport.id}:${rule}`);
    }
  }
  return [
    `# check-endpoint baseline: expected failures, one a line (case, case:rule, channel/case or channel/case:rule).`,
    `# Written from a run against ${report.target}. Remove a line once it passes: a stale line fails the run.`,
    ...[...lines].sort(),
    '',
  ].join('\n');
}
