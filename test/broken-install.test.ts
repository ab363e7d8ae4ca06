/**
 * A copy of check-endpoint that cannot run says so, exit 2, for every command, --version included
 * (issue 52, 9): its bundle cut short, or a dependency gone. It checks what it needs (the bundle's
 * last line, which the build writes; each dependency found), not a hash of it. A copy here is
 * bin/, dist/ and package.json beside a node_modules that links to this one's.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ROOT, runCommand } from './helpers.js';

const temporary: string[] = [];
after(() => {
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
});

/** A copy of the built package; `nodeModules`: a link to this one's, or an empty folder. */
function copy(nodeModules: 'linked' | 'empty'): string {
  const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-broken-'));
  temporary.push(folder);
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(folder, part), { recursive: true });
  if (nodeModules === 'linked') symlinkSync(join(ROOT, 'node_modules'), join(folder, 'node_modules'));
  else mkdirSync(join(folder, 'node_modules'));
  return folder;
}

async function run(folder: string, args: string[]) {
  return runCommand(process.execPath, [join(folder, 'bin', 'check-endpoint.cjs'), ...args], { cwd: folder });
}

test('a whole copy answers --version', async () => {
  const result = await run(copy('linked'), ['--version']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n`);
});

test('dist/cli.cjs cut short: --version, --help and a check say the copy cannot run, exit 2, in a few lines', async () => {
  const folder = copy('linked');
  const bundle = join(folder, 'dist', 'cli.cjs');
  truncateSync(bundle, Math.floor(statSync(bundle).size / 2));
  for (const args of [['--version'], ['--help'], ['http://127.0.0.1:9/agent']]) {
    const result = await run(folder, args);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stdout.slice(0, 200)}${result.stderr.slice(0, 500)}`);
    assert.equal(result.stdout, '', args.join(' '));
    assert.match(result.stderr, /^check-endpoint: this copy cannot run: \S+cli\.cjs is cut short/, args.join(' '));
    assert.match(result.stderr, /run `npm ci` and `npm run build` in /);
    assert.ok(result.stderr.length < 1000, `${args.join(' ')}: ${result.stderr.length} characters, not the bundle's source`);
  }
});

test('a dependency gone: --version says which, exit 2', async () => {
  const result = await run(copy('empty'), ['--version']);
  assert.equal(result.code, 2, result.stdout + result.stderr);
  assert.match(result.stderr, /^check-endpoint: this copy cannot run: its dependency \S+ is not installed/);
});

test('dependencies found where Node finds them without a node_modules beside the package (NODE_PATH, as a Plug’n’Play install has none): --version and --help answer', async () => {
  const folder = copy('empty');
  for (const args of [['--version'], ['--help']]) {
    const result = await runCommand(process.execPath, [join(folder, 'bin', 'check-endpoint.cjs'), ...args], {
      cwd: folder,
      env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules') },
    });
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
  }
});
