/** Reading the config file from disk: the one I/O of the command line. What it may hold is config.ts's. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/usage-error.js';
import { CONFIG_FILE, type ConfigValues, configValues } from './config.js';

/**
 * The config file's values: the file --config names (it must exist), or else
 * check-endpoint.config.json in the current folder if there is one; none with --no-config.
 */
export function readConfigFile(named: string | false | undefined, cwd = process.cwd()): ConfigValues | undefined {
  if (named === false) return undefined;
  const file = named ?? CONFIG_FILE;
  let text: string;
  try {
    text = readFileSync(join(cwd, file), 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (named === undefined && code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read the config file ${file}: ${code ?? String(cause)}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (cause) {
    throw new UsageError(`${file} is not JSON: ${(cause as Error).message}`);
  }
  return configValues(document, file);
}
