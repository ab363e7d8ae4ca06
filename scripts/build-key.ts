/**
 * The build's key: a digest of everything dist/ is made from (src/, spec/, bin/, the build's own
 * scripts, package.json and the locked dependencies, the TypeScript settings), of the Node that
 * builds it (the code cache is its V8's) and of NO_MINIFY. The build writes it into dist/ last, so
 * a build that did not finish leaves none; a build whose key is dist/'s, with every output there,
 * skips the bundle, the code cache and the declarations. npm's install from git runs `prepare` twice
 * in one clone (its `npm install` there, then its pack), and `npm test` after `npm start` builds the
 * same sources again: each time 15 s of CPU for the same bytes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The file the key is kept in (left out of the package by package.json's `files`). */
export const BUILD_KEY_FILE = 'dist/build-key.txt';

/** What a finished build leaves: without any of them, the build runs whatever the key says. */
const OUTPUTS = ['dist/cli.cjs', 'dist/cli.cache', 'dist/index.js', 'dist/report.js', 'dist/types/index.d.ts'];

const INPUT_FOLDERS = ['src', 'spec', 'bin', 'scripts'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

/** The key of a build of `root` now, by this Node: each input's path and bytes, in a fixed order. */
export function buildKey(root: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const hash = createHash('sha256');
  hash.update(`${process.version} ${process.arch} NO_MINIFY=${env.NO_MINIFY === '1' ? '1' : ''}\n`);
  const inputs = [
    ...INPUT_FOLDERS.flatMap((folder) => filesUnder(join(root, folder))),
    ...INPUT_FILES.map((file) => join(root, file)).filter((file) => existsSync(file)),
  ].sort();
  for (const file of inputs) {
    const bytes = readFileSync(file);
    hash.update(`${relative(root, file)} ${bytes.length}\n`).update(bytes);
  }
  return hash.digest('hex');
}

/** Whether dist/ is a finished build with this key. */
export function builtWithKey(root: string, key: string): boolean {
  if (!OUTPUTS.every((output) => existsSync(join(root, output)))) return false;
  try {
    return readFileSync(join(root, BUILD_KEY_FILE), 'utf8').trim() === key;
  } catch {
    return false;
  }
}

export function writeBuildKey(root: string, key: string): void {
  writeFileSync(join(root, BUILD_KEY_FILE), `${key}\n`);
}
