/** The commands of check-endpoint: what help says about each, and the arguments each takes. */
import { PLATFORM_NAMES } from '../generated/platform-names.js';

import type { CommandName } from '../core/command-name.js';

export type { CommandName };

export interface CommandSpec {
  /** How help and errors name the command: `check-endpoint <url>`, `validate`. */
  title: string;
  /** The usage line, after `check-endpoint `. */
  usage: string;
  /** One line, in the list of commands. */
  summary: string;
  /** Paragraphs at the top of the command's help. */
  about: readonly string[];
  /** The words after the command name that are not flags. */
  positional?: {
    /** As usage writes it: `<url>`, `[FILE|-]`. */
    placeholder: string;
    /** What error messages call it: one URL. */
    noun: string;
    description: string;
    /** Set when the word is required: the error when it is missing. */
    missing?: string;
    /** Takes any number of such words (limits' channels), not at most one. */
    many?: boolean;
  };
  examples: readonly { command: string; description: string }[];
  /** What each exit code means for this command. */
  exitCodes?: string;
}

const CHECK_EXIT_CODES =
  'Exit codes: 0 every case passed, 1 a case failed (or was not run: the agent stopped answering, or --max-failures was reached), 2 the check could not run, or a report file asked for could not be written (every other is, and the verdict is printed), 130 / 143 interrupted by SIGINT / SIGTERM (after writing what finished).';

/** The names typed on the command line: every command but the check, which has none. */
export const NAMED_COMMANDS = [
  'validate',
  'serve-example',
  'demo',
  'chat',
  'limits',
  'show',
  'spec',
  'scenarios',
  'help',
] as const satisfies readonly CommandName[];

export function isNamedCommand(word: string): word is (typeof NAMED_COMMANDS)[number] {
  return (NAMED_COMMANDS as readonly string[]).includes(word);
}

/** Every command, in the order help lists them. The check is the default command: no name before its URL. */
/** The agent's URL, the one word the check and the chat take. */
const AGENT_URL = {
  placeholder: '<url>',
  noun: 'URL',
  description: "The agent's URL (http or https)",
  missing: 'give the URL of your agent',
} as const;

