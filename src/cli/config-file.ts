/** Reading the config file from disk: the one I/O of the command line. What it may hold is config.ts's. */
import { resolve } from 'node:path';
import { JsonFileError, jsonFileMessage, parseJsonText, readBoundedText } from '../commands/read-json-file.js';
import { LAST_RUN_FILE, readLastRunSync } from '../commands/last-run-file.js';
import { assertRecordedFlags, recordedUrlRefusal } from '../commands/recorded-flags.js';
import { gitTracked } from '../commands/git-tracked.js';
import { assertRerunnable } from '../commands/rerun.js';
import { UsageError } from '../core/usage-error.js';
import { CONFIG_FILE, type ConfigValues, configValues } from './config.js';

/**
 * The config file's values: the file --config names (it must exist; an absolute path as it is, a
 * relative one from the current folder), or else check-endpoint.config.json in the current folder
 * if there is one; none with --no-config. Only a regular file of at most 1 MiB is read.
 */
export function readConfigFile(named: string | false | undefined, cwd = process.cwd()): ConfigValues | undefined {
  if (named === false) return undefined;
  const file = named ?? CONFIG_FILE;
  let document: unknown;
  try {
    document = parseJsonText(readBoundedText(resolve(cwd, file)));
  } catch (cause) {
    if (!(cause instanceof JsonFileError)) throw cause;
    if (named === undefined && cause.code === 'ENOENT') return undefined;
    throw new UsageError(jsonFileMessage(cause, file, 'the config file '));
  }
  return configValues(document, file);
}

/** The record's target when it is the whole URL: one with a query is recorded with its values redacted. */
function wholeUrl(target: string): string | undefined {
  try {
    return new URL(target).search === '' ? target : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What --failed takes from the last run's record (`.check-endpoint/last-run.json`): its URL, when
 * the record holds it whole, and the flags it ran with, read against the option table as a config
 * file's keys are. A UsageError when there is no record or it cannot be read. The command line's
 * parser then plays the URL only on this machine or as the config file's own (`recordedUrl`), and
 * takes no flag that chooses secrets from it (`withoutSecretChoices`, commands/recorded-flags.ts).
 */
export function readRecordedCheck(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): ConfigValues {
  const record = readLastRunSync(cwd);
  assertRerunnable(record);
  assertRecordedFlags(record.flags ?? {}, LAST_RUN_FILE);
  const url = wholeUrl(record.target);
  const values = configValues({ ...record.flags, ...(url !== undefined ? { url } : {}) }, LAST_RUN_FILE);
  // Asked of git only when --failed would take the URL (none given, not the config file's).
  return url === undefined ? values : { ...values, urlRefused: () => recordedUrlRefusal(url, gitTracked(cwd)(LAST_RUN_FILE), env) };
}
