/**
 * Reading the command's own JSON files (the config file, the last run's record) with bounds: only a
 * regular file (not a FIFO that never ends, a device such as /dev/zero, or a folder), at most
 * 1 MiB of it, a UTF-8 byte order mark skipped, nested at most 64 levels. Anything else is a
 * sentence saying what the file is and what is read, never a hang, a GB of memory or a stack overflow.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
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

/** What a file that is not a regular one is, for a message. */
function kindOf(mode: number): string {
  const type = mode & constants.S_IFMT;
  if (type === constants.S_IFDIR) return 'a folder';
  if (type === constants.S_IFIFO) return 'a named pipe (FIFO)';
  if (type === constants.S_IFCHR || type === constants.S_IFBLK) return 'a device';
  if (type === constants.S_IFSOCK) return 'a socket';
  return 'not a regular file';
}

/** The reason in words for a system error reading a file. */
function readReason(cause: NodeJS.ErrnoException): string {
  switch (cause.code) {
    case 'ENOENT':
      return 'it does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'a part of its path is a file, not a folder';
    case 'ELOOP':
      return 'too many symbolic links';
    default:
      return cause.message;
  }
}

/**
 * The text of a regular file of at most `MAX_JSON_FILE_BYTES`. Opened without blocking (a FIFO
 * with no writer would hold the open), then read only if it is a regular file, never past the bound.
 */
export function readBoundedText(file: string): string {
  let descriptor: number;
  try {
    // O_NONBLOCK is not on every platform (Windows has no FIFOs to wait on).
    descriptor = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (cause) {
    const error = cause as NodeJS.ErrnoException;
    throw new JsonFileError(readReason(error), 'read', error.code);
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) throw new JsonFileError(`it is ${kindOf(stats.mode)}; give a regular file`, 'read');
    const buffer = Buffer.alloc(MAX_JSON_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(descriptor, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_JSON_FILE_BYTES)
        throw new JsonFileError(`it is larger than ${MAX_JSON_FILE_BYTES} bytes (1 MiB), the most read of such a file`, 'read');
    }
    return buffer.toString('utf8', 0, length);
  } catch (cause) {
    if (cause instanceof JsonFileError) throw cause;
    const error = cause as NodeJS.ErrnoException;
    throw new JsonFileError(readReason(error), 'read', error.code);
  } finally {
    closeSync(descriptor);
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
