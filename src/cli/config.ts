/**
 * The config file, `check-endpoint.config.json`: the check's URL and flags, its keys the long
 * flags' names in camelCase (`channel`, `agentTimeout`, `headerEnv`), each value of the flag's
 * type, read from the option table like the command line. A layer under the flags: a flag given
 * on the command line wins (a list flag given replaces the file's list). Secrets never go in it:
 * the token and secret headers are named by their variables (`tokenEnv`, `headerEnv`), and a key
 * that looks like one holding a secret is refused, saying so. spec/config.schema.json, written
 * from the same table (config-schema.ts), lets editors complete and check it.
 */
import { UsageError } from '../core/usage-error.js';
import { closestName } from '../validate/did-you-mean.js';
import { type FlagValue, type OptionName, argumentKey, isActionFlag, optionSpec, optionsOf } from './options.js';
import { SECRET_NAME } from '../core/secret-names.js';

/** The file the check reads from the current folder when --config does not name one. */
export { CONFIG_FILE } from '../commands/config-notice.js';

/** The flags a config file can set: every flag of the check but help, version and --config itself. */
export const CONFIG_FLAGS: readonly OptionName[] = optionsOf('check').filter((name) => !isActionFlag(name) && name !== 'config');

/** A config file's key for a flag: `agent-timeout` → `agentTimeout`. */
export const configKey = (name: OptionName): string => argumentKey(name);

/** What a config file sets: the URL, and flag values as the command line gives them. */
export interface ConfigValues {
  file: string;
  url?: string;
  /** Why --failed must not take a record's URL, asked only when it would (git tracks the record; a proxy would carry the request off this machine). */
  urlRefused?: () => string | undefined;
  flags: Map<OptionName, FlagValue>;
  /** The key each flag was set by, as the file writes it: `agentTimeout`, `cases` (for --case-setting). */
  keys: Map<OptionName, string>;
}

/** The key that sets every case's own settings, by case id and name: `"cases": { "quality/latency": { "budgetMs": 2000 } }`. */
export const CASES_KEY = 'cases';

/** `"cases"`'s value as --case-setting values: `quality/latency.budgetMs=2000`, each value written as JSON. */
function caseSettingFlags(value: unknown, file: string): string[] {
  const wrong = new UsageError(
    `${file}: "${CASES_KEY}" takes the cases' own settings by case id and name: { "quality/latency": { "budgetMs": 2000 } }; got ${JSON.stringify(value)?.slice(0, 80)}`,
  );
  // A list of case ids is the natural guess for choosing cases (the flag is --case): the key that does that is "case".
  if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    throw new UsageError(
      `${file}: "${CASES_KEY}" takes the cases' own settings by case id, not the cases to play; to choose cases, write "case": ${JSON.stringify(value).slice(0, 80)} (as --case does)`,
    );
  if (!isRecord(value)) throw wrong;
  return Object.entries(value).flatMap(([id, settings]) => {
    if (!isRecord(settings)) throw wrong;
    return Object.entries(settings).map(([name, setting]) => `${id}.${name}=${JSON.stringify(setting)}`);
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A key's value as its flag takes it, or a UsageError naming the file, the key and what it takes. */
function flagValue(name: OptionName, key: string, value: unknown, file: string): FlagValue {
  const spec = optionSpec(name);
  const wrong = (takes: string): UsageError =>
    new UsageError(`${file}: "${key}" takes ${takes} (as --${name} does); got ${JSON.stringify(value)}`);
  if (spec.type === 'boolean') {
    if (typeof value !== 'boolean') throw wrong('true or false');
    return value;
  }
  if (spec.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw wrong(`a number (${spec.placeholder}${spec.takes ? `, ${spec.takes}` : ''})`);
    return value;
  }
  if (spec.negatable && value === false) return false;
  const values = spec.list && Array.isArray(value) ? value : [value];
  if (!values.every((item): item is string => typeof item === 'string')) {
    throw wrong(spec.list ? 'a string or a list of strings' : spec.negatable ? 'a string, or false' : 'a string');
  }
  for (const item of values) {
    if (spec.choices && !spec.choices.includes(item)) {
      const closest = closestName(item, spec.choices);
      throw new UsageError(
        `${file}: "${key}": ${JSON.stringify(item)} is not one of ${spec.choices.join(', ')}${closest === undefined ? '' : `; did you mean ${closest}?`}`,
      );
    }
  }
  return spec.list ? values : values[0]!;
}

/** Reads a config file's parsed JSON against the option table. A UsageError (exit 2) for anything it cannot take. */
export function configValues(document: unknown, file: string): ConfigValues {
  if (!isRecord(document)) throw new UsageError(`${file} must hold one JSON object: { "url": "…", "channel": ["all"], … }`);
  const byKey = new Map(CONFIG_FLAGS.map((name) => [configKey(name), name] as const));
  const keys = ['url', ...byKey.keys(), CASES_KEY];
  const flags = new Map<OptionName, FlagValue>();
  const keysOf = new Map<OptionName, string>();
  let url: string | undefined;
  for (const [key, value] of Object.entries(document)) {
    if (key === '$schema') continue;
    if (key === 'url') {
      if (typeof value !== 'string' || value === '') throw new UsageError(`${file}: "url" takes the agent's URL as a string`);
      url = value;
      continue;
    }
    if (key === CASES_KEY) {
      const before = flags.get('case-setting');
      flags.set('case-setting', [...(Array.isArray(before) ? before : []), ...caseSettingFlags(value, file)]);
      keysOf.set('case-setting', key);
      continue;
    }
    const name = byKey.get(key);
    if (name !== undefined) {
      const before = flags.get(name);
      const taken = flagValue(name, key, value, file);
      // "cases" and "caseSetting" both set --case-setting: the two lists add up.
      flags.set(name, Array.isArray(before) && Array.isArray(taken) ? [...before, ...taken] : taken);
      keysOf.set(name, key);
      continue;
    }
    // A key that would hold a secret's value: there is none, and the message says where a secret goes instead.
    if (SECRET_NAME.test(key) && key !== 'tokenEnv') {
      throw new UsageError(
        `${file}: "${key}": a config file holds no secret; name the variable that holds it: "tokenEnv": "MY_TOKEN" for the bearer token, "headerEnv": ["x-api-key=MY_KEY"] for a header`,
      );
    }
    // `agent-timeout`, as the flag is written: the key is its camelCase form.
    const camel = argumentKey(key);
    const closest = byKey.has(camel) ? camel : closestName(key, keys);
    throw new UsageError(
      `${file}: unknown key "${key}"${closest === undefined ? '' : `; did you mean "${closest}"?`} The keys are the check's long flags in camelCase: ${keys.join(', ')}`,
    );
  }
  return { file, ...(url !== undefined ? { url } : {}), flags, keys: keysOf };
}
