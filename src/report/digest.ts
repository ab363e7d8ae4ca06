/**
 * The digest: each distinct problem of a run once (core/problems.ts groups them), with its hint,
 * one example reply and where it came, before the case lines, which then name their problems by
 * number instead of repeating them.
 */
import type { Colours } from './colour.js';
import { excerpt } from '../core/findings.js';
import { groupProblems, problemId } from '../core/problems.js';
import type { CaseReport, ProblemReport, Report } from '../core/report.js';
import { printable, replyOf, turnsText } from './text.js';

const REPLY_EXCERPT = 100;
/** Groups of cases named on a problem's `in` line at most; the rest are counted. */
const MAX_PLACES = 6;

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The report's problems: as it holds them, or grouped from its cases for a report written before it had them. */
export function problemsOf(report: Pick<Report, 'problems' | 'cases'>): ProblemReport[] {
  return report.problems ?? groupProblems(report.cases.filter((caseReport) => caseReport.status !== 'not-run'));
}

/** `2 problems fail 17 of 25 cases; 1 more warns in 3.` */
export function digestTitle(problems: readonly ProblemReport[], report: Pick<Report, 'counts'>): string {
  const errors = problems.filter((problem) => problem.severity === 'error').length;
  const warnings = problems.length - errors;
  const { cases, failed } = report.counts;
  const warned = (more: boolean): string =>
    `${more ? `${plural(warnings, 'more problem')} warn${warnings === 1 ? 's' : ''}` : `${plural(warnings, 'problem')} warn${warnings === 1 ? 's' : ''}`}`;
  const warnedCases = new Set(
    problems
      .filter((problem) => problem.severity === 'warning')
      .flatMap((problem) => problem.where.map((place) => JSON.stringify([place.channel, place.case]))),
  ).size;
  if (errors === 0) return `${warned(false)} in ${warnedCases} of ${plural(cases, 'case')}.`;
  const failing = `${plural(errors, 'problem')} fail${errors === 1 ? 's' : ''} ${failed} of ${plural(cases, 'case')}`;
  return warnings ? `${failing}; ${warned(true)} in ${plural(warnedCases, 'case')}.` : `${failing}.`;
}

/** `typed, photo on every channel; button-tap on whatsapp, sms`: each case with its channels, cases on the same channels together. */
export function placesText(problem: ProblemReport, channels: readonly string[]): string {
  const byCase = new Map<string, string[]>();
  for (const place of problem.where) byCase.set(place.case, [...(byCase.get(place.case) ?? []), place.channel]);
  const byChannels = new Map<string, string[]>();
  for (const [caseId, on] of byCase) {
    const key = on.length === channels.length && channels.length > 1 ? `every channel` : on.join(', ');
    byChannels.set(key, [...(byChannels.get(key) ?? []), caseId]);
  }
  const groups = [...byChannels].map(([on, cases]) => `${cases.join(', ')} on ${on}`);
  const shown = groups.slice(0, MAX_PLACES);
  const more = groups.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** The example finding's reply, from the case's turn (of its play, with several). */
function exampleReply(problem: ProblemReport, cases: readonly CaseReport[]): unknown {
  const { example } = problem;
  if (example.turn === null) return undefined;
  const caseReport = cases.find((candidate) => candidate.id === example.case && candidate.channel === example.channel);
  if (!caseReport) return undefined;
  const turns = example.play === undefined ? caseReport.turns : (caseReport.plays[example.play - 1]?.turns ?? []);
  const turn = turns[example.turn];
  return turn ? replyOf(turn.answer, example.path) : undefined;
}

/** One problem's lines: number, mark, rule, pointer shape and message; its hint, an example reply, where it came. */
export function formatProblem(problem: ProblemReport, report: Pick<Report, 'cases' | 'channels'>, c: Colours): string[] {
  const mark = problem.severity === 'error' ? c.red('✗') : c.yellow('!');
  const where = problem.path === '' ? '(body)' : printable(problem.path);
  const lines = [
    `${c.bold(`problem ${problem.number}`)}  ${mark} ${c.bold(problem.rule)}  ${c.cyan(where)}  ${printable(problem.message)}`,
  ];
  if (problem.hint) lines.push(c.dim(`      hint: ${printable(problem.hint)}`));
  const reply = exampleReply(problem, report.cases);
  if (reply !== undefined) lines.push(c.dim(`      reply: ${excerpt(reply, REPLY_EXCERPT)}`));
  const channels = report.channels.map((channel) => channel.name);
  const often = problem.findings > problem.cases ? ` (${plural(problem.findings, 'finding')})` : '';
  lines.push(c.dim(`      in ${plural(problem.cases, 'case')}${often}: ${placesText(problem, channels)}`));
  return lines;
}

/** The digest's lines: its title, then each problem; none for a run without findings. */
export function formatDigest(report: Pick<Report, 'problems' | 'cases' | 'channels' | 'counts'>, c: Colours): string[] {
  const problems = problemsOf(report);
  if (problems.length === 0) return [];
  const title = digestTitle(problems, report);
  const failing = problems.some((problem) => problem.severity === 'error');
  return [
    failing ? c.bold(c.red(title)) : c.bold(c.yellow(title)),
    '',
    ...problems.flatMap((problem) => formatProblem(problem, report, c)),
  ];
}

/**
 * What a case line names in place of its findings: `problems 1, 2`, with the turns each came on
 * for a case of several turns (`problems 1 (turn 1), 2 (turns 1 and 2)`), and with --runs in how
 * many plays (`problem 1 (in 2 of 5 plays)`). Empty for a case without findings.
 */
export function caseProblemsText(caseReport: CaseReport, problems: readonly ProblemReport[]): string {
  const numbers = new Map(problems.map((problem) => [problem.id, problem.number]));
  const mine = new Map<number, { turns: number[]; plays: number | undefined }>();
  for (const finding of caseReport.findings) {
    const number = numbers.get(finding.problem ?? problemId(finding));
    if (number === undefined) continue;
    const entry = mine.get(number) ?? { turns: [], plays: finding.plays };
    if (finding.turn !== null && !entry.turns.includes(finding.turn)) entry.turns.push(finding.turn);
    if (finding.plays !== undefined) entry.plays = Math.max(entry.plays ?? 0, finding.plays);
    mine.set(number, entry);
  }
  if (mine.size === 0) return '';
  const parts = [...mine]
    .sort(([a], [b]) => a - b)
    .map(([number, { turns, plays }]) => {
      const notes = [
        caseReport.turns.length > 1 && turns.length > 0 ? turnsText([...turns].sort((a, b) => a - b)) : undefined,
        plays !== undefined ? `in ${plays} of ${plural(caseReport.runs, 'play')}` : undefined,
      ];
      const note = notes.filter(Boolean).join(', ');
      return `${number}${note ? ` (${note})` : ''}`;
    });
  return `${mine.size === 1 ? 'problem' : 'problems'} ${parts.join(', ')}`;
}
