import { statSync } from 'node:fs';

/** Whether the path names a folder (false when nothing is there, or it cannot be looked at). */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
