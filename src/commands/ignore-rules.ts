/**
 * What the developer says --watch should leave out: the agent's .gitignore files (what git leaves
 * out is never an edit of the agent: the conversations an agent logs, its uploads, its build) and
 * the --watch-ignore patterns. Both are gitignore patterns, matched by the `ignore` package (the
 * matcher of ESLint and Prettier), which follows git's rules: `!` negation, a leading `/` anchoring
 * to the file's folder, a trailing `/` for folders only, `**`.
 *
 * As git reads them: the .gitignore of each folder from the repository's top (the folder that
 * holds .git, else the watched folder) down to the path's own, a deeper one overriding, and
 * .git/info/exclude at the top; the --watch-ignore patterns last, relative to the watched folder.
 * A folder's .gitignore is read once, and again after it changes (forget).
 */
import { existsSync } from 'node:fs';
import { readBoundedText } from '../core/bounded-file.js';
import { dirname, join, relative, sep } from 'node:path';
import type { Ignore, Options } from 'ignore';
import { isFolder as isFolderPath } from '../core/is-folder.js';

/** The `ignore` package's factory (loaded by --watch only, so it is passed in). */
export type IgnoreFactory = (options?: Options) => Ignore;

export interface IgnoreRules {
  /** Whether the path (absolute, under the watched folder) is left out; `isFolder` undefined: looked up. */
  ignores(path: string, isFolder?: boolean): boolean;
  /** What leaves the path out, for a message: the .gitignore file (`/repo/.gitignore`) or `--watch-ignore`; undefined when nothing does. */
  ignoredBy(path: string, isFolder?: boolean): string | undefined;
  /** A folder's .gitignore changed: read it again when next needed. */
  forget(folder: string): void;
}

/** The repository's top: the nearest folder from `folder` up that holds .git, or undefined outside a repository. */
function repositoryTop(folder: string): string | undefined {
  for (let at = folder; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** A .gitignore's text: a regular file of at most 1 MiB, as every file is read; none when it is not one (git skips it too). */
function readText(file: string): string {
  try {
    return readBoundedText(file, 1024 * 1024);
  } catch {
    return '';
  }
}

/** The folders from `top` down to `folder`, `top` first. */
function foldersDown(top: string, folder: string): string[] {
  const folders = [folder];
  for (let at = folder; at !== top && dirname(at) !== at;) {
    at = dirname(at);
    folders.unshift(at);
  }
  return folders;
}

/** The rules for `root` (the watched folder, absolute) and the --watch-ignore patterns given. */
export function ignoreRules(makeIgnore: IgnoreFactory, root: string, patterns: readonly string[]): IgnoreRules {
  const top = repositoryTop(root) ?? root;
  const given = makeIgnore().add([...patterns]);
  /** Each folder's rules, null where it has no .gitignore. */
  const byFolder = new Map<string, Ignore | null>();

  const rulesOf = (folder: string): Ignore | null => {
    let rules = byFolder.get(folder);
    if (rules === undefined) {
      const text = readText(join(folder, '.gitignore')) + (folder === top ? '\n' + readText(join(top, '.git', 'info', 'exclude')) : '');
      rules = text.trim() === '' ? null : makeIgnore().add(text);
      byFolder.set(folder, rules);
    }
    return rules;
  };

  /** A path relative to a folder, as the `ignore` package takes it: forward slashes, a trailing one for a folder. */
  const relativeTo = (folder: string, path: string, isFolder: boolean): string =>
    relative(folder, path).split(sep).join('/') + (isFolder ? '/' : '');

  const ignoredBy = (path: string, isFolder = isFolderPath(path)): string | undefined => {
    if (path === root || !path.startsWith(root + sep)) return undefined;
    // The .gitignore nearest the path has the last word, as in git; the --watch-ignore patterns come after them all.
    const sources = foldersDown(top, dirname(path)).map((folder) => ({ folder, rules: rulesOf(folder), name: join(folder, '.gitignore') }));
    let by: string | undefined;
    for (const { folder, rules, name } of [...sources, { folder: root, rules: given, name: '--watch-ignore' }]) {
      const verdict = rules?.test(relativeTo(folder, path, isFolder));
      if (verdict?.ignored) by = name;
      else if (verdict?.unignored) by = undefined;
    }
    return by;
  };

  return {
    ignores: (path, isFolder) => ignoredBy(path, isFolder) !== undefined,
    ignoredBy,
    forget(folder) {
      byFolder.delete(folder);
    },
  };
}
