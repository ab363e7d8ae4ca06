/**
 * Checks one scenario, given as the plain value its YAML file parses to (or an object the library
 * was given), before anything is sent. Every problem names where it is and how to fix it, and none
 * stops the others; keys this checker does not know are listed as not checked, never as errors.
 */
import { closestName } from '../validate/did-you-mean.js';
import { isKnownTimezone, nowTemplates } from './now-template.js';
import {
  type CheckedScenario,
  FLOW_KEYS,
  type FilePosition,
  HISTORY_KEYS,
  MAX_HISTORY_ITEMS,
  MAX_AFTER_MS,
  MAX_HISTORY_ITEM_CHARACTERS,
  OPENING_KEYS,
  type OpeningMessage,
  READ_KEYS,
  SCENARIO_ID,
  type ScenarioProblem,
  type UncheckedKey,
} from './scenario-file.js';

/** Where a path of the scenario is in its file: its key, or its value. Unknown positions are line 1, column 1. */
export type Locate = (path: readonly (string | number)[], part: 'key' | 'value') => FilePosition;

/** What the check needs to know beside the value. */
export interface ScenarioSource {
  /** The file as the user named it. */
  file: string;
  /** The file's name without `.yaml`, which the id must equal; undefined for an object given to the library. */
  expectedId: string | undefined;
  locate: Locate;
  /** The channels a scenario may name: the contract's, and those of a --limits file. */
  channels: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointerOf(path: readonly (string | number)[]): string {
  return path.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

/** The plain texts a scenario sends or shows, by path: where `{{now …}}` may stand. */
function textsOf(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => textsOf(item, [...path, index]));
  if (isRecord(value)) return Object.entries(value).flatMap(([key, item]) => textsOf(item, [...path, key]));
  return [];
}

export function checkScenario(value: unknown, source: ScenarioSource): CheckedScenario {
  const problems: ScenarioProblem[] = [];
  const unchecked: UncheckedKey[] = [];
  const problem = (path: (string | number)[], part: 'key' | 'value', message: string, fix: string): void => {
    problems.push({ file: source.file, pointer: pointerOf(path), ...source.locate(path, part), message, fix });
  };
  const notChecked = (path: (string | number)[]): void => {
    unchecked.push({ file: source.file, pointer: pointerOf(path), ...source.locate(path, 'key') });
  };
  // A key this checker does not read is left to Flow, unless it is a typo of one it reads: then
  // what the file says would silently not be played (`openning:` plays nothing, `chanels:` every channel).
  const unknownKey = (path: (string | number)[], knownHere: readonly string[]): void => {
    const key = String(path.at(-1));
    const near = closestName(key, knownHere);
    if (near === undefined) return notChecked(path);
    problem(
      path,
      'key',
      `expected a key this checker reads; got "${key}", which it does not, so its value would be ignored`,
      `Did you mean "${near}"?`,
    );
  };
  if (!isRecord(value)) {
    problem(
      [],
      'value',
      `expected a mapping of keys (id, channels, opening, …); got ${describe(value)}`,
      'Write the scenario as keys and values, starting with `id: <the file name>`.',
    );
    return { file: source.file, scenario: undefined, problems, unchecked };
  }
  const known: readonly string[] = [...READ_KEYS, ...FLOW_KEYS];
  for (const key of Object.keys(value)) if (!known.includes(key)) unknownKey([key], known);

  const id = checkId(value, source, problem);
  const channels = checkChannels(value, source, problem);
  const opening = checkOpening(value, problem, unknownKey);
  const historyItems = checkHistory(value, problem, notChecked);
  const { now, timezone } = checkClock(value, problem);

  // {{now …}} in any text needs the scenario's clock; one it cannot read is named.
  for (const { path, text } of textsOf(value)) {
    const { templates, unreadable } = nowTemplates(text);
    if (templates.length > 0 && now === undefined && !Object.hasOwn(value, 'now')) {
      problem(
        path,
        'value',
        `${templates[0]!.text} needs the scenario's clock; the file has no \`now\``,
        'Add `now: 2026-12-05T09:00:00Z` (and `timezone:` if the agent should see local time), or write the date itself.',
      );
    }
    // The clock a date can show ends at ±8.64e15 ms (years -271821 and 275760): an offset past it is no date.
    const past =
      now === undefined
        ? undefined
        : templates.find((template) => !Number.isFinite(new Date(Date.parse(now) + template.offsetMs).getTime()));
    if (past !== undefined) {
      problem(
        path,
        'value',
        `${past.text} falls outside the dates a clock can show (from the \`now\` ${now!}): expected a date between the years -271821 and 275760`,
        'Give `now` a date of this age, such as `now: 2026-12-05T09:00:00Z`.',
      );
    }
    for (const span of unreadable) {
      problem(
        path,
        'value',
        `${span.text} is not a template this checker can render`,
        'Write `{{now}}`, `{{now + 1d}}` or `{{now - 2h | date}}`: an offset in m, h, d or w, and a format of date, time, datetime or weekday.',
      );
    }
  }

  const scenario =
    problems.length === 0 && id !== undefined ? { id, file: source.file, channels, opening, now, timezone, historyItems } : undefined;
  return { file: source.file, scenario, problems, unchecked };
}

type Problem = (path: (string | number)[], part: 'key' | 'value', message: string, fix: string) => void;

function checkId(value: Record<string, unknown>, source: ScenarioSource, problem: Problem): string | undefined {
  const id = value.id;
  const named = source.expectedId === undefined ? '' : ` (the file's name: \`id: ${source.expectedId}\`)`;
  if (id === undefined) {
    problem([], 'value', 'expected an `id`; the scenario has none', `Add \`id:\`${named || ': lower case letters, digits, _ and -'}.`);
    return undefined;
  }
  if (typeof id !== 'string') {
    problem(['id'], 'value', `expected the id as text; got ${describe(id)}`, `Write the id as text${named}.`);
    return undefined;
  }
  if (source.expectedId !== undefined && id !== source.expectedId) {
    problem(
      ['id'],
      'value',
      `expected the id to be the file's name, "${source.expectedId}"; got "${id}"`,
      `Rename the file to ${id}.yaml, or write \`id: ${source.expectedId}\`: \`flow test --only\` finds a scenario by its file's name.`,
    );
    return undefined;
  }
  if (!SCENARIO_ID.test(id)) {
    problem(
      ['id'],
      'value',
      `expected an id of a lower case letter, then lower case letters, digits, _ and - (up to 48); got "${id}"`,
      'Rename the scenario (and its file) in lower case, with - between words: it names the conversation the check plays.',
    );
    return undefined;
  }
  return id;
}

function checkChannels(value: Record<string, unknown>, source: ScenarioSource, problem: Problem): string[] | undefined {
  if (!Object.hasOwn(value, 'channels')) return undefined;
  const channels = value.channels;
  const known = source.channels;
  if (!Array.isArray(channels) || channels.length === 0) {
    problem(
      ['channels'],
      'value',
      `expected a list of channels (${known.join(', ')}); got ${describe(channels)}`,
      'Write `channels: [whatsapp]`: the platforms the scenario plays on.',
    );
    return undefined;
  }
  const named: string[] = [];
  channels.forEach((channel: unknown, index) => {
    if (typeof channel !== 'string' || !known.includes(channel)) {
      const near = typeof channel === 'string' ? closestName(channel, known) : undefined;
      problem(
        ['channels', index],
        'value',
        `expected one of the channels ${known.join(', ')}; got ${describe(channel)}`,
        near !== undefined
          ? `Did you mean "${near}"?`
          : `Name one of ${known.join(', ')} (a custom channel needs its limits given with --limits).`,
      );
      return;
    }
    if (named.includes(channel)) {
      problem(['channels', index], 'value', `expected each channel once; "${channel}" is named twice`, `Name "${channel}" once.`);
      return;
    }
    named.push(channel);
  });
  return named;
}

function checkOpening(
  value: Record<string, unknown>,
  problem: Problem,
  unknownKey: (path: (string | number)[], knownHere: readonly string[]) => void,
): OpeningMessage[] {
  if (!Object.hasOwn(value, 'opening')) return [];
  const opening = value.opening;
  if (!Array.isArray(opening)) {
    problem(
      ['opening'],
      'value',
      `expected a list of the person's first messages (\`- say: "…"\`); got ${describe(opening)}`,
      'Write each message as a list item: `- say: "can i get a large latte"`.',
    );
    return [];
  }
  const messages: OpeningMessage[] = [];
  opening.forEach((item: unknown, index) => {
    if (!isRecord(item) || typeof item.say !== 'string') {
      const got = isRecord(item)
        ? Object.hasOwn(item, 'say')
          ? `say as ${describe(item.say)}`
          : `no say (keys: ${Object.keys(item).join(', ') || 'none'})`
        : describe(item);
      problem(
        ['opening', index],
        'value',
        `expected a \`say\` item, the person's words as text; got ${got}`,
        'Write it as `- say: "the words"`, with `after_ms:` for a gap after the message before.',
      );
      return;
    }
    for (const key of Object.keys(item))
      if (!(OPENING_KEYS as readonly string[]).includes(key)) unknownKey(['opening', index, key], OPENING_KEYS);
    let afterMs: number | undefined;
    if (Object.hasOwn(item, 'after_ms')) {
      const gap = item.after_ms;
      if (typeof gap !== 'number' || !Number.isSafeInteger(gap) || gap < 0 || gap > MAX_AFTER_MS) {
        problem(
          ['opening', index, 'after_ms'],
          'value',
          `expected after_ms as a whole number of milliseconds, 0 to ${MAX_AFTER_MS} (10 minutes); got ${describe(gap)}`,
          'Write the gap in milliseconds, e.g. `after_ms: 1200` for 1.2 s.',
        );
        return;
      }
      afterMs = gap;
    }
    messages.push({ say: item.say, afterMs });
  });
  return messages;
}

function checkHistory(value: Record<string, unknown>, problem: Problem, notChecked: (path: (string | number)[]) => void): number {
  if (!Object.hasOwn(value, 'history')) return 0;
  const history = value.history;
  if (!Array.isArray(history) || history.length === 0) {
    problem(
      ['history'],
      'value',
      `expected a list of 1 to ${MAX_HISTORY_ITEMS} earlier messages (\`- person: "…"\`, \`- agent: "…"\`); got ${describe(history)}`,
      'Write each earlier message as `- person: "…"` or `- agent: "…"`, oldest first, or leave `history` out.',
    );
    return 0;
  }
  if (history.length > MAX_HISTORY_ITEMS) {
    problem(
      ['history', MAX_HISTORY_ITEMS],
      'value',
      `expected at most ${MAX_HISTORY_ITEMS} history items; got ${history.length}`,
      `Keep the last ${MAX_HISTORY_ITEMS} messages: Flow writes no more into the agent's store.`,
    );
  }
  history.forEach((item: unknown, index) => {
    const speaker = isRecord(item) ? HISTORY_KEYS.find((key) => Object.hasOwn(item, key)) : undefined;
    if (!isRecord(item) || speaker === undefined || typeof item[speaker] !== 'string') {
      problem(
        ['history', index],
        'value',
        `expected \`person: "…"\` or \`agent: "…"\` with the message as text; got ${describe(item)}`,
        'Write it as `- person: "Book a table for four on Friday"` or `- agent: "Done."`.',
      );
      return;
    }
    const text = item[speaker] as string;
    if ([...text].length > MAX_HISTORY_ITEM_CHARACTERS) {
      problem(
        ['history', index, speaker],
        'value',
        `expected at most ${MAX_HISTORY_ITEM_CHARACTERS.toLocaleString('en')} characters in a history item; got ${[...text].length.toLocaleString('en')}`,
        'Shorten the message, or split it into two items.',
      );
    }
    for (const key of Object.keys(item)) if (key !== speaker) notChecked(['history', index, key]);
  });
  return history.length;
}

function checkClock(value: Record<string, unknown>, problem: Problem): { now: string | undefined; timezone: string | undefined } {
  let now: string | undefined;
  let timezone: string | undefined;
  if (Object.hasOwn(value, 'now')) {
    const given = value.now instanceof Date ? value.now.toISOString() : value.now;
    if (typeof given !== 'string' || Number.isNaN(Date.parse(given))) {
      problem(
        ['now'],
        'value',
        `expected the scenario's clock as a date and time (ISO 8601); got ${describe(given)}`,
        'Write `now: 2026-12-05T09:00:00Z`.',
      );
    } else now = new Date(Date.parse(given)).toISOString();
  }
  if (Object.hasOwn(value, 'timezone')) {
    const given = value.timezone;
    if (typeof given !== 'string' || !isKnownTimezone(given)) {
      problem(
        ['timezone'],
        'value',
        `expected a timezone name (an IANA name such as Europe/Paris); got ${describe(given)}`,
        'Write `timezone: Europe/Paris`, or leave it out for UTC.',
      );
    } else timezone = given;
  }
  return { now, timezone };
}
