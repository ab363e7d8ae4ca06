import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { CASE_IDS } from './cases/fixed-cases.js';
import { runCheckCommand } from './commands/check.js';
import { runDemoCommand } from './commands/demo.js';
import { createOutput } from './commands/output.js';
import { runServeExampleCommand } from './commands/serve-example.js';
import { runValidateCommand } from './commands/validate.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_BODY_BYTES, DEFAULT_TOKEN_ENV } from './run/check-endpoint.js';
import { ContractError } from './spec/contract-error.js';
import { UsageError } from './usage-error.js';
import { TOOL_VERSION } from './version.js';

/** Exit codes, as the contract says: 0 every case passed, 1 a case failed, 2 the check could not run. */
const EXIT_USAGE = 2;

function fail(message: string): never {
  process.stderr.write(`check-endpoint: ${message}\nRun check-endpoint --help for usage.\n`);
  process.exit(EXIT_USAGE);
}

// A closed pipe (check-endpoint ... | head) ends the output, not the process with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const checkOptions = (command: Argv) =>
  command
    .option('channel', {
      type: 'string',
      array: true,
      default: [] as string[],
      defaultDescription: 'whatsapp',
      describe: 'Channel to check: whatsapp, sms, imessage, telegram, web, all, or a custom name. Repeat for several.',
    })
    .option('case', {
      type: 'string',
      array: true,
      default: [] as string[],
      defaultDescription: 'all five',
      choices: CASE_IDS,
      describe: 'Run only this case. Repeat for several.',
    })
    .option('token-env', {
      type: 'string',
      describe: `Environment variable holding the bearer token (sent as authorization: Bearer …; never printed). Default ${DEFAULT_TOKEN_ENV}`,
    })
    .option('agent-timeout', {
      type: 'number',
      describe: "Seconds the agent has for each answer, headers and body together. Default: the contract's 60",
    })
    .option('concurrency', { type: 'number', describe: `Conversations in flight at once. Default ${DEFAULT_CONCURRENCY}` })
    .option('max-body', {
      type: 'number',
      describe: `Largest answer body accepted, in bytes (after decompression). Default ${DEFAULT_MAX_BODY_BYTES}`,
    })
    .option('json', {
      type: 'boolean',
      default: false,
      describe: 'Print the report as one JSON document on stdout (human lines go to stderr)',
    })
    .option('spec', { type: 'string', describe: 'Check against another version of the contract: an OpenAPI 3.1 file' })
    .option('limits', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Display limits for a custom channel: [NAME=]FILE, a JSON file shaped like spec/platform-limits.schema.json',
    })
    .option('strict', { type: 'boolean', default: false, describe: 'Warnings fail the run too' })
    .option('insecure', {
      type: 'boolean',
      default: false,
      describe: 'Accept an https certificate the system does not trust (self-signed, for local use only; says so loudly)',
    });

const checkArgs = (argv: Record<string, unknown>) => ({
  channel: argv.channel as string[],
  case: argv.case as string[],
  json: argv.json as boolean,
  limits: argv.limits as string[],
  strict: argv.strict as boolean,
  insecure: argv.insecure as boolean,
  ...(argv.tokenEnv !== undefined ? { tokenEnv: argv.tokenEnv as string } : {}),
  ...(argv.agentTimeout !== undefined ? { agentTimeout: argv.agentTimeout as number } : {}),
  ...(argv.concurrency !== undefined ? { concurrency: argv.concurrency as number } : {}),
  ...(argv.maxBody !== undefined ? { maxBody: argv.maxBody as number } : {}),
  ...(argv.spec !== undefined ? { spec: argv.spec as string } : {}),
});

