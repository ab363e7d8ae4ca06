/**
 * A `.env` file, read with Node's own parser (util.parseEnv), and refused when it does not parse:
 * Node's parser skips what it cannot read, or runs a line into the next key, without a word. The
 * file's values are secrets: no message repeats one, or any line of the file.
 */
import { parseEnv } from 'node:util';
import { FileReadError, readBoundedText } from '../core/bounded-file.js';
import { OptionError } from '../core/option-error.js';
import { UsageError } from '../core/usage-error.js';

/** The largest .env read: a few dozen lines are a few KB, but one may hold a large secret (a 10 MB header); /dev/zero is not read on for ever. */
const MAX_DOTENV_BYTES = 32 * 1024 * 1024;

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=/;

/** The variables a .env text sets; throws UsageError naming the file and line of anything that does not parse. */
export function parseDotenv(text: string, file: string): Record<string, string> {
  const content = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (content.includes('\0')) throw new UsageError(`${file} does not parse as a .env file: it holds a NUL byte (is it a binary file?)`);
  const parsed = parseEnv(content);
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    if (!NAME.test(name)) {
      const line = content.slice(0, content.indexOf(name.split('\n')[0]!)).split('\n').length;
      throw new UsageError(`${file} does not parse as a .env file: line ${line} is not NAME=value`);
    }
    values[name] = value;
  }
  // Every line is blank, a comment, an assignment Node's parser took, or inside a quoted value that
  // spans lines (the lines after its assignment).
  const lines = content.split(/\r?\n/);
  const names = lines.map((line) => ASSIGNMENT.exec(line)?.[1]);
  const insideValue = new Set<number>();
  names.forEach((name, index) => {
    const spanned = name !== undefined && Object.hasOwn(values, name) ? values[name]!.split('\n').length - 1 : 0;
    for (let next = 1; next <= spanned; next++) insideValue.add(index + next);
  });
  for (const [index, line] of lines.entries()) {
    if (/^\s*(#|$)/.test(line) || insideValue.has(index)) continue;
    const name = names[index];
    if (name !== undefined && Object.hasOwn(values, name)) continue;
    throw new UsageError(`${file} does not parse as a .env file: line ${index + 1} is not NAME=value`);
  }
  return values;
}

/** Reads and parses a .env file; throws an OptionError naming the file when it cannot be read or does not parse. */
export function readDotenv(file: string): Record<string, string> {
  let text: string;
  try {
    text = readBoundedText(file, MAX_DOTENV_BYTES);
  } catch (cause) {
    if (!(cause instanceof FileReadError)) throw cause;
    throw new OptionError('dotenv', (on) =>
      cause.code === 'ENOENT'
        ? `${on.name('dotenv')} ${file}: no such file`
        : `${on.name('dotenv')} ${file}: cannot be read: ${cause.message}`,
    );
  }
  return parseDotenv(text, file);
}
