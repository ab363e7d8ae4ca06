/**
 * What the last run's record keeps of the flags (`flags` in .check-endpoint/last-run.json), for
 * --failed to play again with them.
 */
import { SETTING_OPTIONS } from '../cases/registry.js';
import { argumentKey } from '../core/argument-key.js';
import type { LastRun } from '../report/last-run.js';

/**
 * The flags that decided what a run sent and how it judged it, which --failed plays with again:
 * not where it wrote or printed, nor how it started the agent (a --start command may hold a
 * secret the shell expanded), nor which cases (the record's own). Secrets are only ever named by
 * their variables in flags, so none is here.
 */
const RECORDED_FLAGS = [
  'spec',
  'limits',
  'strict',
  'insecure',
  'quality',
  'extended',
  'tokenEnv',
  'header',
  'headerEnv',
  'dotenv',
  'agentTimeout',
  'maxBody',
  'concurrency',
  'baseline',
  'caseSetting',
  'skipCase',
  'scenarios',
  'only',
  ...SETTING_OPTIONS.flatMap((setting) => (setting.flag === undefined ? [] : [argumentKey(setting.flag)])),
] as const;

/** The run's RECORDED_FLAGS that are set, as a config file's keys (the arguments' keys are the same). */
export function recordedFlags(args: object): NonNullable<LastRun['flags']> {
  const given = new Map<string, unknown>(Object.entries(args));
  return Object.fromEntries(
    RECORDED_FLAGS.flatMap((key) => {
      const value = given.get(key);
      const isFlagValue =
        typeof value === 'string' ||
        typeof value === 'number' ||
        typeof value === 'boolean' ||
        (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string'));
      return isFlagValue ? [[key, value] as const] : [];
    }),
  );
}