async function main(): Promise<number> {
  let exitCode = EXIT_USAGE;
  const parser = yargs(hideBin(process.argv))
    .scriptName('check-endpoint')
    .usage(
      [
        "check-endpoint checks an AI chat agent's HTTP endpoint against the agent endpoint contract.",
        '',
        'It sends five synthetic conversations (a typed message, a double text, a photo, a button tap,',
        'a message that needs no answer) to your agent on each channel, and checks every answer against',
        "the schemas, against what the channel's platform can show, and against the conversation's ids.",
        '',
        'Exit codes: 0 every case passed, 1 a case failed, 2 the check could not run.',
      ].join('\n'),
    )
    .command(
      '$0 <url>',
      'Check the agent at <url>',
      (command) => checkOptions(command).positional('url', { type: 'string', describe: "The agent's URL (http or https)" }),
      async (argv) => {
        exitCode = await runCheckCommand({ url: argv.url as string, ...checkArgs(argv) }, createOutput(argv.json));
      },
    )
    .command(
      'validate [file]',
      'Validate one answer body offline, from a file or standard input (-)',
      (command) =>
        command
          .positional('file', { type: 'string', describe: 'The answer body (JSON); - or nothing reads standard input' })
          .option('channel', {
            type: 'string',
            array: true,
            default: [] as string[],
            defaultDescription: 'whatsapp',
            describe: 'Channel to validate for; all, or repeat for several',
          })
          .option('person-message-id', {
            type: 'string',
            array: true,
            default: [] as string[],
            describe: 'A person message id of the conversation; replyTo and reactions must name one. Repeat for several',
          })
          .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON on stdout' })
          .option('spec', { type: 'string', describe: 'Another version of the contract: an OpenAPI 3.1 file' })
          .option('limits', {
            type: 'string',
            array: true,
            default: [] as string[],
            describe: 'Display limits for a custom channel: [NAME=]FILE',
          })
          .option('strict', { type: 'boolean', default: false, describe: 'Warnings make the answer invalid too' })
          .example('check-endpoint validate answer.json --channel telegram', 'Validate a saved answer for Telegram')
          .example('echo \'{"replies":[]}\' | check-endpoint validate - --channel all', 'Validate from standard input for every platform'),
      async (argv) => {
        exitCode = await runValidateCommand(
          {
            // yargs turns a lone "-" into true or "": both mean standard input.
            ...(typeof argv.file === 'string' && argv.file !== '' ? { file: argv.file } : {}),
            channel: argv.channel,
            personMessageId: argv.personMessageId,
            json: argv.json,
            limits: argv.limits,
            strict: argv.strict,
            ...(argv.spec !== undefined ? { spec: argv.spec } : {}),
          },
          createOutput(argv.json),
        );
      },
    )
    .command(
      'serve-example',
      'Serve the reference agent, a conformant agent to try the check on or to port from',
      (command) =>
        command
          .option('port', { type: 'number', default: 8080, describe: 'Port to listen on (0 picks a free one)' })
          .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' }),
      async (argv) => {
        exitCode = await runServeExampleCommand({ port: argv.port, host: argv.host }, createOutput(false));
      },
    )
    .command(
      'demo',
      'Run the full check, every channel, against the bundled reference agent (what npm start does)',
      (command) => checkOptions(command),
      async (argv) => {
        exitCode = await runDemoCommand(checkArgs(argv), createOutput(argv.json));
      },
    )
    .example('check-endpoint http://127.0.0.1:8080/agent', 'Check the agent on WhatsApp, the default channel')
    .example('check-endpoint https://agent.example.com/chat --channel all', 'Check every platform')
    .example('FLOW_FRAMEWORK_AGENT_TOKEN=… check-endpoint URL --channel sms --case photo', 'One case, one channel, with a token')
    .example('check-endpoint URL --json > report.json', 'A machine-readable report (documented in spec/report.schema.json)')
    .version(TOOL_VERSION)
    .help()
    .alias('h', 'help')
    .strict()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error) => {
      if (error) throw error;
      fail(message);
    });
  await parser.parseAsync();
  return exitCode;
}

try {
  process.exitCode = await main();
} catch (cause) {
  if (cause instanceof UsageError || cause instanceof ContractError) fail(cause.message);
  const message = cause instanceof Error ? cause.message : String(cause);
  process.stderr.write(`check-endpoint: internal error: ${message}\n`);
  if (process.env.CHECK_ENDPOINT_DEBUG && cause instanceof Error) process.stderr.write(`${cause.stack}\n`);
  process.exitCode = EXIT_USAGE;
}
