/**
 * Reads a folder of scenario files (`tests/scenarios/*.yaml`) and checks each: the I/O edge of
 * scenario files. Only regular files, each up to 1 MiB, are read; a file that cannot be read is a
 * problem of that file, and none stops the others.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FileReadError, readBoundedText } from '../core/bounded-file.js';
import { parseScenarioFile } from './parse-scenario-file.js';
import { type CheckedScenario, DEFAULT_SCENARIO_FOLDER } from './scenario-file.js';
import { withDuplicateIds } from './scenario-set.js';

/** The largest scenario file read: far above any real one, and a bound on what a stray file costs. */
export const MAX_SCENARIO_FILE_BYTES = 1024 * 1024;

/** A folder's scenario files, checked; or why the folder could not be read. */
export interface ScenarioFolder {
  folder: string;
  checked: CheckedScenario[];
  /** Files beside them that are not read (`*.yml`: flow test reads `*.yaml`). */
  ignored: string[];
}

export class ScenarioFolderError extends Error {}

function problemFile(file: string, message: string, fix: string): CheckedScenario {
  return { file, scenario: undefined, problems: [{ file, pointer: '', line: 0, column: 0, message, fix }], unchecked: [] };
}

/** The file's text when it is a regular file of at most MAX_SCENARIO_FILE_BYTES (core/bounded-file.ts); else the problem, and its fix. */
function readBounded(path: string): string | { message: string; fix: string } {
  try {
    return readBoundedText(path, MAX_SCENARIO_FILE_BYTES);
  } catch (cause) {
    if (!(cause instanceof FileReadError)) throw cause;
    if (cause.code === 'EACCES' || cause.code === 'EPERM')
      return { message: 'expected a readable file; permission denied', fix: 'Make the file readable by this user.' };
    if (/^it is larger than/.test(cause.message)) {
      const size = statSync(path, { throwIfNoEntry: false })?.size;
      return {
        message: `expected a scenario file of at most 1 MiB; it has ${size === undefined ? 'more' : size.toLocaleString('en')} bytes`,
        fix: 'A scenario is a few dozen lines: is this the right file?',
      };
    }
    return { message: `expected a regular file of at most 1 MiB; ${cause.message}`, fix: 'Keep only scenario files in the folder.' };
  }
}

/** Every `*.yaml` file of the folder, in name order, checked; `channels` are the ones a scenario may name. */
export function readScenarioFolder(folder: string, channels: readonly string[]): ScenarioFolder {
  let names: string[];
  try {
    if (!statSync(folder).isDirectory())
      throw new ScenarioFolderError(`${folder} is not a folder: give the folder that holds the scenario files (*.yaml)`);
    names = readdirSync(folder).sort();
  } catch (cause) {
    if (cause instanceof ScenarioFolderError) throw cause;
    const code = (cause as NodeJS.ErrnoException).code;
    throw new ScenarioFolderError(
      code === 'ENOENT'
        ? `${folder} does not exist: give the folder that holds the scenario files (flow test reads ${DEFAULT_SCENARIO_FOLDER}/*.yaml)`
        : `${folder} could not be read (${code === 'EACCES' ? 'permission denied' : String(code)})`,
    );
  }
  const files = names.filter((name) => name.endsWith('.yaml'));
  const checked = files.map((name) => {
    const file = join(folder, name);
    const text = readBounded(file);
    if (typeof text !== 'string') return problemFile(file, text.message, text.fix);
    return parseScenarioFile(text, { file, expectedId: basename(name, '.yaml'), channels });
  });
  return {
    folder,
    checked: withDuplicateIds(checked),
    ignored: names.filter((name) => name.endsWith('.yml')).map((name) => join(folder, name)),
  };
}
