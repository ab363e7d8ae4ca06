/**
 * How to run check-endpoint again from here, written as the person would type it: every reproduce
 * line, `show`, the `--failed` note and every suggestion that names the command prints it through
 * commandName(), so each one runs as written. The forms, tried in this order:
 *
 * - run by npx (npx's cache, `_npx/`): `npx --yes --package <tarball-or-spec> check-endpoint`, with
 *   the package as given: npm passes `--package`'s value to the command; given in place
 *   (`npx ./check-endpoint-0.1.0.tgz`), it is read from the package.json npx writes in its cache
 *   (`"_npx": { "packages": [...] }`); where neither says it, the cached command by its path. Never
 *   a bare `npx check-endpoint`, which would ask the registry, which has no package of that name,
 *   or someone else's;
 * - installed in the current folder (`node_modules/.bin/check-endpoint` is this copy):
 *   `npx check-endpoint`, which resolves to that install;
 * - first on PATH under its own name (a global install, or a link of one's own): `check-endpoint`;
 * - otherwise the file that ran, by its path: `node bin/check-endpoint.cjs` (a clone),
 *   `../app/node_modules/.bin/check-endpoint` (an install elsewhere).
 *
 * In the library (checkEndpoint in a test), the same rules name the copy the library belongs to.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The command's executable name, as package.json's "bin" gives it. */
export const BIN_NAME = 'check-endpoint';

/** The GitHub Action's bundle (action.yml's runs.main), from the repository's root. */
export const ACTION_BUNDLE = 'action/index.mjs';

/** What commandOf reads about the process: every value it needs, so that it reads nothing itself. */
export interface ProcessFacts {
  /** The script Node runs (process.argv[1]), as given: a link's path, not its target. */
  script: string | undefined;
  /** This package's bin file (bin/check-endpoint.cjs). */
  packageBin: string;
  cwd: string;
  /** The PATH variable. */
  path: string | undefined;
  /** npm exec's `--package` value, as npm passes it to the command (npm_config_package), when run by npx. */
  npxPackage: string | undefined;
  /** The packages npx's cache folder was made for, as given to npx (its package.json's `_npx.packages`), when run by npx. */
  npxCachePackages: readonly string[] | undefined;
  /** A file's target with every link followed; undefined when there is no such file. */
  realpath: (file: string) => string | undefined;
  /** The GitHub Action this process is, when it is one (action/index.mjs run by a runner): its repository and ref. */
  action?: { repository: string; ref: string; server: string };
}

/** A word as a POSIX shell reads it: left bare when it holds nothing the shell would change. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A file's path as typed from `cwd`: relative when it is inside it (with ./ where a shell needs one to run it), else absolute. */
function typedPath(file: string, cwd: string, runByItself: boolean): string {
  const inside = relative(cwd, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return file;
  return runByItself && !inside.includes(sep) ? `.${sep}${inside}` : inside;
}

/** The command that runs check-endpoint as this process was started (see the module's comment). */
export function commandOf(facts: ProcessFacts): string {
  // The action runs from the runner's copy of this repository, which has no build: the same
  // version, installed from its repository at the action's ref, runs anywhere.
  if (facts.action) {
    const { repository, ref, server } = facts.action;
    return `npx --yes --package ${shellWord(`git+${server}/${repository}.git${ref ? `#${ref}` : ''}`)} ${BIN_NAME}`;
  }
  const bin = facts.realpath(facts.packageBin);
  const script = facts.script;
  const scriptTarget = script === undefined ? undefined : facts.realpath(script);
  // The library, or anything else that is not this command: name this package's bin.
  const ranTheBin = scriptTarget !== undefined && scriptTarget === bin;
  const ran = ranTheBin ? script! : facts.packageBin;

  if (ranTheBin && `${sep}${script}`.includes(`${sep}_npx${sep}`)) {
    const [given, ...others] = facts.npxCachePackages ?? [];
    const spec = facts.npxPackage?.trim() ? facts.npxPackage : given !== undefined && others.length === 0 ? given : undefined;
    // --yes: without it, npx asks before it installs, and outside a terminal it refuses.
    if (spec !== undefined) return `npx --yes --package ${shellWord(spec)} ${BIN_NAME}`;
    return shellWord(script!);
  }
  if (bin !== undefined && facts.realpath(join(facts.cwd, 'node_modules', '.bin', BIN_NAME)) === bin) return `npx ${BIN_NAME}`;
  // Skips the node_modules/.bin folders npm puts on PATH while it runs a script: outside npm they are not there.
  const onPath = (facts.path ?? '')
    .split(delimiter)
    .filter((folder) => folder !== '' && !folder.endsWith(join('node_modules', '.bin')))
    .map((folder) => join(folder, BIN_NAME))
    .find((file) => facts.realpath(file) !== undefined);
  if (bin !== undefined && onPath !== undefined && facts.realpath(onPath) === bin) return BIN_NAME;
  if (basename(ran) === BIN_NAME) return shellWord(typedPath(ran, facts.cwd, true));
  return `node ${shellWord(typedPath(ran, facts.cwd, false))}`;
}

/** The folders this module may run from: src/core/ (sources), dist/ (the command), dist/chunks/ (the library). */
const MAX_LEVELS_UP = 3;

/** bin/check-endpoint.cjs of the package this module belongs to, found by walking up from this module's file. */
function packageBin(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let level = 0; level <= MAX_LEVELS_UP; level++) {
    const candidate = join(folder, 'bin', `${BIN_NAME}.cjs`);
    if (existsSync(candidate)) return candidate;
    folder = dirname(folder);
  }
  return join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', `${BIN_NAME}.cjs`);
}

