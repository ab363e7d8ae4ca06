import type { Colours } from './colour.js';
import { type Finding, excerpt } from '../core/findings.js';
import type { CaseReport, Report, ReportedFinding } from '../core/report.js';

type RunDescription = Pick<Report, 'tool' | 'spec' | 'target' | 'channels'>;

const CASE_WIDTH = 12;
/** The quality cases' lines (--quality) line up among themselves: their ids are longer. */
const QUALITY_CASE_WIDTH = 22;
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
  for (const name of schemaOnlyChannels(report)) {
    lines.push(
      c.bold(
        c.yellow(
          `WARNING: channel "${name}" is no platform the contract knows and has no display limits: ONLY THE SCHEMA is checked on it, no length, button, emoji or Markdown check (give --limits ${name}=FILE)`,
        ),
      ),
    );
  }
  return lines;
}

/** The channels checked against the schema only: custom ones with no --limits file. */
function schemaOnlyChannels(report: Pick<Report, 'channels'>): string[] {
  return report.channels.filter((channel) => channel.limits === 'none').map((channel) => channel.name);
}

/** The reply a finding's pointer names, from an answer body, or undefined. */
export function replyOf(answer: unknown, path: string): unknown {
  const match = /^\/replies\/(\d+)(?:\/|$)/.exec(path);
  const replies = (answer as { replies?: unknown } | null)?.replies;
  return match && Array.isArray(replies) ? replies[Number(match[1])] : undefined;
}

const MAX_SHOWN_PATH = 200;

/**
 * Text from the agent made safe for a terminal or CI log: control characters (escape sequences,
 * line breaks that would start a fake `::error` line) shown as \u escapes.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A finding's lines: mark, rule, where and what; then the hint and the reply it is about. */
export function formatFinding(finding: Finding, c: Colours, context: { turn?: string; reply?: unknown; plays?: string } = {}): string[] {
  const mark = finding.severity === 'error' ? c.red('✗') : c.yellow('!');
  const path = finding.path.length > MAX_SHOWN_PATH ? `${finding.path.slice(0, MAX_SHOWN_PATH - 1)}…` : finding.path;
  const where = path === '' ? '(body)' : printable(path);
  const lines = [
    `      ${mark} ${c.bold(finding.rule)}${context.turn ? ` ${context.turn}` : ''}  ${c.cyan(where)}  ${printable(finding.message)}${
      context.plays ? c.dim(` (${context.plays})`) : ''
    }`,
  ];
  if (finding.hint) lines.push(c.dim(`          hint: ${printable(finding.hint)}`));
  if (context.reply !== undefined) lines.push(c.dim(`          reply: ${excerpt(context.reply, REPLY_EXCERPT)}`));
  return lines;
}

function formatCaseFinding(caseReport: CaseReport, finding: ReportedFinding, c: Colours): string[] {
  // With several plays, a finding's turn is that of the first play that had it.
  const turns = finding.play === undefined ? caseReport.turns : (caseReport.plays[finding.play - 1]?.turns ?? []);
  const turn = finding.turn === null ? undefined : turns[finding.turn];
  return formatFinding(finding, c, {
    ...(turns.length > 1 && finding.turn !== null ? { turn: `turn ${finding.turn + 1}` } : {}),
    reply: turn ? replyOf(turn.answer, finding.path) : undefined,
    ...(finding.plays !== undefined ? { plays: `in ${finding.plays} of ${plural(caseReport.runs, 'play')}` } : {}),
  });
}

const LABELS: Record<CaseReport['label'], string> = { passing: 'PASS', flaky: 'FLAKY', failing: 'FAIL', 'not-run': 'NOT RUN' };

/** The case's verdict word: PASS or FAIL; with several plays, FLAKY for a case that passed only some. */
function verdictOf(caseReport: CaseReport, c: Colours): string {
  const word = caseReport.runs > 1 ? LABELS[caseReport.label].padEnd(5) : caseReport.passed ? 'PASS' : 'FAIL';
  if (caseReport.passed) return c.green(word);
  return caseReport.expected ? c.yellow(word) : c.bold(c.red(word));
}

