/**
 * A file written whole or not at all: the content goes to a temporary file in the same folder,
 * which then takes the file's name by a rename (atomic on one file system), so a kill at any
 * moment leaves the old file or the new one, never part of one.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export async function writeFileAtomically(file: string, content: string): Promise<void> {
  const folder = dirname(resolve(file));
  await fs.mkdir(folder, { recursive: true });
  const temporary = join(folder, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(temporary, 'w');
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, file);
  } catch (cause) {
    await fs.rm(temporary, { force: true });
    throw cause;
  }
}