/** `_npx.packages` of the package.json in the npx cache folder a script runs from (`…/_npx/HASH/node_modules/.bin/x`). */
function npxCachePackages(script: string | undefined): string[] | undefined {
  const marker = `${sep}_npx${sep}`;
  const at = script?.lastIndexOf(marker) ?? -1;
  if (script === undefined || at < 0) return undefined;
  const hash = script.slice(at + marker.length).split(sep)[0]!;
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(script.slice(0, at + marker.length), hash, 'package.json'), 'utf8'));
    const npx = typeof manifest === 'object' && manifest !== null && '_npx' in manifest ? manifest._npx : undefined;
    const packages = typeof npx === 'object' && npx !== null && 'packages' in npx ? npx.packages : undefined;
    return Array.isArray(packages) && packages.every((item) => typeof item === 'string') ? packages : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The native realpath (one realpath(3) call), not realpathSync's walk, which lstats every folder
 * of the path in JavaScript: commandName() looks up one file in each folder of PATH.
 */
function realpathOrNone(file: string): string | undefined {
  try {
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
}

/** The action's repository, ref and server (GitHub Enterprise Server's own), when this process is the GitHub Action: a runner ran this package's action bundle. */
function actionOf(script: string | undefined, env: NodeJS.ProcessEnv): ProcessFacts['action'] {
  const repository = env.GITHUB_ACTION_REPOSITORY;
  if (env.GITHUB_ACTIONS !== 'true' || !repository || script === undefined) return undefined;
  const bundle = realpathOrNone(join(packageRoot(), ACTION_BUNDLE));
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  return bundle !== undefined && realpathOrNone(script) === bundle ? { repository, ref: env.GITHUB_ACTION_REF ?? '', server } : undefined;
}

/** The command that runs check-endpoint as this process was started: `npx check-endpoint`, `node bin/check-endpoint.cjs`, … */
export function commandName(): string {
  const action = actionOf(process.argv[1], process.env);
  return commandOf({
    ...(action ? { action } : {}),
    script: process.argv[1],
    packageBin: packageBin(),
    cwd: process.cwd(),
    path: process.env.PATH,
    npxPackage: process.env.npm_config_package,
    npxCachePackages: npxCachePackages(process.argv[1]),
    realpath: realpathOrNone,
  });
}

/** The root of the package this module belongs to: where spec/ and bin/ are. */
export function packageRoot(): string {
  return dirname(dirname(packageBin()));
}

/** The commands of check-endpoint, by name (src/cli/commands.ts says what each does). */
export type CommandName = 'check' | 'validate' | 'serve-example' | 'demo' | 'chat' | 'limits' | 'show' | 'spec' | 'scenarios' | 'help';
