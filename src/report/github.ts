import { type Finding, findingRules } from '../core/findings.js';
import { digestTitle, placesText, problemsOf } from './digest.js';
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

/** A finding as an annotation's text: what, where, and how to fix it. */
function findingText(finding: Finding): string {
  const where = finding.path ? ` at ${finding.path}` : '';
  return `${finding.message}${where}${finding.hint ? `. Hint: ${finding.hint}` : ''}`;
}

/**
 * One `::error` (or `::warning`) workflow command per case, channel and rule, titled with them,
 * so GitHub Actions shows each on the run's summary page once: a rule broken on several turns (or
 * by several replies) is one annotation, counting them and giving the first.
 */
export function githubAnnotations(report: Report): string[] {
  if (report.outcome === 'error')
    return [`::error title=${escapeProperty('check-endpoint')}::${escapeData(report.error?.message ?? 'the check could not run')}`];
  const lines = report.cases.flatMap((caseReport) => {
    const byRule = new Map<string, Finding[]>();
    for (const finding of caseReport.findings) byRule.set(finding.rule, [...(byRule.get(finding.rule) ?? []), finding]);
    return [...byRule].map(([rule, findings]) => {
      const failing = findings.some((finding) => finding.severity === 'error');
      const level = failing && !caseReport.expected ? 'error' : 'warning';
      // The first error (a warning where there is none) speaks for the rule.
      const first = findings.find((finding) => finding.severity === 'error') ?? findings[0]!;
      const text = findings.length === 1 ? findingText(first) : `${findings.length} findings; the first: ${findingText(first)}`;
      return `::${level} title=${escapeProperty(`${caseReport.channel}/${caseReport.id}: ${rule}`)}::${escapeData(text)}`;
    });
  });
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

/** Text for a Markdown table's cell or list item: one line, pipes escaped. */
function markdownText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
}

/** "What to fix": each distinct problem once, with its fix and where it came (the digest, as the text output starts). */
function whatToFix(report: Report): string[] {
  const problems = problemsOf(report);
  if (problems.length === 0) return [];
  const channels = report.channels.map((channel) => channel.name);
  return [
    `**What to fix**: ${digestTitle(problems, report)}`,
    '',
    ...problems.map(
      (problem) =>
        `${problem.number}. ${problem.severity === 'error' ? '❌' : '⚠️'} \`${problem.rule}\`${problem.path ? ` \`${problem.path}\`` : ''}: ${markdownText(problem.message)}` +
        `${problem.hint ? ` Fix: ${markdownText(problem.hint)}` : ''} (${placesText(problem, channels)})`,
    ),
    '',
  ];
}

/** For `$GITHUB_STEP_SUMMARY`: what to fix, each problem once, then a Markdown table of channels against cases. */
export function githubStepSummary(report: Report): string {
  const lines = [`### check-endpoint: ${report.target}`, ''];
  if (report.outcome === 'error') return `${lines.join('\n')}❌ ${report.error?.message ?? 'the check could not run'}\n`;
  lines.push(...whatToFix(report));
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
