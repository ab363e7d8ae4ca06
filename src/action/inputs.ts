/**
 * The GitHub Action's inputs and outputs: one list, from which scripts/build-action.ts writes
 * action.yml, src/action/main.ts reads what the runner passes (`INPUT_<NAME>` variables), and
 * test/action.test.ts holds the README's table to. An input is a flag of the check, so each one's
 * value is checked by the command itself, in its own words.
 */
import { PLATFORM_NAMES } from '../generated/platform-names.js';
import { splitWords } from './words.js';

/** How an input becomes words of the command line. */
type InputKind =
  /** The agent's URL: the first word. */
  | 'url'
  /** The flag and the value, when a value is given. */
  | 'value'
  /** The flag once for each item of a list separated by commas, spaces or lines. */
  | 'list'
  /** The flag alone, when the value is true (YAML's true or false). */
  | 'switch'
  /** More words, split as a shell splits them. */
  | 'words'
  /** No words: the folder the check runs in (src/action/main.ts goes there first). */
  | 'folder';

export interface ActionInput {
  name: string;
  kind: InputKind;
  /** The check's flag it sets (none for `url`, `args` and `working-directory`). */
  flag?: string;
  required?: boolean;
  default?: string;
  description: string;
}

/** The report folder when the workflow names none: a path the step's upload-artifact can name. */
export const DEFAULT_REPORT_DIR = 'check-endpoint-reports';

export const ACTION_INPUTS: readonly ActionInput[] = [
  { name: 'url', kind: 'url', required: true, description: "The agent's URL as the job reaches it, e.g. http://127.0.0.1:8080/agent." },
  {
    name: 'start',
    kind: 'value',
    flag: '--start',
    description: 'A shell command that starts the agent: the check waits for the URL to answer, checks it, then stops it.',
  },
  { name: 'wait', kind: 'value', flag: '--wait', description: 'Seconds to keep trying to reach the agent. Default: 60 with start, else one try.' },
  {
    name: 'channel',
    kind: 'list',
    flag: '--channel',
    description: `Channels to check, separated by commas or spaces: ${PLATFORM_NAMES.join(', ')}, all, or a custom name. Default: whatsapp.`,
  },
  { name: 'cases', kind: 'list', flag: '--case', description: 'Only these cases, separated by commas or spaces. Default: the five fixed cases.' },
  { name: 'quality', kind: 'switch', flag: '--quality', default: 'false', description: 'true: also run the quality cases.' },
  { name: 'extended', kind: 'switch', flag: '--extended', default: 'false', description: 'true: also run the extended cases.' },
  {
    name: 'explore',
    kind: 'switch',
    flag: '--explore',
    default: 'false',
    description: 'true: also play generated conversations on each channel, each failure shrunk to its smallest conversation (docs/explore.md).',
  },
  { name: 'strict', kind: 'switch', flag: '--strict', default: 'false', description: 'true: warnings fail the run too.' },
  { name: 'runs', kind: 'value', flag: '--runs', description: 'Play every case this many times (1 to 100); a case passes only when every play does.' },
  { name: 'explore-turns', kind: 'value', flag: '--explore-turns', description: 'With explore: the messages it may send on each channel. Default: 300.' },
  { name: 'seed', kind: 'value', flag: '--seed', description: "With explore: the seed of its choices (printed on every run): the same seed gets the same requests." },
  {
    name: 'report-dir',
    kind: 'value',
    flag: '--report-dir',
    default: DEFAULT_REPORT_DIR,
    description: "Where report.json, junit.xml, traffic.har, report.html and the agent's log are written.",
  },
  {
    name: 'args',
    kind: 'words',
    description: 'More flags of the check, as one string split as a shell splits words, e.g. --html report.html --quiet.',
  },
  {
    name: 'working-directory',
    kind: 'folder',
    description:
      "The folder the check runs in, as a run step's working-directory: start runs there, and report-dir and a config file are found from there. Default: the workspace.",
  },
];

/** The working-directory input. */
export const WORKING_DIRECTORY_INPUT = ACTION_INPUTS.find((input) => input.kind === 'folder')!;

export const ACTION_OUTPUTS = [
  { name: 'outcome', description: 'passed, failed, error (the check could not run) or interrupted.' },
  { name: 'exit-code', description: "The check's exit code: 0 passed, 1 failed, 2 could not run, 130 or 143 interrupted." },
  { name: 'problems', description: 'How many distinct problems the run found, each problem of a scenario file included (0 when it passed or could not run).' },
  { name: 'report', description: 'The path of the JSON report (report.json in report-dir); empty when none was written.' },
] as const;

export type ActionOutputName = (typeof ACTION_OUTPUTS)[number]['name'];

/** A value given to an input that the action cannot turn into a command line. */
export class ActionInputError extends Error {
  override name = 'ActionInputError';
}

/** The variable the runner sets for an input: INPUT_ and its name in capitals, spaces as underscores (hyphens kept). */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/** An input's value as the runner passes it, trimmed; its default when the variable is unset or empty. */
export function inputValue(input: ActionInput, env: NodeJS.ProcessEnv): string {
  const given = env[inputVariable(input.name)]?.trim() ?? '';
  return given === '' ? (input.default ?? '') : given;
}

/** YAML 1.2's booleans, as the actions toolkit's getBooleanInput reads them. */
function switchValue(input: ActionInput, value: string): boolean {
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE', ''].includes(value)) return false;
  throw new ActionInputError(`input ${input.name} must be true or false; got ${JSON.stringify(value)}`);
}

function wordsOf(input: ActionInput, value: string): string[] {
  if (value === '') {
    if (input.required) throw new ActionInputError(`input ${input.name} is required: give it under the step's with:`);
    return [];
  }
  switch (input.kind) {
    case 'url':
      return [value];
    case 'value':
      return [input.flag!, value];
    case 'list':
      return value
        .split(/[\s,]+/)
        .filter((item) => item !== '')
        .flatMap((item) => [input.flag!, item]);
    case 'switch':
      return switchValue(input, value) ? [input.flag!] : [];
    case 'words':
      try {
        return splitWords(value);
      } catch (cause) {
        throw new ActionInputError(`input ${input.name}: ${(cause as Error).message}`);
      }
    case 'folder':
      return [];
  }
}

/** The check's command line for the inputs the runner passed: the URL first, then each input's flags in the list's order. */
export function actionArguments(env: NodeJS.ProcessEnv): string[] {
  // --no-watch: a config file's "watch" (or one in args) would watch in CI until the job's timeout.
  return [...ACTION_INPUTS.flatMap((input) => wordsOf(input, inputValue(input, env))), '--no-watch'];
}
