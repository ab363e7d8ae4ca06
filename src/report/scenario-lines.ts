/**
 * The team's scenarios as people read them: each file's problems at its line and column with the
 * fix, the keys not checked here (each once), files not read, history not sent; and, for `scenarios
 * --lint`, a count. The check prints these before its summary; the lint command prints nothing else.
 */
import type { ScenarioFileReport, ScenariosReport } from '../core/report.js';
import type { Colours } from './colour.js';
import { forTerminal } from './escape.js';

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** A file's name, an id, a key or a message that quotes one, as written in a team's files: shown, never obeyed. */
const shown = forTerminal;

function placeOf(place: { file: string; line: number; column: number }): string {
  return place.line > 0 ? `${shown(place.file)}:${place.line}:${place.column}` : shown(place.file);
}

/** Each file's problems: `file:line:column  /pointer  message`, then the fix. */
export function problemLines(files: readonly ScenarioFileReport[], c: Colours): string[] {
  return files.flatMap((file) =>
    file.problems.flatMap((problem) => [
      `${c.red('✗')} ${placeOf(problem)}${problem.pointer ? `  ${c.dim(shown(problem.pointer))}` : ''}  ${shown(problem.message)}`,
      `    ${c.dim('fix:')} ${shown(problem.fix)}`,
    ]),
  );
}

/** What was read but not checked or sent: keys not checked here, files not read, history not sent. */
export function noteLines(scenarios: ScenariosReport, c: Colours): string[] {
  const lines: string[] = [];
  if (scenarios.notChecked.length > 0) {
    const keys = scenarios.notChecked.map(({ key, places }) => `${shown(key)} (${places.map(placeOf).join(', ')})`);
    lines.push(c.dim(`not checked here (Flow's scenario format is larger than what is public): ${keys.join('; ')}`));
  }
  for (const file of scenarios.ignored) lines.push(c.dim(`not read: ${shown(file)} (scenario files end in .yaml)`));
  for (const file of scenarios.files.filter((entry) => entry.status !== 'invalid' && entry.opening.length === 0)) {
    lines.push(
      c.yellow(
        `${shown(file.id ?? file.file)}: not played: it has no opening (this checker plays a scenario's \`opening\`; \`flow test\` plays the rest)`,
      ),
    );
  }
  for (const file of scenarios.files.filter((entry) => entry.historyNotSent > 0)) {
    lines.push(
      c.dim(
        `${shown(file.id ?? file.file)}: its ${plural(file.historyNotSent, 'history item')} not sent (an endpoint has no store to write them into); the opening is played alone`,
      ),
    );
  }
  return lines;
}

/** The scenarios block of the check's output: a heading, the problems, the notes. */
export function scenarioLines(scenarios: ScenariosReport, c: Colours): string[] {
  const invalid = scenarios.files.filter((file) => file.status === 'invalid');
  const played = scenarios.files.filter((file) => file.status !== 'invalid' && file.status !== 'not-run').length;
  const heading = `Scenarios${scenarios.folder ? ` (${shown(scenarios.folder)})` : ''}: ${plural(played, 'played', 'played')}${invalid.length ? `, ${c.red(`${plural(invalid.length, 'file')} with problems, not played`)}` : ''}`;
  return [c.bold(heading), ...problemLines(invalid, c), ...noteLines(scenarios, c)];
}

/** `scenarios --lint`: every problem, the notes, then a count of files, valid and not. */
export function lintLines(scenarios: ScenariosReport, c: Colours): string[] {
  const invalid = scenarios.files.filter((file) => file.status === 'invalid');
  const problems = invalid.reduce((sum, file) => sum + file.problems.length, 0);
  const summary =
    scenarios.files.length === 0
      ? c.yellow(`no scenario files (*.yaml) in ${shown(scenarios.folder ?? 'the list')}`)
      : invalid.length === 0
        ? c.green(`${plural(scenarios.files.length, 'scenario file')}, all valid`)
        : c.red(`${plural(scenarios.files.length, 'scenario file')}: ${invalid.length} with ${plural(problems, 'problem')}`);
  return [...problemLines(invalid, c), ...noteLines(scenarios, c), summary];
}
