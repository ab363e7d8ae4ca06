/**
 * The last run's record (`.check-endpoint/last-run.json`, shaped as spec/last-run.schema.json):
 * each case on each channel with its verdict and the rules and messages of its findings, enough
 * for `check-endpoint show` to print the failures and for `--failed` to play them again. Never a
 * body, a header or a secret: no request, no answer, no reproduce line.
 */
import type { CaseLabel, CaseReport, ProblemReport, Report } from '../core/report.js';
import type { Colours } from './colour.js';
import { groupProblems } from '../core/problems.js';
import { formatDigest, problemNumbersText } from './digest.js';
import { formatSummary, printable, spaced, stoppedSummary } from './human.js';
import { playedAt, playTimes } from './merge-record.js';

export { LAST_RUN_FORMAT_VERSION } from './last-run-shape.js';
export type { LastRun, LastRunCase, LastRunFinding } from './last-run-shape.js';
import { LAST_RUN_FORMAT_VERSION, type LastRun, type LastRunCase } from './last-run-shape.js';

function recordedCase(caseReport: CaseReport): LastRunCase {
  const ordered = [
    ...caseReport.findings.filter((finding) => finding.severity === 'error'),
    ...caseReport.findings.filter((finding) => finding.severity === 'warning'),
  ];
  return {
    case: caseReport.id,
    channel: caseReport.channel,
    status: caseReport.status,
    label: caseReport.label,
    expected: caseReport.expected,
    runs: caseReport.runs,
    passedRuns: caseReport.passedRuns,
    turns: caseReport.turns.length,
    rules: [...new Set(ordered.map((finding) => finding.rule))],
    findings: ordered.map(({ rule, severity, path, message, hint, turn, plays, cause }) => ({
      ...{ rule, severity, path, message, hint, turn },
      ...(plays !== undefined ? { plays } : {}),
      ...(cause !== undefined ? { cause } : {}),
    })),
  };
}

/** The record of a run, from its report. */
export function lastRunRecord(report: Report, finishedAt: Date): LastRun {
  const at = finishedAt.toISOString();
  return {
    version: LAST_RUN_FORMAT_VERSION,
    tool: report.tool,
    target: report.target,
    finishedAt: at,
    outcome: report.outcome,
    exitCode: report.exitCode,
    error: report.error?.message ?? null,
    stopped: report.stopped,
    runs: report.runs,
    channels: report.channels,
    counts: report.counts,
    cases: report.cases.map((caseReport) => ({ ...recordedCase(caseReport), playedAt: at })),
    spec: report.spec,
  };
}

/** The case and channel pairs `--failed` plays again: those that failed (flaky ones too) or were not run. */
export function casesToRerun(record: LastRun): LastRunCase[] {
  return record.cases.filter((recorded) => recorded.status !== 'passed');
}

/** `2026-12-03 16:40:12 UTC`: when the run ended, as `show` and `--failed` say it. */
export function whenRun(record: Pick<LastRun, 'finishedAt'>): string {
  return record.finishedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
}

const LABELS: Record<CaseLabel, string> = { passing: 'PASS', flaky: 'FLAKY', failing: 'FAIL', 'not-run': 'NOT RUN' };

/**
 * The record with every string it prints made printable (control characters and line breaks as \u
 * escapes), as findings are: a record is a file anyone could have edited, and a line break in it
 * would start a line of its own, such as a `::error` workflow command in CI.
 */
function printableRecord(record: LastRun): LastRun {
  return {
    ...record,
    tool: { ...record.tool, version: printable(record.tool.version) },
    target: printable(record.target),
    finishedAt: printable(record.finishedAt),
    error: record.error === null ? null : printable(record.error),
    stopped: record.stopped === null ? null : { ...record.stopped, message: printable(record.stopped.message) },
    channels: record.channels.map((channel) => ({ ...channel, name: printable(channel.name) })),
    cases: record.cases.map((recorded) => ({
      ...recorded,
      case: printable(recorded.case),
      channel: printable(recorded.channel),
      ...(recorded.playedAt !== undefined ? { playedAt: printable(recorded.playedAt) } : {}),
    })),
  };
}

/** The record's distinct problems, grouped from its cases' findings as the run grouped them (same ids, same numbers). */
export function recordedProblems(record: Pick<LastRun, 'cases'>): ProblemReport[] {
  return groupProblems(
    record.cases
      .filter((recorded) => recorded.status !== 'not-run')
      .map((recorded) => ({ id: recorded.case, channel: recorded.channel, findings: recorded.findings })),
  );
}