export const COMMANDS: Readonly<Record<CommandName, CommandSpec>> = {
  check: {
    title: 'check-endpoint <url>',
    usage: '<url> [flags]',
    summary: 'Check the agent at <url> (the default command)',
    about: [
      "check-endpoint checks an AI chat agent's HTTP endpoint against the agent endpoint contract.",
      "It sends five synthetic conversations (a typed message, a double text, a photo, a button tap, a message that needs no answer) to your agent on each channel, and checks every answer against the schemas, against what the channel's platform can show, and against the conversation's ids.",
    ],
    positional: AGENT_URL,
    examples: [
      { command: 'check-endpoint http://127.0.0.1:8080/agent', description: 'Check the agent on WhatsApp, the default channel' },
      { command: 'check-endpoint https://agent.example.com/chat --channel all', description: 'Check every platform' },
      {
        command: 'check-endpoint URL --start "npm run start:agent" --report-dir reports',
        description: 'In CI: start the agent, wait for it, check it, stop it',
      },
      { command: 'check-endpoint URL --runs 5 --channel all', description: 'Play every case five times: a flaky agent shows as FLAKY' },
      {
        command: 'FLOW_FRAMEWORK_AGENT_TOKEN=… check-endpoint URL --channel sms --case photo',
        description: 'One case, one channel, with a token',
      },
      {
        command: 'check-endpoint URL --json > report.json',
        description: 'A machine-readable report (its schema: `check-endpoint spec report`)',
      },
    ],
    exitCodes: CHECK_EXIT_CODES,
  },
  validate: {
    title: 'validate',
    usage: 'validate [FILE|-] [flags]',
    summary: 'Validate one answer body offline, from a file or standard input (-)',
    about: [
      'Validates one answer body (the JSON an agent answers with) offline, for each channel asked: against the schema, against what the platform can show, and, given --person-message-id, against the ids it names.',
    ],
    positional: {
      placeholder: '[FILE|-]',
      noun: 'answer FILE (or - for standard input)',
      description: 'The answer body (JSON); - or nothing reads standard input',
    },
    examples: [
      { command: 'check-endpoint validate answer.json --channel telegram', description: 'Validate a saved answer for Telegram' },
      {
        command: 'echo \'{"replies":[]}\' | check-endpoint validate - --channel all',
        description: 'Validate from standard input for every platform',
      },
    ],
    exitCodes: 'Exit codes: 0 the answer is valid on every channel, 1 it is invalid on one, 2 it could not be read or checked.',
  },
  'serve-example': {
    title: 'serve-example',
    usage: 'serve-example [flags]',
    summary: 'Serve the reference agent, a conformant agent to try the check on or to port from',
    about: [
      "Serves the reference agent, a conformant agent to try the check on or to port from, until Ctrl-C. It answers 400, with the reasons, to a request that breaks the contract's request schema (`check-endpoint spec request`), and 401 without the bearer token when its variable is set.",
    ],
    examples: [
      { command: 'check-endpoint serve-example --port 8080', description: 'Serve it at http://127.0.0.1:8080/agent' },
      {
        command: 'FLOW_FRAMEWORK_AGENT_TOKEN=s3cret check-endpoint serve-example',
        description: 'Require that bearer token (check it with the same variable set and --quality)',
      },
    ],
    exitCodes: 'Exit codes: 0 it was stopped (Ctrl-C or SIGTERM), 2 it could not listen, or --token-env names a variable that is not set.',
  },
  demo: {
    title: 'demo',
    usage: 'demo [flags]',
    summary: 'Run the full check, every channel, against the bundled reference agent (what npm start does)',
    about: [
      'Runs the full check, every channel, against the bundled reference agent (what npm start does). It takes the flags of the check.',
    ],
    examples: [{ command: 'check-endpoint demo --quality', description: 'The check and the quality cases, against the reference agent' }],
    exitCodes: CHECK_EXIT_CODES,
  },
  chat: {
    title: 'chat',
    usage: 'chat <url> [flags]',
    summary: 'Talk to the agent at <url> on a local page that draws each reply as the platform shows it, checked live',
    about: [
      "Serves a page on 127.0.0.1 (at a free port; its address, with a token every request must carry, is printed) where you talk to your agent as a person would: type (Enter sends, Shift+Enter a new line), send two messages quickly (a double text), attach the check's photo, voice note, video or document or a file of your own, quote a message, tap any button or list row of any answer. Each reply is drawn as the platform shows it, with the HTML report's renderers: what the platform would not send is struck through, its finding and fix beside it; each turn shows its status and latency, and opens to the request and the answer (secrets redacted) and a curl line that sends it again.",
      'Switch platform and the conversation is played again on the other, as a new conversation; save one as tests/scenarios/ID.yaml (typed messages only: a tap, a file or a quote cannot be written in a scenario). The token, --header-env, proxies, .env and the config file are read as the check reads them, and no secret reaches the page. With --start, the agent runs beside it, its output in a pane with a restart button. Ctrl-C or q stops it.',
    ],
    positional: AGENT_URL,
    examples: [
      { command: 'check-endpoint chat http://127.0.0.1:8080/agent --open', description: 'Open the page in your browser, on WhatsApp' },
      {
        command: 'check-endpoint chat URL --start "npm run dev" --channel telegram',
        description: 'Start the agent too (its output on the page, restarted in one click), on Telegram',
      },
    ],
    exitCodes:
      'Exit codes: 0 stopped (Ctrl-C, q or SIGTERM), 2 it could not start: a bad flag, the agent not answering within --wait, or no port to listen on.',
  },
  limits: {
    title: 'limits',
    usage: 'limits [CHANNEL...] [flags]',
    summary: "Show each platform's display limits, as the contract says them",
    about: [
      "Shows what each platform shows and its display limits, read from the contract (x-platforms in spec/agent-endpoint.openapi.yaml, or the --spec file): every limit with its counting unit, the reaction emoji it takes, SMS's encodings and segment sizes. With --limits it shows a custom channel's limits too. With no channel, every platform.",
    ],
    positional: {
      placeholder: '[CHANNEL...]',
      noun: 'channel name',
      description: `${PLATFORM_NAMES.join(', ')}, all, or a custom channel a --limits file names`,
      many: true,
    },
    examples: [
      { command: 'check-endpoint limits', description: 'Every platform, as tables' },
      {
        command: 'check-endpoint limits whatsapp --json',
        description: "WhatsApp's limits as JSON (its schema: `check-endpoint spec report`, $defs/limitsReport)",
      },
      { command: 'check-endpoint limits acme --limits acme=acme-limits.json', description: "A custom channel's limits, from its file" },
    ],
    exitCodes: 'Exit codes: 0 the limits were shown, 2 a channel has none known, or the contract or a limits file could not be read.',
  },
  show: {
    title: 'show',
    usage: 'show [flags]',
    summary: "Show the last run's problems, failures and summary, from .check-endpoint/last-run.json; sends nothing",
    about: [
      "Shows the last check's distinct problems (each once, with its fix and where it came, numbered as the check numbered them), each case that failed naming its problems by number, and the summary, as the check recorded them in .check-endpoint/last-run.json in the current folder, without sending anything. Every check that gets past its flags records itself there; check-endpoint URL --failed plays again what failed, was flaky or was not run.",
    ],
    examples: [
      { command: 'check-endpoint show', description: "The last run's problems and the cases that failed" },
      { command: 'check-endpoint show --json', description: 'The record itself (its schema: `check-endpoint spec last-run`)' },
    ],
    exitCodes: 'Exit codes: 0 the last run was shown, 2 there is no record in this folder, or it cannot be read.',
  },
  spec: {
    title: 'spec',
    usage: 'spec [NAME] [flags]',
    summary: "Print the contract's files (OpenAPI, JSON Schemas), or write them into a folder",
    about: [
      "Prints one of the contract's files as this package ships them, or writes them into a folder with --out, for a repository in any language: a validator, an editor's $schema, a port of the checker. The JSON Schemas' $ids (https://check-endpoint.dev/spec/1.0/…) are identifiers, never fetched: the files refer to one another by relative $refs, which resolve in the folder written. With no name and no --out, lists the files.",
    ],
    positional: {
      placeholder: '[NAME]',
      noun: 'file name',
      description: 'openapi, request, response, limits, config, report or last-run',
    },
    examples: [
      { command: 'check-endpoint spec request', description: 'The request schema, on stdout' },
      { command: 'check-endpoint spec --out check-endpoint-spec', description: 'Every file, into check-endpoint-spec/' },
      {
        command: 'check-endpoint spec config --out check-endpoint-spec',
        description: 'The config file\'s schema (for "$schema": "./check-endpoint-spec/config.schema.json")',
      },
    ],
    exitCodes: 'Exit codes: 0 the file was printed or written, 2 there is no file of that name, or the folder cannot be written.',
  },
  scenarios: {
    title: 'scenarios',
    usage: 'scenarios --lint [DIR] [flags]',
    summary: "Check the team's scenario files (tests/scenarios/*.yaml) alone, sending nothing",
    about: [
      "Checks every *.yaml file of DIR (tests/scenarios when left out) as `flow test` will read it, before any session opens: YAML that does not parse or repeats a key, an id missing or not the file's name, channels that do not exist, an opening that is not a list of say items, after_ms that is not a whole number of milliseconds, history over 200 items or an item over 4,000 characters, {{now …}} with no now. Each problem names the file, line and column, and the fix; keys this checker does not read are listed once, never as errors. For a pre-commit hook or an editor; `check-endpoint URL --scenarios` also plays each valid scenario's opening against the agent.",
    ],
    positional: { placeholder: '[DIR]', noun: 'folder', description: 'The folder of scenario files (tests/scenarios by default)' },
    examples: [
      { command: 'check-endpoint scenarios --lint', description: 'Check tests/scenarios/*.yaml' },
      {
        command: 'check-endpoint scenarios --lint fixtures/scenarios/valid --json',
        description: 'Each problem with file, line and column, as JSON',
      },
    ],
    exitCodes: 'Exit codes: 0 every file is valid, 1 a file has a problem, 2 the folder cannot be read.',
  },
  help: {
    title: 'help',
    usage: 'help [COMMAND]',
    summary: 'Show the help of a command',
    about: ['Shows the help of a command, or of the check when none is named.'],
    positional: { placeholder: '[COMMAND]', noun: 'command name', description: NAMED_COMMANDS.join(', ') },
    examples: [{ command: 'check-endpoint help validate', description: 'The flags of validate' }],
  },
};
