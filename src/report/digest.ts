/**
 * The digest: each distinct problem of a run once (core/problems.ts groups them), with its hint,
 * one example reply and where it came, before the case lines, which then name their problems by
 * number instead of repeating them.
 */
import type { Colours } from './colour.js';
import { excerpt } from '../core/findings.js';
import { type GroupedFinding, groupProblems, problemId } from '../core/problems.js';
import type { CaseReport, ProblemReport, Report, TurnReport } from '../core/report.js';
import { printable, ranges, replyOf, turnsText } from './text.js';
import { exampleTurn, valueShown } from '../core/value-at.js';
import { conversationLines, exploredConversation } from './explore-lines.js';

const REPLY_EXCERPT = 100;
/** Problems a case line names with their turns at most; more are named as ranges (`problems 1–45`). */
const MAX_NOTED = 6;

/** Groups of cases named on a problem's `in` line at most; the rest are counted. */
const MAX_PLACES = 6;

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The report's problems: as it holds them, or grouped from its cases for a report written before it had them. */
export function problemsOf(report: Pick<Report, 'problems' | 'cases'>): ProblemReport[] {
  return report.problems ?? groupProblems(report.cases.filter((caseReport) => caseReport.status !== 'not-run'));
}

/** What the title reads of the cases: whether the baseline expected their failure. */
type ExpectedOf = { cases: readonly { status: string; expected: boolean }[] };

/**
 * `15 findings (12 errors, 3 warnings)`: how many instances the problems stand for, by severity, the
 * same count in every output (the terminal's problems add up to it, `--json`'s `counts`, the HTML
 * page's head, the step summary's title).
 */
export function findingsText(counts: Pick<Report['counts'], 'errors' | 'warnings'>): string {
  const { errors, warnings } = counts;
  const bySeverity = [errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : ''].filter(Boolean).join(', ');
  return `${plural(errors + warnings, 'finding')}${bySeverity ? ` (${bySeverity})` : ''}`;
}

/**
 * `2 problems fail 17 of 25 cases; 1 more warns in 3.`; with a baseline, `2 problems fail 5 of 5
 * cases, 5 of them as the baseline expected.`
 */
