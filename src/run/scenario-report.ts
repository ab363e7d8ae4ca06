/**
 * The `scenarios` section of a run's report: each scenario file checked, and how its opening went
 * on its channels (its cases are in `cases`, as every case's are). A file with a problem fails the
 * run as a failed case does: it was not played, and `flow test` would refuse it.
 */
import { commandName } from '../core/command-name.js';
import { withCommand } from '../core/command-words.js';
import type { CaseReport, Report, ScenarioFileReport, ScenariosReport } from '../core/report.js';
import { openingTexts, scenarioCaseId } from '../scenario-files/scenario-case.js';
import type { TeamScenarios } from './team-scenarios.js';

function statusOf(plays: readonly CaseReport[]): ScenarioFileReport['status'] {
  if (plays.length === 0 || plays.every((play) => play.status === 'not-run')) return 'not-run';
  return plays.some((play) => play.status === 'failed' && !play.expected) ? 'failed' : 'passed';
}

/** The section: each file's problems with their fixes' commands written as `command` (core/command-words.ts). */
export function scenariosSection(
  team: TeamScenarios,
  cases: readonly CaseReport[],
  command: string,
  /** `scenarios --lint`, which plays nothing: each file's channels are those it names. */
  { lint = false }: { lint?: boolean } = {},
): ScenariosReport {
  const files = team.checked.map((entry): ScenarioFileReport => {
    const scenario = entry.scenario;
    if (scenario === undefined) {
      return {
        file: entry.file,
        id: null,
        status: 'invalid',
        problems: entry.problems.map((problem) => ({ ...problem, fix: withCommand(problem.fix, command) })),
        caseId: null,
        channels: [],
        opening: [],
        historyNotSent: 0,
      };
    }
    const caseId = scenarioCaseId(scenario.id);
    const plays = cases.filter((caseReport) => caseReport.id === caseId);
    return {
      file: entry.file,
      id: scenario.id,
      status: statusOf(plays),
      problems: [],
      caseId,
      channels: lint ? [...(scenario.channels ?? [])] : plays.map((play) => play.channel),
      opening: openingTexts(scenario),
      historyNotSent: scenario.historyItems,
    };
  });
  return {
    folder: team.folder ?? null,
    files,
    notChecked: team.unchecked.map(({ key, places }) => ({
      key,
      places: places.map(({ file, line, column }) => ({ file, line, column })),
    })),
    ignored: team.ignored,
  };
}

/** The report with its `scenarios` section; a scenario file with a problem fails a run that otherwise passed. */
export function withTeamScenarios(report: Report, team: TeamScenarios | undefined): Report {
  if (team === undefined) return report;
  const scenarios = scenariosSection(team, report.cases, commandName());
  const invalid = scenarios.files.some((file) => file.status === 'invalid');
  return invalid && report.outcome === 'passed' ? { ...report, outcome: 'failed', exitCode: 1, scenarios } : { ...report, scenarios };
}
