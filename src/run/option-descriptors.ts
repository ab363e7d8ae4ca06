/**
 * Every option of a run, one descriptor each: its option field, the flag that sets it (if any, as
 * help shows it), what it holds, its default and what it takes, and its words for help. From this
 * one table come the library's option type (`CheckEndpointOptions`), its vetting and resolution
 * (options.ts), the command line's flags, help and config file keys (src/cli/options.ts), the
 * check command's arguments (their types: run-flag-args.ts) and their mapping onto options
 * (src/commands/check.ts), and the config file's JSON Schema. A new option is one entry here and its use.
 *
 * Hand mapping stays only where a flag is special: `--header`, `--header-env` and `--case-setting`
 * parse their values into records, `--dotenv` reads `.env` by default, `--wait` waits 60 s with `--start`.
 */
import type { CommandName } from '../core/command-name.js';
import type { OptionDescriptor } from './option-descriptor.js';
import { MAX_WAIT_SECONDS } from '../contract/contract.js';
import { ALL_CASE_IDS, EXTENDED_CASE_IDS, QUALITY_CASE_IDS } from '../cases/registry.js';
import { PLATFORM_NAMES } from '../generated/platform-names.js';
import { DEFAULT_SCENARIO_FOLDER } from '../scenario-files/scenario-file.js';
import { positiveProblem } from '../cases/case-settings.js';
import { DEFAULT_CONCURRENCY, DEFAULT_EXPLORE_TURNS, DEFAULT_MAX_BODY_BYTES, DEFAULT_TOKEN_ENV, MAX_EXPLORE_TURNS } from './defaults.js';
import { MAX_SEED } from '../cases/explore/random.js';
import { thousands } from '../core/thousands.js';

const CHECK = ['check', 'demo'] as const satisfies readonly CommandName[];
const CHECK_AND_VALIDATE = ['check', 'demo', 'validate'] as const satisfies readonly CommandName[];
/** The check's flags that say how a message is sent and judged: the chat page sends its messages as the check does. */
const CHECK_AND_CHAT = ['check', 'demo', 'chat'] as const satisfies readonly CommandName[];

/** A positive number (a whole one where `integer`), at most `max`. */
function positive(integer: boolean, max?: number): (value: number) => string | undefined {
  return (value) => positiveProblem(value, integer, max);
}

/** A whole number from `least` to `most`. */
function wholeNumberFrom(least: number, most: number): (value: number) => string | undefined {
  return (value) =>
    Number.isInteger(value) && value >= least && value <= most ? undefined : `must be a whole number from ${least} to ${thousands(most)}`;
}

