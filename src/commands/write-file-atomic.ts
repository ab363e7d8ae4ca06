/**
 * A file written whole or not at all: the content goes to a temporary file in the target's own
 * folder, is flushed to disk, and reaches the target's name by one rename, which replaces the old
 * file in a single step. A kill at any moment leaves the old file or the new one at the name, never
 * part of one (at worst a stray `.NAME.PID.HEX.tmp` beside it, which the next write in that folder
 * removes once its writer is dead). A file replaced keeps its mode. Every report file, the baseline
 * and the last run's record are written so.
 */
import { promises as fs } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Twelve random hex digits. */
function randomHex12(): string {
  return Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(12, '0');
}

/** A temporary file of writeFileAtomic: `.NAME.PID.HEX.tmp`, HEX 12 hex digits. */
const TEMPORARY = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/** Whether a process of this id is alive: one that exists but is another user's is (EPERM). */
function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files a killed writer left in `folder`: those named as writeFileAtomic
 * names them whose process is no longer alive. One of a live writer (this process, another run at
 * work) is kept. A folder that cannot be read, or a file already gone, is no error: this is tidying.
 */
export async function removeStaleTemporaries(folder: string): Promise<string[]> {
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  const stale = names.filter((name) => {
    const pid = TEMPORARY.exec(name)?.[1];
    return pid !== undefined && Number.isSafeInteger(Number(pid)) && Number(pid) > 0 && !isAlive(Number(pid));
  });
  const removed: string[] = [];
  for (const name of stale) {
    const file = join(folder, name);
    // Only a regular file: a folder or link named so is not one of ours.
    const stats = await fs.lstat(file).catch(() => undefined);
    if (!stats?.isFile()) continue;
    await fs.rm(file, { force: true }).then(
      () => removed.push(file),
      () => undefined,
    );
  }
  return removed;
}

/** The permission bits of the regular file at `file`, or undefined when there is none (a link is replaced, not followed). */
async function modeOf(file: string): Promise<number | undefined> {
  const stats = await fs.lstat(file).catch(() => undefined);
  return stats?.isFile() ? stats.mode & 0o7777 : undefined;
}

/**
 * Writes `content` to `file` atomically; the folder must exist. The old file, if any, is replaced,
 * its mode kept. Stale temporary files of killed writers in the folder are removed first.
 */
export async function writeFileAtomic(file: string, content: string | Uint8Array): Promise<void> {
  const target = resolve(file);
  await removeStaleTemporaries(dirname(target));
  // Same folder, so the rename never crosses file systems; the pid and a random part, so two writers
  // never share it ('wx' below refuses one that exists). Math.random, not node:crypto, whose loading
  // would cost every run's exit more than the write: the name needs no secrecy.
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomHex12()}.tmp`);
  try {
    const mode = await modeOf(target);
    const handle = await fs.open(temporary, 'wx');
    try {
      if (mode !== undefined) await handle.chmod(mode);
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
