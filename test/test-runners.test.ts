/**
 * assertEndpoint under the test runners people use: node:test, Vitest and Jest (ESM, with
 * --experimental-vm-modules), each running test/runners/<runner>/ in a process of its own: a good
 * agent's test passes, and a four-button agent's test fails with the finding in the command's
 * words, printed as the runner prints a node:assert AssertionError (no actual-against-expected
 * diff). Assumes `npm run build` has run (`npm test` builds first): the tests import dist/. Jest and
 * Vitest are packages of test/package.json, which `npm test` installs first (scripts/test-packages.ts).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, runCommand } from './helpers.js';

const RUNNERS = join(ROOT, 'test/runners');

/** A runner's script, installed in test/node_modules: without it, the words that say how to install it. */
function runnerScript(path: string): string {
  const script = join(ROOT, 'test/node_modules', path);
  assert.ok(
    existsSync(script),
    `${script} is missing: run \`npm test\`, or \`node --import tsx scripts/test-packages.ts\`, which installs test/package.json's packages`,
  );
  return script;
}

const FINDING = '✗ platform  /replies/0/buttons  4 buttons; WhatsApp shows at most 3, so this reply is not sent';

/** Runs a runner's command in test/runners, without colour; its exit code and everything it printed. */
async function runRunner(args: string[]): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CI: 'true' };
  delete env.FORCE_COLOR;
  delete env.NODE_OPTIONS;
  delete env.NODE_TEST_CONTEXT; // else node --test below takes itself for a file of this run
  const { code, stdout, stderr } = await runCommand(process.execPath, args, { env, cwd: RUNNERS });
  return { code, output: `${stdout}\n${stderr}` };
}

function assertOneFailure(run: { code: number | null; output: string }, passed: RegExp, failed: RegExp): void {
  assert.equal(run.code, 1, run.output);
  assert.match(run.output, passed);
  assert.match(run.output, failed);
  assert.ok(run.output.includes(FINDING), run.output);
  assert.match(run.output, /0 of 1 case passed\./);
  assert.doesNotMatch(run.output, /Compared values|Difference:|Expected value/);
}

describe('assertEndpoint in each test runner', { concurrency: true }, () => {
  test('node:test', async () => {
    const run = await runRunner(['--test', '--test-reporter=tap', 'node/agent.test.js']);
    assertOneFailure(run, /^ok 1 - a good agent passes$/m, /^not ok 2 - an agent with four WhatsApp buttons fails$/m);
  });

  test('Vitest', async () => {
    const run = await runRunner([runnerScript('vitest/vitest.mjs'), 'run', '--root', 'vitest', '--reporter=verbose']);
    assertOneFailure(run, /✓ .*a good agent passes/, /× .*an agent with four WhatsApp buttons fails/);
    assert.match(run.output, /AssertionError: check-endpoint \S+ · contract/);
  });

  test('Jest', async () => {
    const jest = runnerScript('jest/bin/jest.js');
    const run = await runRunner([
      '--experimental-vm-modules',
      '--no-warnings',
      jest,
      '--rootDir',
      'jest',
      '--config',
      '{"transform":{}}',
      '--ci',
    ]);
    assertOneFailure(run, /✓ a good agent passes/, /✕ an agent with four WhatsApp buttons fails/);
    assert.match(run.output, /assert\.fail\(received, expected\)\n\n {4}Message:\n {6}check-endpoint/);
  });
});