export function digestTitle(problems: readonly ProblemReport[], report: Pick<Report, 'counts'> & ExpectedOf): string {
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
  const expected = report.cases.filter((caseReport) => caseReport.status === 'failed' && caseReport.expected).length;
  const asExpected = expected
    ? `, ${expected === failed ? (failed === 1 ? 'as' : 'all as') : `${expected} of them as`} the baseline expected`
    : '';
  const failing = `${plural(errors, 'problem')} fail${errors === 1 ? 's' : ''} ${failed} of ${plural(cases, 'case')}${asExpected}`;
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

function channelNames(report: Pick<Report, 'channels'>): string[] {
  return report.channels.map((channel) => channel.name);
}

/**
 * The problems in order, those next to each other with the same severity, hint and places made one
 * group (quality/malformed's accepted bodies: one fix for them all), which the digest and the
 * GitHub annotations say once.
 */
export function sharingAFix(problems: readonly ProblemReport[], report: Pick<Report, 'channels'>): ProblemReport[][] {
  const groups: { key: string | undefined; problems: ProblemReport[] }[] = [];
  for (const problem of problems) {
    const key =
      problem.hint === null ? undefined : JSON.stringify([problem.severity, problem.hint, placesText(problem, channelNames(report))]);
    const last = groups.at(-1);
    if (key !== undefined && last?.key === key) last.problems.push(problem);
    else groups.push({ key, problems: [problem] });
  }
  return groups.map((group) => group.problems);
}

/**
 * One problem's lines: number, mark, rule, pointer (its shape when it came at several) and message;
 * its hint, an example reply, where it came; with `reproduce`, the example turn's reproduce line.
 */
export function formatProblem(
  problem: ProblemReport,
  report: Pick<Report, 'cases' | 'channels'>,
  c: Colours,
  reproduce = false,
  /** Its hint and where it came; false when the group it is in says them once. */
  own = true,
  /** The reproduce lines the digest printed already, each with the problem it came under: one is not printed twice. */
  printed = new Map<string, number>(),
): string[] {
  const mark = problem.severity === 'error' ? c.red('✗') : c.yellow('!');
  const where = problem.path === '' ? '(body)' : printable(problem.path);
  const lines = [
    `${c.bold(`problem ${problem.number}`)}  ${mark} ${c.bold(printable(problem.rule))}  ${c.cyan(where)}  ${printable(problem.message)}`,
  ];
  if (problem.hint && own) lines.push(c.dim(`      hint: ${printable(problem.hint)}`));
  const turn = exampleTurn(problem, report.cases);
  const reply = turn ? replyOf(turn.answer, problem.example.path) : undefined;
  const value = problem.example.value ?? valueShown(turn?.answer, problem.example.path);
  // A reply's text at fault is most of what its reply line would quote: the value alone says it, start, end and length.
  const textAtFault = value !== undefined && /^\/replies\/\d+\/text$/.test(problem.example.path);
  if (reply !== undefined && !textAtFault) lines.push(c.dim(`      reply: ${printable(excerpt(reply, REPLY_EXCERPT))}`));
  if (value !== undefined) lines.push(c.dim(`      at ${printable(problem.example.path)}: ${printable(value)}`));
  const often = problem.findings > problem.cases ? ` (${plural(problem.findings, 'finding')})` : '';
  if (own) lines.push(c.dim(`      in ${plural(problem.cases, 'case')}${often}: ${placesText(problem, channelNames(report))}`));
  const conversation = exploredConversation(problem, report.cases);
  if (conversation) {
    lines.push(...conversationLines(conversation, problem.example.channel, c));
    return lines;
  }
  const command = reproduce ? turn?.findings.find((finding) => finding.reproduce)?.reproduce : undefined;
  if (command) {
    const { example } = problem;
    const earlier = printed.get(command);
    if (earlier === undefined) printed.set(command, problem.number);
    const shown = earlier === undefined ? command : `the same as problem ${earlier}'s`;
    lines.push(c.dim(`      reproduce (${example.case} on ${example.channel}, turn ${(example.turn ?? 0) + 1}): ${shown}`));
  }
  return lines;
}

/**
 * The digest's lines: its title, then each problem with its example's reproduce line (once per
 * problem: the case lines repeat them only with --verbose); none for a run without findings.
 */
export function formatDigest(
  report: Pick<Report, 'problems' | 'cases' | 'channels' | 'counts'>,
  c: Colours,
  { reproduce = true }: { reproduce?: boolean } = {},
): string[] {
  const problems = problemsOf(report);
  if (problems.length === 0) return [];
  const title = digestTitle(problems, report);
  const failing = problems.some((problem) => problem.severity === 'error');
  const printed = new Map<string, number>();
  return [
    failing ? c.bold(c.red(title)) : c.bold(c.yellow(title)),
    '',
    ...sharingAFix(problems, report).flatMap((group) => {
      if (group.length === 1) return formatProblem(group[0]!, report, c, reproduce, true, printed);
      // Problems with the same fix in the same cases (quality/malformed's accepted bodies): the fix and the places once.
      const [first] = group;
      return [
        ...group.flatMap((problem) => formatProblem(problem, report, c, reproduce, false, printed)),
        c.dim(`      hint (for the ${group.length} problems above): ${printable(first!.hint!)}`),
        c.dim(`      each in ${plural(first!.cases, 'case')}: ${placesText(first!, channelNames(report))}`),
      ];
    }),
  ];
}

/**
 * What a case line names in place of its findings: `problems 1, 2`, with the turns each came on
 * for a case of several turns (`problems 1 (turn 1), 2 (turns 1 and 2)`), and with --runs in how
 * many plays (`problem 1 (in 2 of 5 plays)`). Empty for a case without findings.
 */
export function caseProblemsText(caseReport: CaseReport, problems: readonly ProblemReport[]): string {
  return problemNumbersText(caseReport, caseReport.turns.length, problems);
}

/**
 * caseProblemsText for a case as a report or the last run's record holds it: its findings, how
 * many turns it played (`turns`) and how many times (`runs`).
 */
export function problemNumbersText(
  played: { findings: readonly (GroupedFinding & { plays?: number })[]; runs: number },
  turnCount: number,
  problems: readonly ProblemReport[],
): string {
  const numbers = new Map(problems.map((problem) => [problem.id, problem.number]));
  const mine = new Map<number, { turns: number[]; plays: number | undefined }>();
  for (const finding of played.findings) {
    const number = numbers.get(finding.problem ?? problemId(finding));
    if (number === undefined) continue;
    const entry = mine.get(number) ?? { turns: [], plays: finding.plays };
    if (finding.turn !== null && !entry.turns.includes(finding.turn)) entry.turns.push(finding.turn);
    if (finding.plays !== undefined) entry.plays = Math.max(entry.plays ?? 0, finding.plays);
    mine.set(number, entry);
  }
  if (mine.size === 0) return '';
  const word = mine.size === 1 ? 'problem' : 'problems';
  if (mine.size > MAX_NOTED) return `${word} ${ranges([...mine.keys()])}`;
  const parts = [...mine]
    .sort(([a], [b]) => a - b)
    .map(([number, { turns, plays }]) => {
      const notes = [
        turnCount > 1 && turns.length > 0 ? turnsText([...turns].sort((a, b) => a - b)) : undefined,
        plays !== undefined ? `in ${plays} of ${plural(played.runs, 'play')}` : undefined,
      ];
      const note = notes.filter(Boolean).join(', ');
      return `${number}${note ? ` (${note})` : ''}`;
    });
  return `${word} ${parts.join(', ')}`;
}