/** One line for the case, then its findings: errors marked ✗, warnings marked ! apart. */
export function formatCase(caseReport: CaseReport, c: Colours): string[] {
  const verdict = verdictOf(caseReport, c);
  const warnings = caseReport.findings.filter((finding) => finding.severity === 'warning').length;
  const line = [
    verdict,
    caseReport.id.padEnd(caseReport.id.startsWith('quality/') ? QUALITY_CASE_WIDTH : CASE_WIDTH),
    caseReport.channel.padEnd(10),
    caseReport.runs > 1
      ? `${caseReport.passedRuns}/${caseReport.runs} passed`.padEnd(12)
      : plural(caseReport.turns.length, 'turn').padEnd(8),
    `${caseReport.durationMs} ms`.padStart(8),
    warnings ? c.yellow(`  ${plural(warnings, 'warning')}`) : '',
    caseReport.expected ? c.yellow('  expected (baseline)') : '',
  ].join('  ');
  const errors = caseReport.findings.filter((finding) => finding.severity === 'error');
  const ordered = [...errors, ...caseReport.findings.filter((finding) => finding.severity === 'warning')];
  const reproduce = caseReport.turns.flatMap((turn, index) => {
    const command = turn.findings.find((finding) => finding.reproduce)?.reproduce;
    return command ? [c.dim(`          reproduce${caseReport.turns.length > 1 ? ` turn ${index + 1}` : ''}: ${command}`)] : [];
  });
  return [
    line.trimEnd(),
    ...formatLatency(caseReport, c),
    ...ordered.flatMap((finding) => formatCaseFinding(caseReport, finding, c)),
    ...reproduce,
  ];
}

/** quality/latency's figures, under its case line: `p50 12 ms · p95 40 ms · max 41 ms over 23 turns (budget 10 s)`. */
export function formatLatency(caseReport: CaseReport, c: Colours): string[] {
  const figures = caseReport.latency;
  if (!figures) return [];
  const p95 = `p95 ${figures.p95Ms} ms`;
  return [
    `      p50 ${figures.p50Ms} ms · ${figures.p95Ms > figures.budgetMs ? c.yellow(p95) : p95} · max ${figures.maxMs} ms` +
      c.dim(` over ${plural(figures.turns, 'turn')} (budget ${figures.budgetMs / 1000} s)`),
  ];
}

/** What the baseline did: expected failures, stale entries, entries this run did not check. */
export function formatBaseline(report: Report, c: Colours): string[] {
  const baseline = report.baseline;
  if (!baseline) return [];
  const expected = report.cases.filter((caseReport) => caseReport.expected).map((caseReport) => `${caseReport.channel}/${caseReport.id}`);
  const lines = [''];
  lines.push(
    c.dim(`baseline ${baseline.file}: ${expected.length ? `expected failures ${expected.join(', ')}` : 'no expected failure came'}`),
  );
  for (const entry of baseline.stale)
    lines.push(c.red(`  ✗ stale baseline entry "${entry}": it passes now; remove it from ${baseline.file}`));
  for (const entry of baseline.unchecked) lines.push(c.dim(`  - "${entry}" was not checked (its case or channel did not run)`));
  return lines;
}

/** The cases not run, on one line: `NOT RUN  3 cases: whatsapp/photo, whatsapp/button-tap, whatsapp/no-reply`. */
export function formatNotRun(report: Report, c: Colours): string[] {
  const notRun = report.cases.filter((caseReport) => caseReport.status === 'not-run');
  if (notRun.length === 0) return [];
  const names = notRun.map((caseReport) => `${caseReport.channel}/${caseReport.id}`);
  return [`${c.dim('NOT RUN')}  ${plural(notRun.length, 'case')}: ${names.join(', ')}`];
}

/** Why the run ended early: `18 of 25 cases finished before the agent stopped answering (connection refused …).` */
export function stoppedSummary(report: Pick<Report, 'stopped' | 'counts'>): string | undefined {
  if (!report.stopped) return undefined;
  const { cases, notRun } = report.counts;
  return `${cases - notRun} of ${plural(cases, 'case')} finished before ${report.stopped.message}.`;
}

/** What the summary line is made of: a report, or the last run's record. */
export type SummaryOf = Pick<Report, 'counts' | 'runs' | 'outcome' | 'channels'> & { cases: readonly Pick<CaseReport, 'label'>[] };

/** `N of M cases passed.`, with what failed or warned. */
export function formatSummary(report: SummaryOf, c: Colours): string {
  const { passed, cases, warnings } = report.counts;
  const flaky = report.cases.filter((caseReport) => caseReport.label === 'flaky').length;
  const passedWhat = report.runs > 1 ? `passed on every play; ${flaky} flaky` : 'passed';
  const text = `${passed} of ${plural(cases, 'case')} ${passedWhat}.${warnings ? ` ${plural(warnings, 'warning')}.` : ''}`;
  const schemaOnly = schemaOnlyChannels(report);
  const note = schemaOnly.length
    ? c.bold(
        c.yellow(
          ` Only the schema was checked on ${schemaOnly.join(', ')}: no display limits are known for ${schemaOnly.length === 1 ? 'it' : 'them'}.`,
        ),
      )
    : '';
  return (report.outcome === 'passed' ? c.bold(c.green(text)) : c.bold(c.red(text))) + note;
}
