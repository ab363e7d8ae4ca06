/**
 * A file written whole or not at all: the content goes to a temporary file in the target's own
 * folder, is flushed to disk, and reaches the target's name by one rename, which replaces the old
 * file in a single step. A kill at any moment leaves the old file or the new one at the name, never
 * part of one (at worst a stray `.NAME.*.tmp` beside it). Every report file, the baseline and the
 * last run's record are written so.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Writes `content` to `file` atomically; the folder must exist. The old file, if any, is replaced. */
export async function writeFileAtomic(file: string, content: string | Uint8Array): Promise<void> {
  const target = resolve(file);
  // Same folder, so the rename never crosses file systems; a random part, so two writers never share it.
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(temporary, 'wx');
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, target);
  } catch (cause) {
    await fs.rm(temporary, { force: true });
    throw cause;
  }
}
