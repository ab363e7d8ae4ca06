/**
 * A copy of this working tree as it stands (its tracked files and the new ones .gitignore does not
 * leave out), for the tests that pack or install the package the way a user does without touching
 * this clone's own dist/: what is tested is what would be pushed.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './helpers.js';

/** Copies the working tree's files into `into`. */
export function copyWorkingTree(into: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(join(ROOT, file), join(into, file));
  }
}

/** Makes `folder` a git repository of one commit holding everything in it. */
export function commitEverything(folder: string): void {
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=check-endpoint test', '-c', 'user.email=test@127.0.0.1', '-c', 'commit.gpgsign=false', ...args], {
      cwd: folder,
      stdio: 'ignore',
    });
  };
  git('init', '--quiet');
  git('add', '--all');
  git('commit', '--quiet', '--message', 'the working tree');
}
