/**
 * What the last run's record keeps of the flags (`flags` in .check-endpoint/last-run.json), for
 * --failed to play again with them.
 */
import { SETTING_OPTIONS } from '../cases/registry.js';
import { argumentKey } from '../core/argument-key.js';
import type { LastRun } from '../report/last-run.js';
import { DESCRIBED } from '../run/option-descriptors.js';

/**
 * The flags that decided what a run sent and how it judged it, which --failed plays with again:
 * each option the table marks `recorded` or `reproduce`, by its flag, and the cases' settings' own
 * flags. Not where it wrote or printed, nor how it started the agent (a --start command may hold a
 * secret the shell expanded), nor which cases (the record's own). Secrets are only ever named by
 * their variables in flags, so none is here.
 */
const RECORDED_FLAGS: readonly string[] = [
  ...DESCRIBED.flatMap((descriptor) =>
    descriptor.flag !== undefined && (descriptor.recorded || descriptor.reproduce) ? [argumentKey(descriptor.flag.name)] : [],
  ),
  ...SETTING_OPTIONS.flatMap((setting) => (setting.flag === undefined ? [] : [argumentKey(setting.flag)])),
];

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
