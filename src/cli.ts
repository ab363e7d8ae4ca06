/**
 * The check-endpoint command: reads the command line (src/cli/parse.ts, from the option table in
 * src/cli/options.ts), runs the command asked for and sets the exit code. The build bundles this
 * module into dist/cli.cjs, which bin/check-endpoint.cjs runs.
 */
import { helpWidth, renderHelp } from './cli/help.js';
import { type CommandLine, CommandLineError, parseCommandLine } from './cli/parse.js';
import { readConfigFile, readRecordedCheck } from './cli/config-file.js';
import { createOutput } from './commands/output.js';
import { ContractError } from './contract/contract-error.js';
import { messageFor } from './core/option-error.js';
import { UsageError } from './core/usage-error.js';
import { FLAG_NAMES } from './cli/options.js';
import { TOOL_VERSION } from './core/version.js';
import { commandName } from './core/command-name.js';
import { withCommand } from './core/command-words.js';

/** Exit codes, as the contract says: 0 every case passed, 1 a case failed, 2 the check could not run. */
const EXIT_USAGE = 2;

function fail(message: string): never {
  const command = commandName();
  process.stderr.write(`check-endpoint: ${withCommand(message, command)}\nRun ${command} --help for usage.\n`);
  process.exit(EXIT_USAGE);
}

async function run(line: CommandLine, argv: readonly string[]): Promise<number> {
  switch (line.command) {
    case 'help':
      process.stdout.write(renderHelp(line.topic, helpWidth(process.stdout), commandName()));
      return 0;
    case 'version':
      process.stdout.write(`${TOOL_VERSION}\n`);
      return 0;
    case 'check': {
      // A config file's "watch" is for a developer's terminal: in CI (CI set, as every CI system sets it) the check runs once.
      const watchFromConfig = line.args.configKeys?.watch !== undefined;
      if (line.args.watch && watchFromConfig && process.env.CI && process.env.CI !== 'false')
        process.stderr.write(`check-endpoint: ${line.args.config}: "watch" is left out in CI (CI=${process.env.CI}): checking once\n`);
      else if (line.args.watch) {
        const { runWatchCommand } = await import('./commands/watch.js');
        return runWatchCommand(argv, line.args, await createOutput(false, line.args.color));
      }
      const { runCheckCommand } = await import('./commands/check.js');
      return runCheckCommand(line.args, await createOutput(line.args.json, line.args.color), FLAG_NAMES);
    }
    case 'demo': {
      const { runDemoCommand } = await import('./commands/demo.js');
      return runDemoCommand(line.args, await createOutput(line.args.json, line.args.color), FLAG_NAMES);
    }
    case 'chat': {
      const { runChatCommand } = await import('./commands/chat.js');
      return runChatCommand(line.args, await createOutput(false));
    }
    case 'validate': {
      const { runValidateCommand } = await import('./commands/validate.js');
      return runValidateCommand(line.args, await createOutput(line.args.json, line.args.color), FLAG_NAMES);
    }
    case 'limits': {
      const { runLimitsCommand } = await import('./commands/limits.js');
      return runLimitsCommand(line.args, await createOutput(line.args.json));
    }
    case 'show': {
      const { runShowCommand } = await import('./commands/show.js');
      return runShowCommand(line.args, await createOutput(line.args.json, line.args.color));
    }
    case 'spec': {
      const { runSpecCommand } = await import('./commands/spec.js');
      return runSpecCommand(line.args, await createOutput(false));
    }
    case 'scenarios': {
      const { runScenariosCommand } = await import('./commands/scenarios.js');
      return runScenariosCommand(line.args, await createOutput(line.args.json));
    }
    case 'serve-example': {
      const { runServeExampleCommand } = await import('./commands/serve-example.js');
      return runServeExampleCommand(line.args, await createOutput(false));
    }
  }
}

/** --json asked for one document on every exit: the command line did not parse, so the command could not run. */
async function printJsonError(cause: CommandLineError): Promise<void> {
  const print = (document: unknown) => void process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  if (cause.command === 'check' || cause.command === 'demo') {
    const { jsonErrorReport } = await import('./commands/check.js');
    print(jsonErrorReport(cause.firstWord ?? '', cause.message));
  } else if (cause.command === 'validate') {
    const { validateErrorReport } = await import('./commands/validate.js');
    print(validateErrorReport(cause.firstWord, false, null, cause.message));
  }
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
    process.exitCode = await run(
      parseCommandLine(argv, readConfigFile, () => readRecordedCheck()),
      argv,
    );
  } catch (cause) {
    if (cause instanceof CommandLineError && cause.jsonAsked) await printJsonError(cause);
    // The library's errors name its option fields; the command line names the flags.
    if (cause instanceof UsageError || cause instanceof ContractError) fail(messageFor(cause, FLAG_NAMES));
    const message = cause instanceof Error ? cause.message : String(cause);
    process.stderr.write(`check-endpoint: internal error: ${message}\n`);
    if (process.env.CHECK_ENDPOINT_DEBUG && cause instanceof Error) process.stderr.write(`${cause.stack}\n`);
    process.exitCode = EXIT_USAGE;
  }
}
