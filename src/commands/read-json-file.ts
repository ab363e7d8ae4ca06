/**
 * Reading the command's own JSON files (the config file, the last run's record) with bounds: only a
 * regular file (not a FIFO that never ends, a device such as /dev/zero, or a folder), at most
 * 1 MiB of it, a UTF-8 byte order mark skipped, nested at most 64 levels. Anything else is a
 * sentence saying what the file is and what is read, never a hang, a GB of memory or a stack overflow.
 */
import { FileReadError, readBoundedText as readBoundedFileText } from '../core/bounded-file.js';
import { nestingDepth } from '../core/nesting-depth.js';

/** The largest file read: a config or a record of every case on every channel is a few KB. */
export const MAX_JSON_FILE_BYTES = 1024 * 1024;
/** The deepest nesting read: a config nests 2 levels, a record 6. */
export const MAX_JSON_FILE_DEPTH = 64;

/**
 * Why a file could not be read or taken, in words. `stage` says which: `read` (the message follows
 * "cannot read FILE: "), or `content` (the message follows the file's name: "is not JSON: …").
 * `code` is the system's (ENOENT, EACCES), when it gave one.
 */
export class JsonFileError extends Error {
  constructor(
    message: string,
    readonly stage: 'read' | 'content',
    readonly code?: string,
  ) {
    super(message);
    this.name = 'JsonFileError';
  }
}

/** The text of a regular file of at most `MAX_JSON_FILE_BYTES` (core/bounded-file.ts), its failure a JsonFileError at stage `read`. */
export function readBoundedText(file: string): string {
  try {
    return readBoundedFileText(file, MAX_JSON_FILE_BYTES);
  } catch (cause) {
    if (cause instanceof FileReadError) throw new JsonFileError(cause.message, 'read', cause.code);
    throw cause;
  }
}

/** The message for a JsonFileError about `file`: "cannot read FILE: it does not exist", "FILE is not JSON: …". */
export function jsonFileMessage(error: JsonFileError, file: string, what = ''): string {
  return error.stage === 'read' ? `cannot read ${what}${file}: ${error.message}` : `${file} ${error.message}`;
}

/** Parses a JSON file's text: a UTF-8 byte order mark is skipped, nesting past `MAX_JSON_FILE_DEPTH` refused. */
export function parseJsonText(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (cause) {
    throw new JsonFileError(`is not JSON: ${(cause as Error).message}`, 'content');
  }
  if (nestingDepth(value, MAX_JSON_FILE_DEPTH) > MAX_JSON_FILE_DEPTH)
    throw new JsonFileError(`nests deeper than ${MAX_JSON_FILE_DEPTH} levels, which no such file does`, 'content');
  return value;
}
