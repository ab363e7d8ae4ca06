#!/usr/bin/env node
// The check-endpoint command. A smoke check's cost is mostly starting up, so:
// - this file is CommonJS, which Node starts sooner than an ES module;
// - `check-endpoint --version` answers without loading the command at all;
// - the command is one CommonJS bundle (dist/cli.cjs) compiled with the V8 code cache the build
//   wrote beside it (dist/cli.cache, made by a check against the reference agent): the functions a
//   check runs come compiled, not parsed again on every start. A cache V8 rejects (another Node
//   version or V8 flags) or a missing one only costs that time back;
// - the bundle comes wrapped in its function by the build (esbuild's banner and footer) and in
//   ASCII only, so it is read in one read of its size and compiled as it is: no string is built
//   around it, and V8 keeps it as a one-byte string (a single non-ASCII character would make the
//   whole source two bytes a character).
'use strict';
const { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, renameSync, writeFileSync } = require('node:fs');
const { dirname, join, sep } = require('node:path');
const BUNDLE_END = require('./bundle-end.cjs');

const packageRoot = join(__dirname, '..');
const dist = join(packageRoot, 'dist');
const bundle = join(dist, 'cli.cjs');

/** No build beside this file: says what to do where it is (an installed package, or a clone), and exits 2. */
function exitWithoutBuild() {
  const installed = packageRoot.split(sep).includes('node_modules');
  const remedy = installed
    ? 'this install of check-endpoint was never built: a git install builds in its `prepare` script, which did not run ' +
      '(npm install --ignore-scripts, ignore-scripts=true in an .npmrc, a script npm or pnpm was not allowed to run, or npm 6). ' +
      'Allow its scripts and install it again (npm install git+https://github.com/flow-framework/check-endpoint.git), ' +
      'or install the tarball `npm pack` writes in a clone, which needs no build'
    : `run \`npm run build\` in ${packageRoot} first`;
  process.stderr.write(`check-endpoint: ${bundle} is missing: ${remedy}\n`);
  process.exit(2);
}

/** A copy that cannot run, for every command (--version too): what is wrong, and how to get a whole copy; exit 2. */
function exitBroken(problem) {
  const installed = packageRoot.split(sep).includes('node_modules');
  const remedy = installed ? 'install check-endpoint again' : `run \`npm ci\` and \`npm run build\` in ${packageRoot}`;
  process.stderr.write(`check-endpoint: this copy cannot run: ${problem}; ${remedy}\n`);
  process.exit(2);
}

/**
 * Whether the package `name` is installed where Node looks for it from this package: first a
 * node_modules/NAME/package.json in this folder or one above it, a few stats, where require.resolve
 * reads each package's manifest and its exports (20 to 50 ms for this package's nine, on every
 * start); then, for a layout without node_modules (Yarn's Plug'n'Play, NODE_PATH), require.resolve.
 */
function installed(name) {
  for (let folder = packageRoot; dirname(folder) !== folder; folder = dirname(folder)) {
    if (existsSync(join(folder, 'node_modules', name, 'package.json'))) return true;
  }
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * What this copy needs, checked before any command: its bundle whole (its last bytes are the line
 * the build ends it with; a copy cut short has another) and each dependency its package.json names
 * installed. What it needs, not a hash of it: a few bytes read and a few paths looked at, so
 * --version stays as quick as it is.
 */
function checkCopy(manifest) {
  let descriptor;
  try {
    descriptor = openSync(bundle, 'r');
  } catch {
    exitWithoutBuild();
  }
  const size = fstatSync(descriptor).size;
  const tail = Buffer.alloc(Math.min(size, BUNDLE_END.length + 2));
  readSync(descriptor, tail, 0, tail.length, size - tail.length);
  closeSync(descriptor);
  if (!tail.toString('latin1').trimEnd().endsWith(BUNDLE_END))
    exitBroken(`${bundle} is cut short (${size} bytes, without the last line the build writes)`);
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    if (!installed(name)) exitBroken(`its dependency ${name} is not installed`);
  }
}

let manifest;
try {
  manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
} catch (cause) {
  exitBroken(`${join(packageRoot, 'package.json')} cannot be read (${cause.message})`);
}
checkCopy(manifest);

if (process.argv.length === 3 && process.argv[2] === '--version') {
  process.stdout.write(`${manifest.version}\n`);
} else {
  // V8 doubles its young generation each time enough objects outlive a collection, up to 32 MiB; a
  // check's objects (a request, its answer, its findings) live for one turn, so a long run only
  // grew it and held the memory: at 1 (a read each time it would grow, so it holds when set now),
  // --explore's peak at 10,000 turns falls from about 113 to 88 MiB, at no cost in time
  // (bench/README.md, figure (i)).
  require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
  const { Script } = require('node:vm');
  const { pathToFileURL } = require('node:url');
  const cacheFile = join(dist, 'cli.cache');
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  let code;
  try {
    // As bytes, then decoded: readFileSync(file, 'utf8') reads a file 8 KiB at a time into a
    // growing buffer; without an encoding it reads the whole file at once, as its size says.
    code = readFileSync(bundle).toString('utf8');
  } catch {
    // A clone installed with --ignore-scripts, or a package installed without its build.
    exitWithoutBuild();
  }
  // The bundle is one function expression (scripts/build.ts wraps it), run as a CommonJS module
  // would be; `import.meta.url` in the sources is `__cliUrl`.
  let script;
  try {
    script = new Script(code, { filename: bundle, cachedData });
  } catch (cause) {
    // Never the bundle's source (one line of 700 KB) and a stack: what is wrong, in a line.
    exitBroken(`${bundle} does not compile (${String(cause.message).slice(0, 200)})`);
  }
  if (process.env.CHECK_ENDPOINT_DEBUG) {
    const state = cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used';
    process.stderr.write(`check-endpoint: code cache ${state}\n`);
  }
  // The build's own run (scripts/build.ts) writes the cache, once the check has compiled what it needs.
  if (process.env.CHECK_ENDPOINT_WRITE_CODE_CACHE === '1') {
    process.on('exit', () => {
      // Written whole, then renamed: a half-written cache is never read.
      writeFileSync(`${cacheFile}.partial`, script.createCachedData());
      renameSync(`${cacheFile}.partial`, cacheFile);
    });
  }
  const commandModule = { exports: {} };
  script.runInThisContext()(commandModule.exports, require, commandModule, bundle, dist, pathToFileURL(bundle).href);
  // It sets process.exitCode and reports every error itself.
  commandModule.exports.runCommandLine(process.argv.slice(2));
}
