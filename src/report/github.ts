import { findingRules } from '../core/findings.js';
import { stoppedSummary } from './human.js';
import type { Report } from '../core/report.js';

/** A workflow command's message: %, CR and LF escaped as the runner reads them. */
function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: also : and , escaped. */
function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * One `::error` (or `::warning`) workflow command per finding, titled with channel, case and
 * rule, so GitHub Actions shows each on the run's summary page.
 */
export function githubAnnotations(report: Report): string[] {
  if (report.outcome === 'error')
    return [`::error title=${escapeProperty('check-endpoint')}::${escapeData(report.error?.message ?? 'the check could not run')}`];
  const lines = report.cases.flatMap((caseReport) =>
    caseReport.findings.map((finding) => {
      const level = finding.severity === 'error' && !caseReport.expected ? 'error' : 'warning';
      const title = `${caseReport.channel}/${caseReport.id}: ${finding.rule}`;
      const where = finding.path ? ` at ${finding.path}` : '';
      return `::${level} title=${escapeProperty(title)}::${escapeData(`${finding.message}${where}${finding.hint ? `. Hint: ${finding.hint}` : ''}`)}`;
    }),
  );
  const stopped = stoppedSummary(report);
  if (stopped) lines.push(`::error title=${escapeProperty('check-endpoint')}::${escapeData(stopped)}`);
  for (const entry of report.baseline?.stale ?? []) {
    lines.push(
      `::error title=${escapeProperty(`baseline: ${entry}`)}::${escapeData(`"${entry}" now passes: remove it from ${report.baseline!.file}`)}`,
    );
  }
  return lines;
}

function cell(report: Report, channel: string, caseId: string): string {
  const caseReport = report.cases.find((candidate) => candidate.channel === channel && candidate.id === caseId);
  if (!caseReport) return '';
  if (caseReport.status === 'not-run') return '⏭️ not run';
  if (!caseReport.passed)
    return caseReport.expected
      ? '⚪ expected'
      : `❌ ${[...new Set(caseReport.findings.filter((f) => f.severity === 'error').flatMap(findingRules))].join(', ') || 'failed'}`;
  return caseReport.findings.length > 0 ? '⚠️ warning' : '✅';
}

/** A Markdown table of channels against cases, for `$GITHUB_STEP_SUMMARY`. */
export function githubStepSummary(report: Report): string {
  const lines = [`### check-endpoint: ${report.target}`, ''];
  if (report.outcome === 'error') return `${lines.join('\n')}❌ ${report.error?.message ?? 'the check could not run'}\n`;
  const channels = [...new Set(report.cases.map((caseReport) => caseReport.channel))];
  const caseIds = [...new Set(report.cases.map((caseReport) => caseReport.id))];
  lines.push(`| channel | ${caseIds.join(' | ')} |`, `|---|${caseIds.map(() => '---').join('|')}|`);
  for (const channel of channels) lines.push(`| ${channel} | ${caseIds.map((caseId) => cell(report, channel, caseId)).join(' | ')} |`);
  lines.push('', `${report.counts.passed} of ${report.counts.cases} cases passed.`);
  const stopped = stoppedSummary(report);
  if (stopped) lines.push(stopped);
  if (report.baseline?.stale.length)
    lines.push(`Stale baseline entries: ${report.baseline.stale.map((entry) => `\`${entry}\``).join(', ')}.`);
  return `${lines.join('\n')}\n`;
}
