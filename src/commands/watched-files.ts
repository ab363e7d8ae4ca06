/**
 * The files --watch watches: every file under the agent's folder but what an edit of the agent
 * never touches and what the check writes itself. chokidar watches them (it is loaded only by
 * --watch): it prunes a left-out folder before it walks into it, where `fs.watch(folder, {
 * recursive: true })` takes no filter and, on Linux, walks and watches every file of node_modules
 * and .git too (docs/development.md#dependencies has the figures). What the agent's .gitignore
 * files and --watch-ignore leave out is left out too (src/commands/ignore-rules.ts). A burst of
 * changes (an editor writes a file, its backup and its swap file at once) ends in one call, once
 * the folder is quiet.
 */
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { type IgnoreRules, ignoreRules } from './ignore-rules.js';
import { STATE_FOLDER } from './last-run-file.js';

/** Folders no agent's edit is in, wherever they are: version control, dependencies, caches, the check's own record. */
const LEFT_OUT_FOLDERS = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.nox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.gradle',
  STATE_FOLDER,
]);

/**
 * Folders left out at the top of the watched folder only: what a build writes there (air's tmp/
 * with its rebuilt binary, Cargo's and Maven's target/, dist/, build/, coverage/) and Go's and
 * Composer's vendor/; a rebuild that wrote there would start a second run. Deeper down, a folder of
 * these names may hold source (src/build/), and is watched.
 */
const LEFT_OUT_AT_THE_TOP = new Set(['tmp', 'target', 'dist', 'build', 'coverage', 'vendor']);

/**
 * Files no edit of the agent is: those editors write beside the one saved (vim's swap files and its
 * 4913 probe, backups `file~`, Emacs' lock files `.#file`), and those an agent writes as it runs
 * (logs, pid files, SQLite databases and their journals, Django's db.sqlite3 among them), and the
 * temporary files the check's own reports are written through (`.NAME.PID.HEX.tmp`): a run that
 * wrote one would start the next.
 */
const NOT_AN_EDIT =
  /^(?:\..+\.\d+\.[0-9a-f]+\.tmp|.*\.sw[a-p]|.*~|\.#.*|4913|.*\.log|.*\.pid|.*\.(?:db|sqlite|sqlite3)(?:-journal|-wal|-shm)?)$/;

/** How long the folder must be quiet after a change before the run: an editor's save is one burst. */
export const QUIET_MS = 200;

/** Whether --watch, watching `root`, leaves this path out: a left-out folder, a virtual environment (it holds pyvenv.cfg), a file no edit is, or a report the check writes. */
export function leftOut(path: string, root: string, outputs: readonly string[]): boolean {
  const name = basename(path);
  if (LEFT_OUT_FOLDERS.has(name) || NOT_AN_EDIT.test(name)) return true;
  if (LEFT_OUT_AT_THE_TOP.has(name) && dirname(path) === root) return true;
  if (outputs.some((output) => path === output || path.startsWith(output + sep))) return true;
  // A virtual environment under another name (`env`, `.env-3.12`): Python's venv writes pyvenv.cfg at its top.
  return existsSync(join(path, 'pyvenv.cfg'));
}

/**
 * Links to a folder already watched: the watched folder itself or one in it (`ln -s . a`), or a
 * folder outside that another link already brought in. Followed, each would be walked again and
 * again (a/a/a/…, a/b/a/b/…) until memory ran out; they are left out, and `notFollowed` names them.
 */
export function linkedFolders(root: string): { loopsBack(path: string): boolean; notFollowed(): string[] } {
  const realRoot = realpathSync(root);
  const followed = new Map<string, string>();
  const notFollowed = new Set<string>();
  return {
    loopsBack(path) {
      let target: string;
      try {
        if (!lstatSync(path).isSymbolicLink()) return false;
        target = realpathSync(path);
        if (!statSync(target).isDirectory()) return false;
      } catch {
        return false; // a dangling link, or one gone since: nothing to walk
      }
      const inside = target === realRoot || target.startsWith(realRoot + sep);
      const first = followed.get(target);
      if (!inside && (first === undefined || first === path)) {
        followed.set(target, path);
        return false;
      }
      notFollowed.add(relative(root, path));
      return true;
    },
    notFollowed: () => [...notFollowed].sort(),
  };
}

/**
 * The note when the rules leave out every file of the watched folder (a parent repository's
 * .gitignore of `*`): no save would ever start a run, which the loop would not otherwise show.
 */
function leftOutEverything(root: string, builtIn: (path: string) => boolean, rules: IgnoreRules): string | undefined {
  const entries = readdirSync(root)
    .map((name) => join(root, name))
    .filter((path) => !builtIn(path));
  const by = entries.flatMap((path) => rules.ignoredBy(path) ?? []);
  if (entries.length === 0 || by.length < entries.length) return undefined;
  return `--watch: every file in ${root} is left out (by ${listed([...new Set(by)])}): no save will start a run; that line leaves it out of git too, so change it there, or watch another folder (--watch-dir)`;
}

/** `a`, `a and b`, `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}

export interface WatchedFiles {
  close(): Promise<void>;
}

/** The folder to watch, what the check writes (absolute paths of its reports and files, left out), and the --watch-ignore patterns. */
export interface WatchedFolder {
  folder: string;
  outputs: readonly string[];
  ignorePatterns: readonly string[];
}

/**
 * Watches the folder; `onChange` gets the files of each burst of changes, relative to the folder,
 * once it has been quiet for QUIET_MS, with the time (Date.now()) of the burst's first change.
 * A .gitignore's change is not an edit: its rules are read again.
 */
export async function watchFiles(
  { folder, outputs, ignorePatterns }: WatchedFolder,
  onChange: (files: string[], since: number) => void,
  onError: (error: Error) => void,
  onNote: (text: string) => void = () => {},
): Promise<WatchedFiles> {
  const [{ watch }, { default: makeIgnore }] = await Promise.all([import('chokidar'), import('ignore')]);
  const root = resolve(folder);
  const rules = ignoreRules(makeIgnore, root, ignorePatterns);
  const links = linkedFolders(root);
  const isLeftOut = (path: string, isFolder?: boolean): boolean =>
    path !== root && (leftOut(path, root, outputs) || rules.ignores(path, isFolder) || links.loopsBack(path));
  const watcher = watch(root, { ignored: (path, stats) => isLeftOut(path, stats?.isDirectory()), ignoreInitial: true });
  let changed = new Set<string>();
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  const changedFile = (path: string): void => {
    if (basename(path) === '.gitignore') return rules.forget(dirname(path));
    // A .gitignore may have left out, since, a file that was being watched.
    if (isLeftOut(path, false)) return;
    if (changed.size === 0) since = Date.now();
    changed.add(relative(root, path));
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed = new Set();
      onChange(files, since);
    }, QUIET_MS);
  };
  for (const event of ['add', 'change', 'unlink'] as const) watcher.on(event, changedFile);
  watcher.on('error', (error) => onError(error instanceof Error ? error : new Error(String(error))));
  await new Promise<void>((ready) => watcher.once('ready', ready));
  const everything = leftOutEverything(root, (path) => leftOut(path, root, outputs) || links.loopsBack(path), rules);
  if (everything !== undefined) onNote(everything);
  const loops = links.notFollowed();
  if (loops.length > 0) onNote(`--watch: ${listed(loops)} link${loops.length === 1 ? 's' : ''} to a folder already watched: not followed`);
  return {
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
