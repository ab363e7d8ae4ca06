import type { Colours } from './colour.js';
import { type Finding, excerpt } from '../findings.js';
import type { CaseReport, Report, ReportedFinding } from './report.js';

type RunDescription = Pick<Report, 'tool' | 'spec' | 'target' | 'channels'>;

const CASE_WIDTH = 12;
const REPLY_EXCERPT = 100;

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The lines before the cases: tool, contract, target, channels and token source (never its value). */
export function formatHeader(report: RunDescription, tokenNote: string, c: Colours): string[] {
  const lines = [
    c.bold(`check-endpoint ${report.tool.version}`) +
      c.dim(` · contract ${report.spec.version} (${report.spec.source}) · ${report.target}`),
    c.dim(`channels: ${report.channels.map((channel) => channel.name).join(', ')} · ${tokenNote}`),
  ];
  for (const channel of report.channels) {
    if (channel.limits === 'none') {
      lines.push(
        c.yellow(
          `note: no display limits are known for channel "${channel.name}": its replies are checked against the schema only (give --limits ${channel.name}=FILE)`,
        ),
      );
    }
  }
  return lines;
}

/** The reply a finding's pointer names, from an answer body, or undefined. */
export function replyOf(answer: unknown, path: string): unknown {
  const match = /^\/replies\/(\d+)(?:\/|$)/.exec(path);
  const replies = (answer as { replies?: unknown } | null)?.replies;
  return match && Array.isArray(replies) ? replies[Number(match[1])] : undefined;
}

/** A finding's lines: mark, rule, where and what; then the hint and the reply it is about. */
export function formatFinding(finding: Finding, c: Colours, context: { turn?: string; reply?: unknown } = {}): string[] {
  const mark = finding.severity === 'error' ? c.red('✗') : c.yellow('!');
  const where = finding.path === '' ? '(body)' : finding.path;
  const lines = [`      ${mark} ${c.bold(finding.rule)}${context.turn ? ` ${context.turn}` : ''}  ${c.cyan(where)}  ${finding.message}`];
  if (finding.hint) lines.push(c.dim(`          hint: ${finding.hint}`));
  if (context.reply !== undefined) lines.push(c.dim(`          reply: ${excerpt(context.reply, REPLY_EXCERPT)}`));
  return lines;
}

function formatCaseFinding(caseReport: CaseReport, finding: ReportedFinding, c: Colours): string[] {
  const turn = finding.turn === null ? undefined : caseReport.turns[finding.turn];
  return formatFinding(finding, c, {
    ...(caseReport.turns.length > 1 && finding.turn !== null ? { turn: `turn ${finding.turn + 1}` } : {}),
    reply: turn ? replyOf(turn.answer, finding.path) : undefined,
  });
}

/** One line for the case, then its findings: errors marked ✗, warnings marked ! apart. */
export function formatCase(caseReport: CaseReport, c: Colours): string[] {
  const verdict = caseReport.passed ? c.green('PASS') : c.bold(c.red('FAIL'));
  const warnings = caseReport.findings.filter((finding) => finding.severity === 'warning').length;
  const line = [
    verdict,
    caseReport.id.padEnd(CASE_WIDTH),
    caseReport.channel.padEnd(10),
    plural(caseReport.turns.length, 'turn').padEnd(8),
    `${caseReport.durationMs} ms`.padStart(8),
    warnings ? c.yellow(`  ${plural(warnings, 'warning')}`) : '',
  ].join('  ');
  const errors = caseReport.findings.filter((finding) => finding.severity === 'error');
  const ordered = [...errors, ...caseReport.findings.filter((finding) => finding.severity === 'warning')];
  return [line.trimEnd(), ...ordered.flatMap((finding) => formatCaseFinding(caseReport, finding, c))];
}

/** `N of M cases passed.`, with what failed or warned. */
export function formatSummary(report: Report, c: Colours): string {
  const { passed, cases, warnings } = report.counts;
  const text = `${passed} of ${plural(cases, 'case')} passed.${warnings ? ` ${plural(warnings, 'warning')}.` : ''}`;
  return report.outcome === 'passed' ? c.bold(c.green(text)) : c.bold(c.red(text));
}
