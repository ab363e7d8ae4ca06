/**
 * A team's scenario file (`tests/scenarios/*.yaml`), as far as this checker reads one: what `flow
 * test` will play after the check, of which the check plays the opening through the contract.
 * The format's public part is in the contract ("Scenario files"); the rest is not checked here.
 */

/** Where something is in a file: 1-based line and column. */
export interface FilePosition {
  line: number;
  column: number;
}

export type { ScenarioProblem } from '../core/report.js';
import type { ScenarioProblem } from '../core/report.js';

/** A key this checker does not read (the cloud's format is larger than what is public). */
export interface UncheckedKey extends FilePosition {
  file: string;
  pointer: string;
}

/** One message of the opening: the person's words, and the gap before it. */
export interface OpeningMessage {
  /** The text as written, `{{now …}}` not yet rendered. */
  say: string;
  /** Milliseconds after the previous message was sent; undefined: after the previous one's answer. */
  afterMs: number | undefined;
}

/** A scenario as this checker plays it. */
export interface TeamScenario {
  id: string;
  /** Where it came from: a file, or `(scenario N)` for one the library was given as an object. */
  file: string;
  /** The channels it plays on; undefined when the file names none (then the run's channels). */
  channels: readonly string[] | undefined;
  opening: readonly OpeningMessage[];
  /** The scenario's clock, as an ISO 8601 instant, for `{{now …}}`. */
  now: string | undefined;
  timezone: string | undefined;
  /** How many history items the file has: they are not sent (an endpoint has no store to write them into). */
  historyItems: number;
}

/** One file, checked: the scenario when it has no problem, its problems, and the keys not checked here. */
export interface CheckedScenario {
  file: string;
  scenario: TeamScenario | undefined;
  problems: ScenarioProblem[];
  unchecked: UncheckedKey[];
}

/** The keys of a scenario this checker knows: the ones it reads, and Flow's that it leaves to `flow test`. */
export const READ_KEYS = ['id', 'channels', 'opening', 'now', 'timezone', 'history'] as const;
export const FLOW_KEYS = ['person', 'world', 'expect', 'restart'] as const;
/** The keys of an opening item it reads. */
export const OPENING_KEYS = ['say', 'after_ms'] as const;
/**
 * The longest gap an opening message may ask for (`after_ms`): 10 minutes. A double text is a few
 * seconds; a timer past 2^31 - 1 ms fires at once, so what a file says past a bound would not be
 * what is played, and the bound keeps a run's length what the file says.
 */
export const MAX_AFTER_MS = 600_000;
/** The keys of a history item. */
export const HISTORY_KEYS = ['person', 'agent'] as const;

/** The contract's bounds on `history`: 1 to 200 items, each up to 4,000 characters. */
export const MAX_HISTORY_ITEMS = 200;
export const MAX_HISTORY_ITEM_CHARACTERS = 4000;

/** The ids this checker plays: a lower case letter, then lower case letters, digits, _ and - (up to 48), as a case id's part. */
export const SCENARIO_ID = /^[a-z][a-z0-9_-]{0,47}$/;

/** The folder `flow test` reads, and so the default here. */
export const DEFAULT_SCENARIO_FOLDER = 'tests/scenarios';
