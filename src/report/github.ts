import { findingRules } from '../core/findings.js';
import { digestTitle, findingsText, placesText, problemsOf, sharingAFix } from './digest.js';
import { stoppedSummary } from './human.js';
import type { CaseReport, ProblemReport, Report, ScenarioProblem } from '../core/report.js';
import { forMarkdown, forMarkdownCode, forWorkflowCommand, forWorkflowProperty } from './escape.js';
import { ranges } from './text.js';

/** A workflow command's message: % and line breaks escaped as the runner reads them, any other control or invisible character as a \u escape. */
/**
 * GitHub shows at most 10 annotations of each level a step writes (actions/toolkit,
 * docs/problem-matchers.md: "10 warning annotations, 10 error annotations, and 10 notice
 * annotations per step"); past that, the last one shown counts the rest.
 */
export const ANNOTATIONS_PER_LEVEL = 10;

function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? '' : 's'}`;
}

type Level = 'error' | 'warning';

/** A case failed by warnings alone (--strict), not expected by the baseline. */
function failedByWarnings(caseReport: CaseReport): boolean {
  return caseReport.status === 'failed' && !caseReport.expected && caseReport.findings.every((finding) => finding.severity === 'warning');
}

/**
 * An error fails the run unless every case it came in was expected by the baseline: then it is a
 * warning. A warning is an error where it failed a case (--strict): it failed the job.
 */
function levelOf(problem: ProblemReport, report: Report): Level {
  const caseAt = (place: ProblemReport['where'][number]): CaseReport | undefined =>
    report.cases.find((caseReport) => caseReport.id === place.case && caseReport.channel === place.channel);
  if (problem.severity === 'warning') {
    return problem.where.some((place) => {
      const caseReport = caseAt(place);
      return caseReport !== undefined && failedByWarnings(caseReport);
    })
      ? 'error'
      : 'warning';
  }
  return problem.where.every((place) => caseAt(place)?.expected === true) ? 'warning' : 'error';
}

/** A sentence ended with a full stop, unless it has one (or another mark) already. */
function ended(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** A problem as an annotation's text: what, where, how to fix it, and in which cases. */
function problemText(problem: ProblemReport, channels: readonly string[]): string {
  const where = problem.path ? ` at ${problem.path}` : '';
  const often = problem.findings > problem.cases ? ` (${plural(problem.findings, 'finding')})` : '';
  return [
    ended(`${problem.message}${where}`),
    ...(problem.hint ? [ended(`Hint: ${problem.hint}`)] : []),
    `In ${plural(problem.cases, 'case')}${often}: ${placesText(problem, channels)}.`,
  ].join(' ');
}

/** Problems with one fix in the same cases (the digest's groups) as one annotation: how many, the first, the fix once. */
function groupAnnotation(group: readonly ProblemReport[], level: Level, channels: readonly string[]): string {
  const [first] = group;
  if (group.length === 1) return command(level, `check-endpoint problem ${first!.number}: ${first!.rule}`, problemText(first!, channels));
  const numbers = `${first!.number}–${group.at(-1)!.number}`;
  const rules = [...new Set(group.map((problem) => problem.rule))].join(', ');
  return command(
    level,
    `check-endpoint problems ${numbers}: ${rules}`,
    `${group.length} problems with one fix; the first: ${problemText(first!, channels)}`,
  );
}

function command(level: Level, title: string, text: string, place = ''): string {
  return `::${level} ${place}title=${forWorkflowProperty(title)}::${forWorkflowCommand(text)}`;
}

/** The problems of the team's scenario files: each file with problems was not played, and fails the run. */
export function scenarioFileProblems(report: Report): ScenarioProblem[] {
  return (report.scenarios?.files ?? []).filter((file) => file.status === 'invalid').flatMap((file) => file.problems);
}

/** `file:3:5`, or the file alone where no line is known. */
function scenarioPlace(problem: ScenarioProblem): string {
  return problem.line > 0 ? `${problem.file}:${problem.line}:${problem.column}` : problem.file;
}

/** A scenario file's problem as an annotation on its line of the file. */
function scenarioAnnotation(problem: ScenarioProblem): string {
  const line = problem.line > 0 ? `,line=${problem.line},col=${problem.column}` : '';
  return command(
    'error',
    'check-endpoint scenario file',
    `${ended(problem.message)} Fix: ${problem.fix} (not played)`,
    `file=${forWorkflowProperty(problem.file)}${line},`,
  );
}

/** The step summary's list of the scenario files' problems: each file with problems was not played. */
function scenarioFileLines(report: Report): string[] {
  const problems = scenarioFileProblems(report);
  if (problems.length === 0) return [];
  const files = new Set(problems.map((problem) => problem.file)).size;
  return [
    `**Scenario files**: ❌ ${plural(files, 'file')} with problems, not played`,
    '',
    ...problems.map(
      (problem) => `- ${forMarkdownCode(scenarioPlace(problem))}: ${forMarkdown(ended(problem.message))} Fix: ${forMarkdown(problem.fix)}`,
    ),
    '',
  ];
}

/** A level's problems' annotations, at most `room`: past that, the last counts the problems it stands for. */
function capped(level: Level, annotations: readonly string[], numbers: readonly (readonly number[])[], room: number): string[] {
  if (annotations.length <= room) return [...annotations];
  const shown = annotations.slice(0, room - 1);
  const rest = numbers.slice(room - 1).flat();
  const text = `${plural(rest.length, 'more problem')} (problems ${ranges(rest)}): GitHub shows ${ANNOTATIONS_PER_LEVEL} annotations of a kind a step; each is in the step summary and the log`;
  return [...shown, command(level, 'check-endpoint', text)];
}

/**
 * One `::error` (or `::warning`) workflow command per distinct problem (the digest's), titled
 * with its number and rule, saying what is wrong, the fix and the cases it came in: a problem in
 * 25 cases is one annotation, not 25. An error that only came in cases the baseline expected is a
 * warning. Then why the run stopped early, and stale baseline entries.
 */
export function githubAnnotations(report: Report): string[] {
  if (report.outcome === 'error') return [command('error', 'check-endpoint', report.error?.message ?? 'the check could not run')];
  const channels = report.channels.map((channel) => channel.name);
  const byLevel: Record<Level, { annotations: string[]; numbers: number[][] }> = {
    error: { annotations: [], numbers: [] },
    warning: { annotations: [], numbers: [] },
  };
  for (const group of sharingAFix(problemsOf(report), report)) {
    const level = levelOf(group[0]!, report);
    byLevel[level].annotations.push(groupAnnotation(group, level, channels));
    byLevel[level].numbers.push(group.map((problem) => problem.number));
  }
  const stopped = stoppedSummary(report);
  const runErrors = [
    ...(stopped ? [command('error', 'check-endpoint', stopped)] : []),
    ...scenarioFileProblems(report).map(scenarioAnnotation),
    ...(report.baseline?.stale ?? []).map((entry) =>
      command('error', `baseline: ${entry}`, `"${entry}" now passes: remove it from ${report.baseline!.file}`),
    ),
  ];
  // Why the run stopped and the stale entries are each said; the problems take the room left.
  const errorRoom = Math.max(1, ANNOTATIONS_PER_LEVEL - runErrors.length);
  return [
    ...capped('error', byLevel.error.annotations, byLevel.error.numbers, errorRoom),
    ...runErrors,
    ...capped('warning', byLevel.warning.annotations, byLevel.warning.numbers, ANNOTATIONS_PER_LEVEL),
  ];
}

function cell(report: Report, channel: string, caseId: string): string {
  const caseReport = report.cases.find((candidate) => candidate.channel === channel && candidate.id === caseId);
  if (!caseReport) return '';
  if (caseReport.status === 'not-run') return '⏭️ not run';
  if (!caseReport.passed) {
    if (caseReport.expected) return '⚪ expected';
    const rulesOf = (severity: 'error' | 'warning'): string =>
      [...new Set(caseReport.findings.filter((finding) => finding.severity === severity).flatMap(findingRules))].join(', ');
    // A case failed by warnings alone (--strict) names the warnings' rules.
    const errors = rulesOf('error');
    if (errors) return `❌ ${errors}`;
    const warnings = rulesOf('warning');
    return warnings ? `❌ ${warnings} (warnings, --strict)` : '❌ failed';
  }
  return caseReport.findings.length > 0 ? '⚠️ warning' : '✅';
}

/** One problem as a list item of "What to fix", its fix and places said unless its group says them once. */
function problemItem(problem: ProblemReport, channels: readonly string[], own: boolean): string {
  const what = `${problem.number}. ${problem.severity === 'error' ? '❌' : '⚠️'} \`${problem.rule}\`${problem.path ? ` ${forMarkdownCode(problem.path)}` : ''}: `;
  const value =
    problem.example.value === undefined ? '' : ` Value at ${forMarkdownCode(problem.example.path)}: ${forMarkdown(problem.example.value)}.`;
  if (!own) return `${what}${forMarkdown(problem.message)}${value ? `;${value}` : ''}`;
  return (
    `${what}${forMarkdown(problem.hint || value ? ended(problem.message) : problem.message)}${value}` +
    `${problem.hint ? ` Fix: ${forMarkdown(problem.hint)}` : ''} (${forMarkdown(placesText(problem, channels))})`
  );
}