/**
 * When the cases of a record a partial run merged into were played: `played 2026-12-03 16:40:12 UTC:
 * 3 of 25 cases (marked "played again" below); the other 22 as played 2026-12-03 16:31:02 UTC`.
 * None for the record of one whole run.
 */
function playedLines(record: LastRun, c: Colours): string[] {
  const [latest, ...earlier] = playTimes(record);
  if (!latest || earlier.length === 0) return [];
  const rest = earlier.reduce((sum, time) => sum + time.cases.length, 0);
  const when = earlier
    .map((time) => `${whenRun({ finishedAt: time.at })}${earlier.length > 1 ? ` (${time.cases.length})` : ''}`)
    .join(', ');
  return [
    c.dim(
      `played ${whenRun({ finishedAt: latest.at })}: ${latest.cases.length} of ${record.cases.length} cases (marked "played again" below); the other ${rest} as played ${when}`,
    ),
  ];
}

/**
 * `check-endpoint show`: when and what was checked, the digest of its distinct problems (each
 * once, with its fix and where it came), each case that did not pass naming its problems by
 * number, and the summary; `command` is how to run check-endpoint again (core/command-name.ts).
 */
export function formatLastRun(given: LastRun, c: Colours, command: string): string[] {
  const record = printableRecord(given);
  const lines = [
    c.bold(`last run: ${whenRun(record)}`) + c.dim(` · ${record.target} · check-endpoint ${record.tool.version}`),
    c.dim(`channels: ${record.channels.map((channel) => channel.name).join(', ')}`),
    ...playedLines(record, c),
    '',
  ];
  if (record.outcome === 'error') return [...lines, c.red(`The check could not run: ${record.error ?? 'no reason was recorded'}`)];
  const problems = recordedProblems(record);
  // The record keeps no answer, so the digest quotes no reply.
  lines.push(...spaced(formatDigest({ problems, cases: [], channels: record.channels, counts: record.counts }, c)));
  const notPassed = record.cases.filter((recorded) => recorded.status === 'failed');
  const times = playTimes(record);
  const replayed = (recorded: LastRunCase): boolean => times.length > 1 && playedAt(recorded, record) === times[0]!.at;
  const caseWidth = Math.max(0, ...notPassed.map((recorded) => recorded.case.length));
  const channelWidth = Math.max(0, ...notPassed.map((recorded) => recorded.channel.length));
  for (const recorded of notPassed) {
    const word = recorded.runs > 1 ? LABELS[recorded.label] : 'FAIL';
    const plays = recorded.runs > 1 ? `${recorded.passedRuns}/${recorded.runs} passed` : '';
    const named = problemNumbersText(recorded, recorded.turns, problems);
    lines.push(
      [
        recorded.expected ? c.yellow(word) : c.bold(c.red(word)),
        recorded.case.padEnd(caseWidth),
        recorded.channel.padEnd(channelWidth),
        plays,
        recorded.expected ? c.yellow('expected (baseline)') : '',
        named,
        replayed(recorded) ? c.cyan('(played again)') : '',
      ]
        .filter((part) => part !== '')
        .join('  '),
    );
  }
  const notRun = record.cases.filter((recorded) => recorded.status === 'not-run');
  if (notRun.length) lines.push(`${c.dim('NOT RUN')}  ${notRun.map((recorded) => `${recorded.channel}/${recorded.case}`).join(', ')}`);
  const passedAgain = record.cases.filter((recorded) => recorded.status === 'passed' && replayed(recorded));
  if (passedAgain.length)
    lines.push(
      `${c.green('PASS')}  ${passedAgain.map((recorded) => `${recorded.channel}/${recorded.case}`).join(', ')}  ${c.cyan('(played again)')}`,
    );
  if (notPassed.length || notRun.length || passedAgain.length) lines.push('');
  const summary = { ...record, cases: record.cases.map((recorded) => ({ label: recorded.label })) };
  lines.push(formatSummary(summary, c));
  const stopped = stoppedSummary(record);
  if (stopped) lines.push(c.bold(c.red(stopped)));
  const rerun = casesToRerun(record).length;
  if (rerun)
    lines.push(
      c.dim(
        // The record holds the URL whole unless it had a query, whose values it never keeps.
        `${command} ${record.target.includes('?') ? `${record.target} ` : ''}--failed plays the ${rerun === 1 ? 'case' : `${rerun} cases`} that did not pass again.`,
      ),
    );
  return lines;
}
