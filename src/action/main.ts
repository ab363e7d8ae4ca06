/**
 * The GitHub Action (action.yml at the repository's root): runs the check as `check-endpoint` does,
 * with the command line its inputs make, in the step's working folder, and sets its outputs on every
 * exit, a bad input and an interrupted run included. The annotations and the step summary are the
 * command's own (it writes them when GITHUB_ACTIONS is true). scripts/build-action.ts bundles this
 * module, with every dependency, into action/index.mjs, which the runner runs on its own Node.
 */
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { runCommandLine } from '../cli.js';
import { isFolder } from '../core/is-folder.js';
import { ActionInputError, DEFAULT_REPORT_DIR, WORKING_DIRECTORY_INPUT, actionArguments, inputValue } from './inputs.js';
import { actionOutputs, outputFileLines } from './outputs.js';

/** When the file was last written; undefined when there is none. */
function modifiedAt(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The JSON report this run wrote: undefined when there is none, or only an earlier step's (written before this run began). */
function reportOfThisRun(file: string, earlier: number | undefined): unknown {
  const written = modifiedAt(file);
  if (written === undefined || written === earlier) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The report folder the command line names: its last --report-dir (args come last, and win over the report-dir input). */
function reportDirOf(args: readonly string[]): string {
  let folder = DEFAULT_REPORT_DIR;
  args.forEach((word, index) => {
    if (word === '--report-dir' && index + 1 < args.length) folder = args[index + 1]!;
    else if (word.startsWith('--report-dir=')) folder = word.slice('--report-dir='.length);
  });
  return folder;
}

/** Goes to the working-directory input's folder, when one is given (relative to the workspace, where the runner starts the action). */
function goToWorkingDirectory(env: NodeJS.ProcessEnv): void {
  const folder = inputValue(WORKING_DIRECTORY_INPUT, env);
  if (folder === '') return;
  if (!isFolder(folder)) throw new ActionInputError(`input ${WORKING_DIRECTORY_INPUT.name}: ${folder} is not a folder (from ${process.cwd()})`);
  process.chdir(folder);
}

async function main(): Promise<void> {
  let args: string[] | undefined;
  let inputError: ActionInputError | undefined;
  try {
    goToWorkingDirectory(process.env);
    args = actionArguments(process.env);
  } catch (cause) {
    if (!(cause instanceof ActionInputError)) throw cause;
    inputError = cause;
  }
  const reportFile = resolve(reportDirOf(args ?? []), 'report.json');
  const earlierReport = modifiedAt(reportFile);
  process.on('exit', (code) => {
    const outputFile = process.env.GITHUB_OUTPUT;
    if (!outputFile) return;
    const outputs = actionOutputs({ exitCode: code, report: reportOfThisRun(reportFile, earlierReport), reportFile });
    appendFileSync(outputFile, outputFileLines(outputs));
  });
  if (args === undefined) {
    process.stderr.write(`check-endpoint: ${inputError?.message}\n`);
    process.exitCode = 2;
    return;
  }
  // The command line is not echoed: an args string may hold a secret the workflow expanded. The
  // command's own header says what it checks (the token, secret headers and what `start` sets a
  // secret-named variable to, redacted, as the command shows its --start).
  await runCommandLine(args);
}

// A failure of the action itself (not the check's, which the command reports and exits on) is an
// error, exit 2, as the command's own are: never Node's exit 1, which would read as a failed check.
const crashed = (cause: unknown): void => {
  process.stderr.write(`check-endpoint: internal error in the action: ${cause instanceof Error ? cause.message : String(cause)}\n`);
  if (process.env.CHECK_ENDPOINT_DEBUG && cause instanceof Error) process.stderr.write(`${cause.stack}\n`);
  process.exit(2);
};
process.on('uncaughtException', crashed);
process.on('unhandledRejection', crashed);
await main().catch(crashed);
