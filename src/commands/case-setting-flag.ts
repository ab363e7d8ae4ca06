/**
 * `--case-setting ID.NAME=VALUE`, as the library's `caseSettings`: `quality/latency.budgetMs=2000`
 * is `{ "quality/latency": { budgetMs: 2000 } }`. VALUE is read as JSON when it is JSON (a number,
 * true, a list, an object, "a quoted string"), else as the string written. What a setting takes is
 * the case's to say (src/cases/case-settings.ts).
 */
import { UsageError } from '../core/usage-error.js';
import type { JsonValue } from '../cases/case.js';

const USAGE = '--case-setting needs ID.NAME=VALUE (quality/latency.budgetMs=2000)';

/** VALUE: JSON when it parses, else the string itself. */
function valueOf(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue; // JSON.parse gives a JSON value
  } catch {
    return text;
  }
}

/** One --case-setting value: its case id, setting name and value; undefined when it is not ID.NAME=VALUE. */
function caseSettingOf(text: string): { id: string; name: string; value: JsonValue } | undefined {
  const equals = text.indexOf('=');
  const target = equals < 0 ? text : text.slice(0, equals);
  // A case id has no dot (lower case letters, digits, _, - and one /): the first dot ends it.
  const dot = target.indexOf('.');
  if (equals < 0 || dot <= 0 || dot === target.length - 1) return undefined;
  return { id: target.slice(0, dot), name: target.slice(dot + 1), value: valueOf(text.slice(equals + 1)) };
}

/** Refuses a --case-setting value that is not ID.NAME=VALUE: a UsageError saying the form. */
export function vetCaseSettingFlags(values: readonly string[]): void {
  const wrong = values.find((text) => caseSettingOf(text) === undefined);
  if (wrong !== undefined) throw new UsageError(`${USAGE}; got "${wrong.slice(0, 80)}"`);
}

/**
 * The settings by case id and name; a setting given twice takes the last value, as a flag does. A
 * value that is not ID.NAME=VALUE is left out here: vetCaseSettingFlags refuses it before the run.
 */
export function caseSettingsOf(values: readonly string[]): Record<string, Record<string, JsonValue>> {
  // Maps, then own keys: an id or name of `__proto__` or `constructor` is a key like any other (and
  // refused as no case), never a way into Object.prototype.
  const settings = new Map<string, Map<string, JsonValue>>();
  for (const setting of values.map(caseSettingOf)) {
    if (setting === undefined) continue;
    const byName = settings.get(setting.id) ?? new Map<string, JsonValue>();
    settings.set(setting.id, byName.set(setting.name, setting.value));
  }
  return Object.fromEntries([...settings].map(([id, byName]) => [id, Object.fromEntries(byName)]));
}
