/**
 * The action's outputs (src/action/inputs.ts names them) from how the check ended, and the lines
 * that set them in the file GITHUB_OUTPUT names. Pure: src/action/main.ts reads and writes.
 */
import type { ActionOutputName } from './inputs.js';

/** What the outputs are made from: the process's exit code, and the JSON report the run wrote (undefined when it wrote none). */
export interface CheckEnding {
  exitCode: number;
  report: unknown;
  reportFile: string;
}

const OUTCOMES = ['passed', 'failed', 'error', 'interrupted'] as const;

/** The outcome an exit code means, when no report says it: the command's exit codes (0, 1, 2, 130, 143). */
function outcomeOfExitCode(exitCode: number): (typeof OUTCOMES)[number] {
  if (exitCode === 0) return 'passed';
  if (exitCode === 1) return 'failed';
  if (exitCode === 130 || exitCode === 143) return 'interrupted';
  return 'error';
}

function field(document: unknown, key: string): unknown {
  return typeof document === 'object' && document !== null && Object.hasOwn(document, key) ? (document as Record<string, unknown>)[key] : undefined;
}

/** How many items a list field holds: 0 when it is no list. */
function count(list: unknown): number {
  return Array.isArray(list) ? list.length : 0;
}

/** The problems of the team's scenario files that were not played (`scenarios.files[].problems` of an `invalid` file). */
function scenarioFileProblems(report: unknown): number {
  const files = field(field(report, 'scenarios'), 'files');
  if (!Array.isArray(files)) return 0;
  return files.reduce((sum: number, file: unknown) => sum + (field(file, 'status') === 'invalid' ? count(field(file, 'problems')) : 0), 0);
}

export function actionOutputs({ exitCode, report, reportFile }: CheckEnding): Record<ActionOutputName, string> {
  const outcome = field(report, 'outcome');
  return {
    outcome: OUTCOMES.find((known) => known === outcome) ?? outcomeOfExitCode(exitCode),
    'exit-code': String(exitCode),
    // A scenario file's problem is a problem: the run failed for it, though no case played it.
    problems: String(count(field(report, 'problems')) + scenarioFileProblems(report)),
    report: report === undefined ? '' : reportFile,
  };
}

/**
 * The GITHUB_OUTPUT lines: `name=value`, or for a value with a line break the runner's
 * `name<<DELIMITER` form, with a delimiter the value cannot hold (as the actions toolkit writes it).
 */
export function outputFileLines(outputs: Record<string, string>, delimiter: () => string = () => `ghadelimiter_${process.getBuiltinModule('node:crypto').randomUUID()}`): string {
  return Object.entries(outputs)
    .map(([name, value]) => {
      if (!/[\r\n]/.test(value)) return `${name}=${value}\n`;
      let end = delimiter();
      while (value.includes(end)) end = delimiter();
      return `${name}<<${end}\n${value}\n${end}\n`;
    })
    .join('');
}
