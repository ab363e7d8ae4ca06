/**
 * Reading a file with bounds: only a regular file (not a FIFO that never ends, a device such as
 * /dev/zero, a socket or a folder), and at most a stated size of it. Anything else is a
 * FileReadError saying what the file is, never a hang or a gigabyte of memory. Every file the tool
 * reads goes through here: the config file, the record, scenario files, `.env`, `--spec` and the
 * files its `$ref`s name, `--limits`, `--baseline`, `validate FILE`, `.gitignore`.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Why a file could not be read, in words that follow "cannot read FILE: " (`it is a device; give
 * a regular file`). `code` is the system's (ENOENT, EACCES), when it gave one.
 */
export class FileReadError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'FileReadError';
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

/** A size in words: `1 MiB`, `16 MiB`, `512 KiB`, `100 bytes`. */
export function sizeInWords(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function systemError(cause: unknown): FileReadError {
  const error = cause as NodeJS.ErrnoException;
  return new FileReadError(readReason(error), error.code);
}

/**
 * The bytes of a regular file of at most `maxBytes`. Opened without blocking (a FIFO with no writer
 * would hold the open), then read only if it is a regular file, never past the bound (a file that
 * grows while read is refused as too large). Throws a FileReadError.
 */
export function readBoundedBytes(file: string, maxBytes: number): Buffer {
  let descriptor: number;
  try {
    // O_NONBLOCK is not on every platform (Windows has no FIFOs to wait on).
    descriptor = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (cause) {
    throw systemError(cause);
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) throw new FileReadError(`it is ${kindOf(stats.mode)}; give a regular file`);
    const tooLarge = () =>
      new FileReadError(`it is larger than ${maxBytes} bytes (${sizeInWords(maxBytes)}), the most read of such a file`);
    if (stats.size > maxBytes) throw tooLarge();
    // Room for one byte more than its size says: a file that grows while read is read on, up to the bound.
    let buffer = Buffer.alloc(stats.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) throw tooLarge();
        const grown = Buffer.alloc(Math.min(length * 2, maxBytes + 1));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const read = readSync(descriptor, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return buffer.subarray(0, length);
  } catch (cause) {
    if (cause instanceof FileReadError) throw cause;
    throw systemError(cause);
  } finally {
    closeSync(descriptor);
  }
}

/** The text (UTF-8) of a regular file of at most `maxBytes`; a byte order mark at its start is left out. Throws a FileReadError. */
export function readBoundedText(file: string, maxBytes: number): string {
  return readBoundedBytes(file, maxBytes)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}
