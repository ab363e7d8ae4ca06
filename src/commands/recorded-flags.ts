/**
 * What the last run's record keeps of the flags (`flags` in .check-endpoint/last-run.json), for
 * --failed to play again with them.
 */
import { SETTING_OPTIONS } from '../cases/registry.js';
import { argumentKey } from '../core/argument-key.js';
import { printable } from '../core/unsafe-text.js';
import { UsageError } from '../core/usage-error.js';
import { shellQuote } from '../run/reproduce.js';
import type { LastRun } from '../report/last-run.js';
import { DESCRIBED } from '../run/option-descriptors.js';
import { proxyFor } from '../http/proxy.js';
import { isLoopback } from '../core/loopback.js';

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

/**
 * The recorded flags that choose which secrets a run sends, or who may read them on the way: the
 * token's variable, the --header-env variables, the .env file they are read from, and --insecure
 * (no certificate check: anyone between may read the token). A record names them for `show`, but
 * --failed never takes one from it: a repository may carry a record naming `AWS_SECRET_ACCESS_KEY`.
 */
export const SECRET_CHOOSING: readonly string[] = ['token-env', 'header-env', 'dotenv', 'insecure'];

/** The value a flag takes when neither the command line nor the config file gives it: its descriptor's default, or off. */
function defaultOf(flag: string): unknown {
  const descriptor = DESCRIBED.find((candidate) => candidate.flag?.name === flag);
  return descriptor?.default ?? (descriptor?.flag?.type === 'boolean' ? false : undefined);
}

/** A recorded value as the flags that give it again: `--token-env MY_TOKEN`, `--header-env a=B --header-env c=D`, `--insecure`. */
function asFlags(flag: string, value: unknown): string {
  if (value === true) return `--${flag}`;
  if (value === false) return `--no-${flag}`;
  const values = Array.isArray(value) ? value : [value];
  return values.map((item) => `--${flag} ${shellQuote(printable(String(item)))}`).join(' ');
}

/**
 * The record's flags (by flag name) without those that choose secrets (SECRET_CHOOSING). A
 * UsageError when the record holds one with a value other than the one this run takes anyway
 * (`chosen`: from the command line or the config file; else the default): the run would send
 * other secrets than the last one did, or the record's, so it stops and names the flags to give.
 */
export function withoutSecretChoices<V>(recorded: ReadonlyMap<string, V>, chosen: (flag: string) => unknown, file: string): Map<string, V> {
  const differing = SECRET_CHOOSING.filter(
    (flag) => recorded.has(flag) && JSON.stringify(recorded.get(flag)) !== JSON.stringify(chosen(flag) ?? defaultOf(flag)),
  );
  if (differing.length > 0) {
    const flags = differing.map((flag) => asFlags(flag, recorded.get(flag))).join(' ');
    throw new UsageError(
      `--failed: ${file} says the last run ran with ${flags}, which choose the secrets a run sends; a record is data a repository may carry, ` +
        `so --failed never takes them from it: give ${differing.length === 1 ? 'it' : 'them'} again on the command line (\`check-endpoint --failed ${flags}\`) ` +
        `or in the config file, or run the check without --failed`,
    );
  }
  return new Map([...recorded].filter(([flag]) => !SECRET_CHOOSING.includes(flag)));
}

/** This machine's own names for itself: a request to one never leaves it. */
function isThisMachine(url: string): boolean {
  try {
    return isLoopback(new URL(url));
  } catch {
    return false;
  }
}

/**
 * Why --failed must not take a record's URL even on this machine, or undefined: git tracks the
 * record (it came with the repository: a run writes it into a folder git ignores), or a proxy the
 * environment names would carry the request, and the token, off this machine (NO_PROXY does not
 * list the host).
 */
export function recordedUrlRefusal(url: string, tracked: boolean, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (tracked) return 'git tracks it, so it came with the repository, not from a run on this machine';
  const proxy = isThisMachine(url) ? proxyFor(new URL(url), env) : undefined;
  return proxy
    ? `a request to it goes through the proxy ${proxy.variable} names (NO_PROXY does not list its host), off this machine`
    : undefined;
}

/**
 * The URL --failed with no URL given plays against: the record's, only when it is on this machine
 * (localhost, 127.x.x.x, ::1) or the config file's own URL; the token goes where the record's URL
 * points, and a record is data a repository may carry. Any other is refused, naming the URL and
 * how to give it; so is one `refusal` says why not (recordedUrlRefusal, asked only here).
 */
export function recordedUrl(url: string, configUrl: string | undefined, file: string, refusal?: () => string | undefined): string {
  if (url === configUrl) return url;
  const refused = refusal?.();
  if (refused !== undefined) {
    throw new UsageError(
      `--failed: ${file} says the last run checked ${printable(url)}, but ${refused}; it never chooses where the token is sent: ` +
        `to play its failed cases there, give the URL (\`check-endpoint ${shellQuote(printable(url))} --failed\`)`,
    );
  }
  if (isThisMachine(url)) return url;
  throw new UsageError(
    `--failed: ${file} says the last run checked ${printable(url)}, which is not on this machine (localhost, 127.0.0.1, ::1) nor the config file's URL; ` +
      `a record is data a repository may carry, so it never chooses where the token is sent: to play its failed cases there, give the URL ` +
      `(\`check-endpoint ${shellQuote(printable(url))} --failed\`)`,
  );
}