/** Case ids as a sentence lists them, in the registry's order: `a, b and c`; quality cases without their `quality/`. */
function caseList(ids: readonly string[]): string {
  const names = ids.map((id) => id.replace(/^quality\//, ''));
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Case ids as code, for the library's help: `` `voice-note`, `document` ``. */
const codeList = (ids: readonly string[]): string => ids.map((id) => `\`${id}\``).join(', ');

/** The most plays of a case --runs takes. */
export const MAX_RUNS = 100;

/** The table, in help's order for the flags. */
export const OPTION_DESCRIPTORS = {
  channels: {
    kind: 'strings',
    help: "Channels to check: platform names or custom names; `all` means the contract's platforms. Default `whatsapp`.",
    flag: {
      name: 'channel',
      type: 'string',
      list: true,
      placeholder: 'NAME',
      commands: [...CHECK_AND_VALIDATE, 'chat'],
      description: `Channel to check: ${PLATFORM_NAMES.join(', ')}, all, or a custom name`,
      descriptionOn: {
        validate: `Channel to validate for: ${PLATFORM_NAMES.join(', ')}, all, or a custom name`,
        chat: `The platform the first conversation is on (${PLATFORM_NAMES.join(', ')}, or a custom name); the page switches to any platform`,
      },
      defaultDescription: 'whatsapp',
      defaultDescriptionOn: { demo: 'all' },
    },
  },
  cases: {
    kind: 'strings',
    help: 'Case ids to run, of any group (`voice-note`, `quality/auth`) or of `customCases`; the five fixed cases and `customCases` when left out.',
    flag: {
      name: 'case',
      type: 'string',
      list: true,
      placeholder: 'ID',
      choices: ALL_CASE_IDS,
      commands: CHECK,
      description: 'Run only this case: a fixed, extended, explore or quality case (repeatable)',
      defaultDescription: 'the five fixed cases',
    },
  },
  skipCases: {
    kind: 'strings',
    help: 'Case ids to leave out of the run, of any group or of `customCases`: after `cases`, `extended` and `quality` chose.',
    recorded: true,
    flag: {
      name: 'skip-case',
      type: 'string',
      list: true,
      placeholder: 'ID',
      commands: CHECK,
      description: 'Leave this case out of the run, whichever group chose it (repeatable)',
    },
  },
  tokenEnv: {
    kind: 'string',
    help: 'The environment variable that holds the bearer token. Default FLOW_FRAMEWORK_AGENT_TOKEN.',
    default: DEFAULT_TOKEN_ENV,
    recorded: true,
    flag: {
      name: 'token-env',
      type: 'string',
      placeholder: 'VAR',
      commands: [...CHECK, 'serve-example', 'chat'],
      description: 'Environment variable holding the bearer token (sent as authorization: Bearer …; never printed)',
      descriptionOn: {
        'serve-example': 'Environment variable holding the bearer token the agent requires: without it, a request gets 401 (never printed)',
      },
      defaultDescription: DEFAULT_TOKEN_ENV,
    },
  },
  env: {
    kind: 'environment',
    help: 'Where the token variable, the `secretHeaders` variables and the proxy variables are read from. None when left out: pass `env: process.env` to read the environment, as the command does.',
  },
  headers: {
    kind: 'string record',
    help: 'Headers sent with every request, as given: not for secrets.',
    special: true,
    recorded: true,
    flag: {
      name: 'header',
      type: 'string',
      list: true,
      placeholder: '"NAME: VALUE"',
      commands: CHECK_AND_CHAT,
      description: 'Send this header with every request, as given (not for secrets: use --header-env)',
    },
  },
  secretHeaders: {
    kind: 'string record',
    help: "Headers whose values are read from variables: header name to variable name. Never printed; `authorization` takes the bearer token's place.",
    special: true,
    recorded: true,
    flag: {
      name: 'header-env',
      type: 'string',
      list: true,
      placeholder: 'NAME=VAR',
      commands: CHECK_AND_CHAT,
      description:
        'Send header NAME with the value of environment variable VAR, never printed (authorization=VAR replaces the bearer token: basic auth)',
    },
  },
  dotenv: {
    kind: 'string',
    help: 'A .env file: the token variable and the `secretHeaders` variables are read from it when `env` does not set them. None when left out.',
    special: true,
    recorded: true,
    flag: {
      name: 'dotenv',
      type: 'string',
      placeholder: 'FILE',
      negatable: true,
      commands: CHECK_AND_CHAT,
      description:
        'Read the token and --header-env variables from this .env file when the environment does not set them; --no-dotenv reads none',
      defaultDescription: '.env in the current folder, if there is one',
    },
  },
  agentTimeoutSeconds: {
    kind: 'number',
    help: "Seconds the agent has for each answer; the contract's (60) when left out.",
    validate: positive(false, MAX_WAIT_SECONDS),
    recorded: true,
    flag: {
      name: 'agent-timeout',
      type: 'number',
      placeholder: 'SECONDS',
      commands: CHECK_AND_CHAT,
      description: 'Seconds the agent has for each answer, headers and body together',
      // The bundled contract's agentTimeoutSeconds (test/cli-options.test.ts holds the two together).
      defaultDescription: "the contract's 60",
    },
  },
  concurrency: {
    kind: 'number',
    help: 'Conversations in flight at once. Default 8.',
    default: DEFAULT_CONCURRENCY,
    validate: positive(true),
    recorded: true,
    flag: {
      name: 'concurrency',
      type: 'number',
      placeholder: 'N',
      commands: CHECK,
      description: 'Conversations in flight at once',
      defaultDescription: String(DEFAULT_CONCURRENCY),
    },
  },
  maxBodyBytes: {
    kind: 'number',
    help: 'The largest answer body accepted, in bytes. Default 10 MiB.',
    default: DEFAULT_MAX_BODY_BYTES,
    validate: positive(true),
    reproduce: true,
    flag: {
      name: 'max-body',
      type: 'number',
      placeholder: 'BYTES',
      commands: CHECK_AND_CHAT,
      description: 'Largest answer body accepted, in bytes (after decompression)',
      defaultDescription: String(DEFAULT_MAX_BODY_BYTES),
    },
  },
  contract: { kind: 'contract', help: 'The contract; the bundled one when left out.' },
  spec: {
    kind: 'string',
    help: 'Another version of the contract, from an OpenAPI 3.1 file (instead of `contract`).',
    recorded: true,
    flag: {
      name: 'spec',
      type: 'string',
      placeholder: 'FILE',
      commands: [...CHECK_AND_VALIDATE, 'limits', 'scenarios', 'chat'],
      description: 'Check against another version of the contract: an OpenAPI 3.1 file',
      descriptionOn: { limits: 'Show the limits of another version of the contract: an OpenAPI 3.1 file' },
    },
  },
  limits: {
    kind: 'limits',
    help: 'Display rules for custom channels: by channel name, or as files, `[NAME=]FILE` (a file without a NAME applies to every custom channel of the run).',
    recorded: true,
    flag: {
      name: 'limits',
      type: 'string',
      list: true,
      placeholder: '[NAME=]FILE',
      commands: [...CHECK_AND_VALIDATE, 'limits', 'scenarios', 'chat'],
      description: 'Display limits for a custom channel: a JSON file shaped as `check-endpoint spec limits` prints',
      descriptionOn: { limits: "Also show a custom channel's limits: a JSON file shaped as `check-endpoint spec limits` prints" },
    },
  },
  strict: {
    kind: 'boolean',
    help: 'Warnings fail the case too.',
    default: false,
    reproduce: true,
    flag: {
      name: 'strict',
      type: 'boolean',
      commands: CHECK_AND_VALIDATE,
      description: 'Warnings fail the run too',
      descriptionOn: { validate: 'Warnings make the answer invalid too' },
    },
  },
  baseline: {
    kind: 'baseline',
    help: 'Expected failures: a baseline file, or its entries. Listed failures do not fail the run; a stale entry does.',
    recorded: true,
    flag: {
      name: 'baseline',
      type: 'string',
      placeholder: 'FILE',
      commands: CHECK,
      description:
        'Expected failures, one a line (case, case:rule, channel/case, channel/case:rule): they do not fail the run; an entry that passes does',
    },
  },
  extended: {
    kind: 'boolean',
    help: `Run the extended cases too (${codeList(EXTENDED_CASE_IDS)}), with the fixed ones.`,
    default: false,
    recorded: true,
    flag: {
      name: 'extended',
      type: 'boolean',
      commands: CHECK,
      description: `Also run the extended cases: ${caseList(EXTENDED_CASE_IDS)}`,
    },
  },
  quality: {
    kind: 'boolean',
    help: `Run the quality cases too (${codeList(QUALITY_CASE_IDS)}), after the fixed ones.`,
    default: false,
    recorded: true,
    flag: {
      name: 'quality',
      type: 'boolean',
      commands: CHECK,
      description: `Also run the quality cases: ${caseList(QUALITY_CASE_IDS)}`,
    },
  },
  explore: {
    kind: 'boolean',
    help: 'After the fixed cases, play generated conversations on each channel (message shapes, a crawl of every button and list row, walks), judge every answer by every common rule, and shrink each failure to its smallest conversation (case `explore`; see docs/explore.md).',
    default: false,
    recorded: true,
    flag: {
      name: 'explore',
      type: 'boolean',
      commands: CHECK,
      description:
        'Also play generated conversations on each channel (any text, files with captions, every button and list row, old taps, quotes), each failure shrunk to its smallest conversation',
    },
  },
  exploreTurns: {
    kind: 'number',
    // (No toLocaleString here: at start-up it would load ICU's number formats, some 30 ms of every run.)
    help: `With \`explore\`: the messages it may send on each channel (1 to ${MAX_EXPLORE_TURNS}). Default ${DEFAULT_EXPLORE_TURNS}.`,
    default: DEFAULT_EXPLORE_TURNS,
    validate: wholeNumberFrom(1, MAX_EXPLORE_TURNS),
    recorded: true,
    flag: {
      name: 'explore-turns',
      type: 'number',
      placeholder: 'N',
      commands: CHECK,
      description: 'With --explore: the messages it may send on each channel (shrinking a failure takes more)',
      defaultDescription: String(DEFAULT_EXPLORE_TURNS),
      takes: `a whole number from 1 to ${MAX_EXPLORE_TURNS}`,
    },
  },
  seed: {
    kind: 'number',
    help: `With \`explore\`: the seed of its choices, 0 to ${MAX_SEED}; the same seed and agent get the same requests in the same order. A fresh one when left out, printed and in the report.`,
    validate: wholeNumberFrom(0, MAX_SEED),
    flag: {
      name: 'seed',
      type: 'number',
      placeholder: 'N',
      commands: CHECK,
      description: 'With --explore: the seed of its choices (printed on every run): the same seed and agent get the same requests',
      defaultDescription: 'a fresh one',
      takes: `a whole number from 0 to ${MAX_SEED}`,
    },
  },
  shrink: {
    kind: 'boolean',
    help: 'With `explore`: shrink each failure to the smallest conversation that still fails with it, playing each candidate. Default true.',
    default: true,
    flag: {
      name: 'shrink',
      type: 'boolean',
      optional: true,
      commands: CHECK,
      description: 'With --explore: shrink each failure to its smallest conversation (--no-shrink reports it as found)',
      defaultDescription: 'on',
    },
  },
  caseSettings: {
    kind: 'case settings',
    help: 'The cases\' own settings, by case id and setting name: `{ "quality/latency": { budgetMs: 2000 } }`; each case declares its settings, their defaults and what they take.',
    special: true,
    recorded: true,
    flag: {
      name: 'case-setting',
      type: 'string',
      list: true,
      placeholder: 'ID.NAME=VALUE',
      commands: CHECK,
      description:
        "Set a case's own setting: quality/latency.budgetMs=2000 (VALUE is read as JSON when it is JSON, else as a string; repeatable)",
    },
  },
  customCases: {
    kind: 'cases',
    help: 'Your own cases (see defineCase), played after the built-in ones chosen, on every channel. They add to the run; to run only them, name them in `cases`.',
  },
  scenarios: {
    kind: 'scenarios',
    help: "The team's scenarios (what `flow test` plays after the check): a folder of `*.yaml` files (`tests/scenarios`), or the objects they parse to. Each is checked before anything is sent, and each valid one's opening is played on its channels, every answer judged by every common rule. A case from defineCase in the list is taken as one of `customCases` (its earlier name).",
    recorded: true,
    flag: {
      name: 'scenarios',
      type: 'string',
      placeholder: '[DIR]',
      commands: ['check'],
      valueWhenBare: DEFAULT_SCENARIO_FOLDER,
      description:
        "Check the team's scenario files in DIR (tests/scenarios when left out: give DIR, or put --scenarios last), then play each valid one's opening on its channels",
    },
  },
  onlyScenarios: {
    kind: 'strings',
    help: 'Play only the scenarios of these ids (`flow test --only`); every scenario when left out.',
    recorded: true,
    flag: {
      name: 'only',
      type: 'string',
      list: true,
      placeholder: 'ID[,ID]',
      commands: ['check'],
      description: 'With --scenarios: play only the scenarios of these ids, as flow test --only does (repeatable, or comma-separated)',
    },
  },
  insecure: {
    kind: 'boolean',
    help: 'Accept an https certificate the system does not trust (a self-signed one, for local use only).',
    default: false,
    reproduce: true,
    flag: {
      name: 'insecure',
      type: 'boolean',
      commands: CHECK_AND_CHAT,
      description: 'Accept an https certificate the system does not trust (self-signed, for local use only; says so loudly)',
    },
  },
  runs: {
    kind: 'number',
    help: 'How many times each case is played on each channel, each play its own conversation (1 to 100). Default 1.',
    default: 1,
    validate: wholeNumberFrom(1, MAX_RUNS),
    flag: {
      name: 'runs',
      type: 'number',
      placeholder: 'N',
      commands: CHECK,
      description:
        'Play every case N times (1 to 100) on every channel, each play its own conversation; a case passes only when every play does, and is flaky when only some do',
      defaultDescription: '1',
      takes: 'a whole number from 1 to 100',
    },
  },
  waitSeconds: {
    kind: 'number',
    help: 'Seconds to keep trying the HEAD probe until the agent answers. Default 0: one try.',
    default: 0,
    validate: (value: number) =>
      !Number.isFinite(value) || value < 0
        ? 'must be a number of seconds, 0 or more'
        : value > MAX_WAIT_SECONDS
          ? `must be at most ${MAX_WAIT_SECONDS}`
          : undefined,
    special: true,
    flag: {
      name: 'wait',
      type: 'number',
      placeholder: 'SECONDS',
      commands: CHECK_AND_CHAT,
      description: 'Keep trying to reach the agent (the HEAD probe, backing off from 100 ms to 1 s) for this long before giving up',
      defaultDescription: '0: one try; 60 with --start',
      defaultDescriptionOn: { chat: 'none: the page opens at once; 60 with --start' },
    },
  },
  maxFailures: {
    kind: 'number',
    help: 'Stop after this many failed cases: nothing new is sent, and the cases left are reported as not run. Unlimited when left out.',
    validate: positive(true),
    flag: {
      name: 'max-failures',
      type: 'number',
      placeholder: 'N',
      commands: CHECK,
      description: 'Stop after N failed cases: nothing new is sent, and the cases left are reported as not run',
      defaultDescription: 'no limit',
      takes: 'a whole number, 1 or more',
    },
  },
  onExchange: { kind: 'function', help: 'Told of every HTTP exchange as it ends (the token redacted), for an HTTP archive.' },
  onCase: {
    kind: 'function',
    help: "Called as each case ends (or is given up: status `not-run`), with its report and its index in the report's `cases`.",
  },
  onPlay: { kind: 'function', help: 'Called as each play ends: how many plays are done of all, and how many of them failed.' },
  onCaseProgress: {
    kind: 'function',
    help: 'Called as a long case goes (explore: after each of its conversations), with `{ case, channel, done, total, found }`: its turns sent of its budget, and the problems found so far.',
  },
  signal: {
    kind: 'signal',
    help: 'Interrupts the run: nothing new is sent, exchanges in flight are aborted, and the report holds what finished (outcome `interrupted`).',
  },
} as const satisfies Readonly<Record<string, OptionDescriptor>>;

export type Descriptors = typeof OPTION_DESCRIPTORS;
export type OptionField = keyof Descriptors;

/** The descriptor of a field, as its general type (the table itself is typed literally). */
export function descriptorOf(field: string): OptionDescriptor | undefined {
  return Object.hasOwn(OPTION_DESCRIPTORS, field) ? (OPTION_DESCRIPTORS as Readonly<Record<string, OptionDescriptor>>)[field] : undefined;
}

/** Every descriptor, with its field, in the table's order. */
export const DESCRIBED: readonly (OptionDescriptor & { field: string })[] = Object.entries(
  OPTION_DESCRIPTORS as Readonly<Record<string, OptionDescriptor>>,
).map(([field, descriptor]) => ({ ...descriptor, field }));
