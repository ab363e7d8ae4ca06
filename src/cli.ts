/**
 * The check-endpoint command. The common line, `check-endpoint <url> [flags]`, is parsed by a
 * fast parser and runs at once; anything else (help, subcommands, errors) goes to yargs, set up
 * only then. The build bundles this module into dist/cli.cjs, which bin/check-endpoint.cjs runs.
 */
import { parseCheckFast } from './cli/fast-parse.js';
import { createOutput } from './commands/output.js';
import { ContractError } from './contract/contract-error.js';
import { UsageError } from './core/usage-error.js';

/** Exit codes, as the contract says: 0 every case passed, 1 a case failed, 2 the check could not run. */
const EXIT_USAGE = 2;

function fail(message: string): never {
  process.stderr.write(`check-endpoint: ${message}\nRun check-endpoint --help for usage.\n`);
  process.exit(EXIT_USAGE);
}

async function main(argv: string[]): Promise<number> {
  const check = parseCheckFast(argv);
  if (check) {
    const { runCheckCommand } = await import('./commands/check.js');
    return runCheckCommand(check, await createOutput(check.json));
  }
  const { runWithYargs } = await import('./cli/yargs-cli.js');
  return runWithYargs(argv, fail);
}

/** Runs the command line given (the arguments after `check-endpoint`) and sets the exit code. */
export async function runCommandLine(argv: string[]): Promise<void> {
  // A closed pipe (check-endpoint ... | head) ends the output, not the process with a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  try {
    process.exitCode = await main(argv);
  } catch (cause) {
    if (cause instanceof UsageError || cause instanceof ContractError) fail(cause.message);
    const message = cause instanceof Error ? cause.message : String(cause);
    process.stderr.write(`check-endpoint: internal error: ${message}\n`);
    if (process.env.CHECK_ENDPOINT_DEBUG && cause instanceof Error) process.stderr.write(`${cause.stack}\n`);
    process.exitCode = EXIT_USAGE;
  }
}