/**
 * "What to fix": each distinct problem once, with its fix and where it came (the digest, as the
 * text output starts); problems that share one fix in the same places (the digest's groups) say it once.
 */
function whatToFix(report: Report): string[] {
  const problems = problemsOf(report);
  if (problems.length === 0) return [];
  const channels = report.channels.map((channel) => channel.name);
  return [
    `**What to fix**: ${digestTitle(problems, report)} ${findingsText(report.counts)}.`,
    '',
    ...sharingAFix(problems, report).flatMap((group) => {
      if (group.length === 1) return [problemItem(group[0]!, channels, true)];
      const [first] = group;
      return [
        ...group.map((problem) => problemItem(problem, channels, false)),
        `   Fix (for problems ${first!.number}–${group.at(-1)!.number}): ${forMarkdown(first!.hint!)} (${forMarkdown(placesText(first!, channels))})`,
      ];
    }),
    '',
  ];
}

/** For `$GITHUB_STEP_SUMMARY`: what to fix, each problem once, then a Markdown table of channels against cases. */
export function githubStepSummary(report: Report): string {
  const lines = [`### check-endpoint: ${forMarkdown(report.target)}`, ''];
  if (report.outcome === 'error') return `${lines.join('\n')}❌ ${forMarkdown(report.error?.message ?? 'the check could not run')}\n`;
  lines.push(...whatToFix(report), ...scenarioFileLines(report));
  const channels = [...new Set(report.cases.map((caseReport) => caseReport.channel))];
  const caseIds = [...new Set(report.cases.map((caseReport) => caseReport.id))];
  lines.push(`| channel | ${caseIds.join(' | ')} |`, `|---|${caseIds.map(() => '---').join('|')}|`);
  for (const channel of channels) lines.push(`| ${channel} | ${caseIds.map((caseId) => cell(report, channel, caseId)).join(' | ')} |`);
  lines.push('', `${report.counts.passed} of ${report.counts.cases} cases passed.`);
  const stopped = stoppedSummary(report);
  if (stopped) lines.push(stopped);
  if (report.baseline?.stale.length) lines.push(`Stale baseline entries: ${report.baseline.stale.map(forMarkdownCode).join(', ')}.`);
  return `${lines.join('\n')}\n`;
}
