import yargs, { type Argv } from 'yargs';
import { createOutput } from '../commands/output.js';
import { TOOL_VERSION } from '../core/version.js';
import { CHECK_OPTIONS, checkArgsFrom } from './check-options.js';

/** Exit code 2: the check could not run. */
const EXIT_USAGE = 2;

const checkOptions = (command: Argv) => {
  for (const [name, spec] of Object.entries(CHECK_OPTIONS))
    command.option(name, { ...spec, choices: spec.choices ? [...spec.choices] : undefined });
  return command;
};

/** The full command line, with help, every subcommand and yargs' own error messages. */
export async function runWithYargs(argv: string[], fail: (message: string) => never): Promise<number> {
  let exitCode = EXIT_USAGE;
  const parser = yargs(argv)
    .parserConfiguration({ 'greedy-arrays': false })
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
      async (parsed) => {
        const { runCheckCommand } = await import('../commands/check.js');
        exitCode = await runCheckCommand({ url: parsed.url as string, ...checkArgsFrom(parsed) }, await createOutput(parsed.json === true));
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
        const { runValidateCommand } = await import('../commands/validate.js');
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
          await createOutput(argv.json),
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
        const { runServeExampleCommand } = await import('../commands/serve-example.js');
        exitCode = await runServeExampleCommand({ port: argv.port, host: argv.host }, await createOutput(false));
      },
    )
    .command(
      'demo',
      'Run the full check, every channel, against the bundled reference agent (what npm start does)',
      (command) => checkOptions(command),
      async (argv) => {
        const { runDemoCommand } = await import('../commands/demo.js');
        exitCode = await runDemoCommand(checkArgsFrom(argv), await createOutput(argv.json === true));
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
