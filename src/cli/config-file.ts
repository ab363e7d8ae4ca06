/** Reading the config file from disk: the one I/O of the command line. What it may hold is config.ts's. */
import { resolve } from 'node:path';
import { JsonFileError, jsonFileMessage, parseJsonText, readBoundedText } from '../commands/read-json-file.js';
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
