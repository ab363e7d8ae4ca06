/**
 * Installs test/' own packages (test/package.json: what only the tests use, such as the browser, the
 * frameworks' servers, Jest and Vitest) with `npm ci`, when they are missing or were installed from
 * another lock. They are a package of their own so that a git install of check-endpoint, where npm
 * installs the root's dev dependencies before it builds, does not fetch and unpack some 500 packages
 * no build needs. `npm test` and `npm run bench` run this first; a second run finds them installed
 * and does nothing.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const tests = join(dirname(fileURLToPath(import.meta.url)), '../test');
/** Written after a finished install: the digest of the package.json and lock it installed. */
const STAMP = join(tests, 'node_modules/.installed-from');

function digest(): string {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) hash.update(readFileSync(join(tests, file)));
  return hash.digest('hex');
}

const wanted = digest();
if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === wanted) process.exit(0);
process.stdout.write('Installing the packages of test/package.json (npm ci in test/)\n');
// Run by `npm test`, npm says where it is (npm_execpath); run by hand, the npm on PATH.
const npmCli = process.env.npm_execpath;
const [command, prefix] = npmCli?.endsWith('.js') ? [process.execPath, [npmCli]] : [process.platform === 'win32' ? 'npm.cmd' : 'npm', []];
const installed = spawnSync(command, [...prefix, 'ci', '--no-audit', '--no-fund', '--engine-strict', '--prefer-offline'], {
  cwd: tests,
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
if (installed.status !== 0) {
  process.stderr.write(`npm ci in ${tests} failed (${installed.error?.message ?? `exit code ${installed.status}`})\n`);
  process.exit(1);
}
writeFileSync(STAMP, wanted);
