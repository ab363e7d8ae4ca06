/**
 * The cases' own settings, resolved in one function: each setting a case declares (any JSON value,
 * with its default and what it takes), as given by case id and name (`caseSettings` in the
 * library, `"cases"` in the config file, `--case-setting ID.NAME=VALUE` on the command line) or by
 * its older option field (`latencyBudgetSeconds`, `--latency-budget`), or else by default.
 */
import { OptionError } from '../core/option-error.js';
import { closestName } from '../validate/did-you-mean.js';
import type { JsonValue, Case, CaseSetting, SettingOption } from './case.js';

/** The option field every case setting can be given in, by case id and name. */
export const CASE_SETTINGS_FIELD = 'caseSettings';

/** A case's setting, with the case that declares it and the option field that also sets it, if any. */
export interface RegisteredSetting {
  caseId: string;
  name: string;
  declaration: CaseSetting;
  option: SettingOption | undefined;
}

/** The settings the cases declare, in the cases' order. */
export function settingsOf(cases: readonly Case[]): RegisteredSetting[] {
  return cases.flatMap((testCase) =>
    Object.entries(testCase.settings ?? {}).map(([name, declaration]) => ({
      caseId: testCase.id,
      name,
      declaration,
      option: declaration.option ?? earlierOption(name, declaration),
    })),
  );
}

/** The earlier form of a number setting of your own (`{ flag, placeholder, default, integer }`): its name is its option field. */
function earlierOption(name: string, declaration: CaseSetting): SettingOption | undefined {
  if (declaration.flag === undefined || typeof declaration.default !== 'number') return undefined;
  return {
    field: name,
    placeholder: declaration.placeholder ?? 'N',
    description: declaration.description,
    default: declaration.default,
    ...(declaration.integer ? { integer: true } : {}),
    ...(declaration.max !== undefined ? { max: declaration.max } : {}),
  };
}

/** What a positive number (a whole one where `integer`), at most `max`, is not: "must be …", or undefined. */
export function positiveProblem(value: number, integer: boolean | undefined, max: number | undefined): string | undefined {
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    return `must be a positive ${integer ? 'whole number' : 'number'}`;
  if (max !== undefined && value > max) return `must be at most ${max}`;
  return undefined;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** What a value is not, as its declaration says (or, by default, as its default's type says). */
function problemOf(declaration: CaseSetting, value: JsonValue): string | undefined {
  if (declaration.validate) return declaration.validate(value);
  if (typeof declaration.default === 'number') {
    return typeof value === 'number' ? positiveProblem(value, declaration.integer, declaration.max) : 'must be a number';
  }
  const type = jsonType(declaration.default);
  return jsonType(value) === type ? undefined : `must be ${type === 'null' ? 'null' : type.startsWith('a') ? type : `a ${type}`}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonValue(value: unknown): value is JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  return isRecord(value) && Object.values(value).every(isJsonValue);
}

/** The settings of the run's cases, by case id and name: as given, or each one's default. */
export type CaseSettingValues = Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;

function refusal(say: (on: string) => string): OptionError {
  return new OptionError(CASE_SETTINGS_FIELD, (on) => say(on.name(CASE_SETTINGS_FIELD)));
}

/**
 * Every case's settings (`cases`: the built-in ones and the run's own), as given or by default,
 * vetted: an OptionError naming the case and the setting for an unknown case, an unknown setting
 * or a value its declaration does not take; an OptionError naming the option field for a number
 * given by its older field (`latencyBudgetSeconds`) that is not positive.
 */
export function resolveCaseSettings(
  cases: readonly Case[],
  given: Readonly<Record<string, unknown>> | undefined,
  optionValue: (field: string) => unknown,
): Record<string, Record<string, JsonValue>> {
  const registered = settingsOf(cases);
  const ids = cases.map((testCase) => testCase.id);
  for (const [id, settings] of Object.entries(given ?? {})) {
    if (!ids.includes(id)) {
      const closest = closestName(id, ids);
      throw refusal((on) => `${on}: "${id}" is not a case${closest === undefined ? '' : `; did you mean ${closest}?`}`);
    }
    if (!isRecord(settings)) throw refusal((on) => `${on}: ${id} takes an object of settings by name; got ${jsonType(settings)}`);
    const names = registered.filter((setting) => setting.caseId === id).map((setting) => setting.name);
    for (const name of Object.keys(settings)) {
      if (names.includes(name)) continue;
      const closest = closestName(name, names);
      const known = names.length ? `its settings: ${names.join(', ')}` : 'it has none';
      throw refusal((on) => `${on}: ${id} has no setting "${name}"${closest === undefined ? '' : `; did you mean ${closest}?`} (${known})`);
    }
  }
  const values: Record<string, Record<string, JsonValue>> = {};
  for (const { caseId, name, declaration, option } of registered) {
    const byCase = given !== undefined && isRecord(given[caseId]) ? given[caseId] : {};
    const value = Object.hasOwn(byCase, name) ? byCase[name] : undefined;
    let resolved: JsonValue = declaration.default;
    const byOption = option === undefined ? undefined : optionValue(option.field);
    if (option !== undefined && byOption !== undefined) {
      if (typeof byOption !== 'number') throw new TypeError(`${option.field} must be a number; got ${jsonType(byOption)}`);
      const problem = positiveProblem(byOption, option.integer, option.max);
      if (problem) throw new OptionError(option.field, (on) => `${on.name(option.field)} ${problem}; got ${byOption}`);
      // 1.1 s is 1100 ms, not 1100.0000000000002.
      resolved = Number((byOption * (option.scale ?? 1)).toPrecision(15));
    }
    if (value !== undefined) {
      const problem = isJsonValue(value) ? problemOf(declaration, value) : 'must be a JSON value';
      if (problem) throw refusal((on) => `${on}: ${caseId}.${name} ${problem}; got ${JSON.stringify(value) ?? String(value)}`);
      if (isJsonValue(value)) resolved = value;
    }
    (values[caseId] ??= {})[name] = resolved;
  }
  return values;
}
