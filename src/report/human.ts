import type { Colours } from './colour.js';
import { type Finding, excerpt } from '../core/findings.js';
import type { CaseReport, ProblemReport, Report, ReportedFinding, ScenariosReport } from '../core/report.js';
import { scenarioLines } from './scenario-lines.js';
import { exploreTurnsSent, formatExplore } from './explore-lines.js';
import { caseProblemsText, formatDigest, problemsOf } from './digest.js';
import { printable, replyOf, turnsText } from './text.js';

export { printable, replyOf, turnsText } from './text.js';

type RunDescription = Pick<Report, 'tool' | 'spec' | 'target' | 'transport' | 'channels'>;

/** The case lines' columns: at least these, wider when a case id or a channel of the run is longer. */
const CASE_WIDTH = 12;
const CHANNEL_WIDTH = 10;
const REPLY_EXCERPT = 100;

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The lines before the cases: tool, contract, target, channels and (the command's) token source,
 * never its value; for a handler checked in this process, each check that was not applicable.
 */
export function formatHeader(report: RunDescription, tokenNote: string | undefined, c: Colours): string[] {
  const lines = [
    c.bold(`check-endpoint ${report.tool.version}`) +
      c.dim(` · contract ${report.spec.version} (${report.spec.source}) · ${report.target}`),
    c.dim(`channels: ${report.channels.map((channel) => channel.name).join(', ')}${tokenNote ? ` · ${tokenNote}` : ''}`),
    ...notApplicable(report),
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

/** For a handler checked in this process: the checks that were not applicable (their reasons are in the JSON report). */
function notApplicable(report: Pick<Report, 'transport'>): string[] {
  const transport = report.transport;
  if (!transport?.notApplicable.length) return [];
  const what = transport.kind === 'fetch-handler' ? 'a fetch handler' : 'a Node listener served by the checker';
  return [`not applicable to ${what}: ${transport.notApplicable.map(({ check }) => check).join(', ')} (why: the JSON report's transport)`];
}

/** The channels checked against the schema only: custom ones with no --limits file. */
function schemaOnlyChannels(report: Pick<Report, 'channels'>): string[] {
  return report.channels.filter((channel) => channel.limits === 'none').map((channel) => channel.name);
}

const MAX_SHOWN_PATH = 200;

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
  if (context.reply !== undefined) lines.push(c.dim(`          reply: ${printable(excerpt(context.reply, REPLY_EXCERPT))}`));
  return lines;
}

/** A finding placed at its turn (null: about the whole case), as a case report and the last run's record hold them. */
type PlacedFinding = Finding & { turn: number | null; plays?: number };

/** A finding of a case with every turn it came on: the same finding on several turns is one. */
export interface AlikeFindings<F extends PlacedFinding> {
  finding: F;
  turns: number[];
}

/** The case's findings, those alike but for their turn made one, in the order they first came. */
function alikeFindings<F extends PlacedFinding>(findings: readonly F[]): AlikeFindings<F>[] {
  const alike = new Map<string, AlikeFindings<F>>();
  for (const finding of findings) {
    const key = JSON.stringify([finding.rule, finding.severity, finding.path, finding.message, finding.hint, finding.plays]);
    const known = alike.get(key);
    if (!known) alike.set(key, { finding, turns: finding.turn === null ? [] : [finding.turn] });
    else if (finding.turn !== null && !known.turns.includes(finding.turn)) known.turns.push(finding.turn);
  }
  return [...alike.values()];
}

/**
 * A case's findings, each once: one alike on several turns is one line naming the turns (`line`
 * writes it, with its hint or without), and findings sharing a hint (quality/malformed's 45
 * accepted bodies) are followed by it once, with their count.
 */
export function formatFindingsOnce<F extends PlacedFinding>(
  findings: readonly F[],
  c: Colours,
  line: (alike: AlikeFindings<F>, withHint: boolean) => string[],
): string[] {
  const byHint = new Map<string, AlikeFindings<F>[]>();
  for (const alike of alikeFindings(findings)) {
    const key = JSON.stringify([alike.finding.severity, alike.finding.hint ?? byHint.size]);
    byHint.set(key, [...(byHint.get(key) ?? []), alike]);
  }
  return [...byHint.values()].flatMap((group) => {
    const { hint } = group[0]!.finding;
    if (group.length === 1 || hint === null) return group.flatMap((alike) => line(alike, true));
    return [
      ...group.flatMap((alike) => line(alike, false)),
      c.dim(`          hint (for the ${group.length} findings above): ${printable(hint)}`),
    ];
  });
}

/** `3 times`, `in 2 of 5 plays`: how often a finding came, for the end of its line. */
export function howOften(turns: readonly number[], plays: number | undefined, runs: number): string | undefined {
  const parts = [
    turns.length > 1 ? `${turns.length} times` : undefined,
    plays !== undefined ? `in ${plays} of ${plural(runs, 'play')}` : undefined,
  ];
  return parts.filter(Boolean).join(', ') || undefined;
}

function formatCaseFinding(
  caseReport: CaseReport,
  { finding, turns: on }: AlikeFindings<ReportedFinding>,
  c: Colours,
  withHint: boolean,
): string[] {
  // With several plays, a finding's turn is that of the first play that had it.
  const turns = finding.play === undefined ? caseReport.turns : (caseReport.plays[finding.play - 1]?.turns ?? []);
  const turn = finding.turn === null ? undefined : turns[finding.turn];
  const often = howOften(on, finding.plays, caseReport.runs);
  return formatFinding(withHint ? finding : { ...finding, hint: null }, c, {
    ...(turns.length > 1 && on.length > 0 ? { turn: turnsText(on) } : {}),
    reply: turn ? replyOf(turn.answer, finding.path) : undefined,
    ...(often ? { plays: often } : {}),
  });
}

const LABELS: Record<CaseReport['label'], string> = { passing: 'PASS', flaky: 'FLAKY', failing: 'FAIL', 'not-run': 'NOT RUN' };

/** The case's verdict word: PASS or FAIL; with several plays, FLAKY for a case that passed only some. */
function verdictOf(caseReport: CaseReport, c: Colours): string {
  const word = caseReport.runs > 1 ? LABELS[caseReport.label].padEnd(5) : caseReport.passed ? 'PASS' : 'FAIL';
  if (caseReport.passed) return c.green(word);
  return caseReport.expected ? c.yellow(word) : c.bold(c.red(word));
}

/** The widths of a run's case lines: the longest case id and channel among them (at least CASE_WIDTH and CHANNEL_WIDTH). */
export interface CaseColumns {
  id: number;
  channel: number;
}

/** The columns that fit every case of the run, so that its lines line up. */
export function caseColumns(cases: readonly CaseReport[]): CaseColumns {
  return {
    id: Math.max(CASE_WIDTH, ...cases.map((caseReport) => caseReport.id.length)),
    channel: Math.max(CHANNEL_WIDTH, ...cases.map((caseReport) => caseReport.channel.length)),
  };
}

/**
 * One line for the case, then its findings: errors marked ✗, warnings marked ! apart, and each
 * failed turn's reproduce line. Given the run's problems (the digest printed above it, with one
 * reproduce line per problem), the line names the case's problems by number instead, and the
 * reproduce lines follow only with `reproduce` (--verbose).
 */
export function formatCase(
  caseReport: CaseReport,
  c: Colours,
  problems?: readonly ProblemReport[],
  columns: CaseColumns = caseColumns([caseReport]),
  { reproduce = problems === undefined }: { reproduce?: boolean } = {},
): string[] {
  const verdict = verdictOf(caseReport, c);
  const warnings = caseReport.findings.filter((finding) => finding.severity === 'warning').length;
  const line = [
    verdict,
    caseReport.id.padEnd(columns.id),
    caseReport.channel.padEnd(columns.channel),
    caseReport.runs > 1
      ? `${caseReport.passedRuns}/${caseReport.runs} passed`.padEnd(12)
      : // explore keeps only the turns of its failures: its line counts every turn it sent.
        plural(caseReport.explore ? exploreTurnsSent(caseReport.explore) : caseReport.turns.length, 'turn').padEnd(8),
    `${caseReport.durationMs} ms`.padStart(8),
    warnings ? c.yellow(`  ${plural(warnings, 'warning')}`) : '',
    caseReport.expected ? c.yellow('  expected (baseline)') : '',
    problems ? caseProblemsText(caseReport, problems) : '',
  ].join('  ');
  const errors = caseReport.findings.filter((finding) => finding.severity === 'error');
  const ordered = [...errors, ...caseReport.findings.filter((finding) => finding.severity === 'warning')];
  const reproduceLines = reproduce
    ? caseReport.turns.flatMap((turn, index) => {
        const command = turn.findings.find((finding) => finding.reproduce)?.reproduce;
        return command ? [c.dim(`          reproduce${caseReport.turns.length > 1 ? ` turn ${index + 1}` : ''}: ${command}`)] : [];
      })
    : [];
  return [
    line.trimEnd(),
    ...formatLatency(caseReport, c),
    ...formatExplore(caseReport, c, problems),
    ...(problems ? [] : formatFindingsOnce(ordered, c, (alike, withHint) => formatCaseFinding(caseReport, alike, c, withHint))),
    ...reproduceLines,
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
export type SummaryOf = Pick<Report, 'counts' | 'runs' | 'outcome' | 'channels'> & {
  cases: readonly Pick<CaseReport, 'label'>[];
  scenarios?: Pick<ScenariosReport, 'files'>;
};

/** `N of M cases passed.`, with what failed or warned. */
export function formatSummary(report: SummaryOf, c: Colours): string {
  const { passed, cases, warnings } = report.counts;
  const flaky = report.cases.filter((caseReport) => caseReport.label === 'flaky').length;
  const passedWhat = report.runs > 1 ? `passed on every play; ${flaky} flaky` : 'passed';
  const invalid = report.scenarios?.files.filter((file) => file.status === 'invalid').length ?? 0;
  const unplayed = invalid ? ` ${plural(invalid, 'scenario file')} with problems, not played.` : '';
  const text = `${passed} of ${plural(cases, 'case')} ${passedWhat}.${warnings ? ` ${plural(warnings, 'warning')}.` : ''}${unplayed}`;
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

/** The lines after the cases: the cases not run, the baseline, the summary, and why the run stopped early. */
export function formatEnding(report: Report, c: Colours): string[] {
  const stopped = stoppedSummary(report);
  return [
    ...formatNotRun(report, c),
    ...formatBaseline(report, c),
    ...(report.scenarios ? ['', ...scenarioLines(report.scenarios, c)] : []),
    '',
    formatSummary(report, c),
    ...(stopped ? [c.bold(c.red(stopped))] : []),
  ];
}

/**
 * The command's text for a report, line by line: the header, each case that ran, the ending (or
 * why the check could not run). Less what the report does not hold: the token's source (give it
 * as `tokenNote`), a --start agent's output, the files written.
 */
export function formatReportLines(report: Report, c: Colours, tokenNote?: string): string[] {
  const header = [...formatHeader(report, tokenNote, c), ''];
  if (report.outcome === 'error') return [...header, report.error?.message ?? ''];
  const problems = problemsOf(report);
  const played = report.cases.filter((caseReport) => caseReport.status !== 'not-run');
  const columns = caseColumns(played);
  const cases = played.flatMap((caseReport) => formatCase(caseReport, c, problems, columns));
  return [...header, ...spaced(formatDigest(report, c)), ...cases, ...formatEnding(report, c)];
}

/** Lines followed by a blank one; none for none. */
export function spaced(lines: readonly string[]): string[] {
  return lines.length ? [...lines, ''] : [];
}

/** What failed, in the command's words: the header's first line, each failed case, the ending (or why the check could not run). */
export function formatFailures(report: Report, c: Colours): string[] {
  const [title] = formatHeader(report, undefined, c);
  if (report.outcome === 'error') return [title!, '', report.error?.message ?? ''];
  const failed = report.cases.filter((caseReport) => caseReport.status === 'failed' && !caseReport.expected);
  const problems = problemsOf(report);
  return [
    title!,
    '',
    ...spaced(formatDigest(report, c)),
    ...failed.flatMap((caseReport) => formatCase(caseReport, c, problems, caseColumns(failed))),
    ...formatEnding(report, c),
  ];
}
