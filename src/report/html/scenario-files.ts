/**
 * "Scenario files": each problem of the team's scenario files (--scenarios) with its fix, as "What
 * to fix" draws a problem of the answers: a file with problems was not played and fails the run, so
 * the page says so beside the answers' problems, not only the terminal.
 */
import type { Report, ScenarioFileReport, ScenarioProblem } from '../../core/report.js';
import { type Markup, h } from './markup.js';
import { withCode } from './hint-text.js';
import { plural } from './values.js';

/** The scenario files with problems: none was played. */
export function invalidScenarioFiles(report: Report): ScenarioFileReport[] {
  return (report.scenarios?.files ?? []).filter((file) => file.status === 'invalid');
}

/** `sc/x.yaml:1:5`, or the file alone where no line is known. */
function placeOf(problem: ScenarioProblem): string {
  return problem.line > 0 ? `${problem.file}:${problem.line}:${problem.column}` : problem.file;
}

function renderProblem(problem: ScenarioProblem): Markup {
  return h`<li class="finding problem error scenario-problem" data-scenario-file="${problem.file}">
    <p class="finding-head">
      <span class="severity"><span aria-hidden="true">✗</span> error</span>
      <code class="pointer">${placeOf(problem)}</code>
      ${problem.pointer ? h`<span class="label">at</span> <code class="pointer">${problem.pointer}</code>` : ''}
    </p>
    <p class="finding-message">${problem.message}</p>
    <p class="finding-hint"><span class="label">Fix:</span> ${withCode(problem.fix)}</p>
  </li>`;
}

/** The head's words for them: `2 scenario files with problems, not played`; empty when there are none. */
export function scenarioFilesText(report: Report): string {
  const invalid = invalidScenarioFiles(report);
  return invalid.length ? `${plural(invalid.length, 'scenario file')} with problems, not played` : '';
}

/** The section, each file's problems with their fixes; empty markup when every file was valid. */
export function renderScenarioFiles(report: Report): Markup | '' {
  const invalid = invalidScenarioFiles(report);
  if (invalid.length === 0) return '';
  return h`<section id="scenario-files" aria-labelledby="scenario-files-title">
    <h2 id="scenario-files-title">Scenario files</h2>
    <p class="digest-title">${scenarioFilesText(report)}${report.scenarios?.folder ? h` (<code>${report.scenarios.folder}</code>)` : ''}:</p>
    <ol class="findings problems">
      ${invalid.flatMap((file) => file.problems.map(renderProblem))}
    </ol>
  </section>`;
}
