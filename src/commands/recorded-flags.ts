/**
 * What the last run's record keeps of the flags (`flags` in .check-endpoint/last-run.json), for
 * --failed to play again with them.
 */
import { SETTING_OPTIONS } from '../cases/registry.js';
import { argumentKey } from '../core/argument-key.js';
import { UsageError } from '../core/usage-error.js';
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

/**
 * Refuses a record whose flags hold one a record does not keep: a record is data a repository may
 * carry, so it never starts a command (`start`), names where to write (`reportDir`) or anything
 * else --failed would obey. Those come from the command line or the config file only.
 */
export function assertRecordedFlags(flags: object, file: string): void {
  for (const key of Object.keys(flags)) {
    if (RECORDED_FLAGS.includes(key)) continue;
    const flag = /^[A-Za-z]{1,40}$/.test(key) ? `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}` : 'the flag';
    throw new UsageError(
      `${file}: ${JSON.stringify(key)} is not a flag a run's record keeps (it keeps ${RECORDED_FLAGS.join(', ')}); a record never starts a command or names where to write: ` +
        `give ${flag} on the command line or in the config file, and run the check again to record a run anew`,
    );
  }
}
