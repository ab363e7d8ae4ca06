/**
 * Making a folder and the folders above it that are missing, one level at a time: Node's own
 * `mkdir(…, { recursive: true })` spins at full CPU, for ever and deaf to SIGTERM, on a path such
 * as /proc/1/x, where every mkdir says ENOENT though the folder above exists. Here such a path is an
 * error that says so.
 */
import { promises as fs } from 'node:fs';
import { dirname, resolve } from 'node:path';

function codeOf(cause: unknown): string | undefined {
  return (cause as NodeJS.ErrnoException).code;
}

/** Makes `folder` and every missing folder above it; throws the system's error, or one that names the level it cannot make. */
export async function makeFolder(folder: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(folder); ; at = dirname(at)) {
    let isFolder: boolean;
    try {
      isFolder = (await fs.stat(at)).isDirectory();
    } catch (cause) {
      if (codeOf(cause) !== 'ENOENT' || dirname(at) === at) throw cause;
      missing.unshift(at);
      continue;
    }
    // The nearest that exists: a file there is refused as Node's own mkdir refuses it (EEXIST).
    if (!isFolder) await fs.mkdir(at);
    break;
  }
  for (const level of missing) {
    try {
      await fs.mkdir(level);
    } catch (cause) {
      if (codeOf(cause) === 'EEXIST') continue;
      if (codeOf(cause) === 'ENOENT')
        throw new Error(`the folder ${level} cannot be made: ${dirname(level)} takes no new folders (the system says ENOENT)`);
      throw cause;
    }
  }
}
