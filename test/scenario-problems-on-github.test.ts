/**
 * A scenario file's problem is a problem in every GitHub output (issue 52, 7): `--scenarios sc`
 * with a file whose id is not its name failed the run (exit 1) but showed no annotation, counted
 * problems=0 for the action, and a step summary of passed cases only.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { actionOutputs } from '../src/action/outputs.js';
import { serveAgent } from '../src/example-agent/serve-agent.js';
import { ROOT, runCli } from './helpers.js';

const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-scenario-github-'));
after(() => rmSync(folder, { recursive: true, force: true }));

test('a file whose id is not its name: an annotation on its line, the step summary, and the action counts it', async () => {
  mkdirSync(join(folder, 'sc'));
  copyFileSync(join(ROOT, 'fixtures/scenarios/invalid/id-not-file-name.yaml'), join(folder, 'sc', 'id-not-file-name.yaml'));
  const agent = await serveAgent(() => ({ replies: [{ type: 'message', text: 'ok' }] }));
  const summary = join(folder, 'summary.md');
  const result = await runCli([agent.url, '--channel', 'web', '--case', 'typed', '--scenarios', 'sc', '--report-dir', 'reports'], {
    cwd: folder,
    env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, FLOW_FRAMEWORK_AGENT_TOKEN: undefined },
  }).finally(() => agent.close());
  assert.equal(result.code, 1, result.stdout + result.stderr);
  // Annotations go to stderr, where the check writes them.
  assert.match(
    result.stderr,
    /^::error file=sc\/id-not-file-name\.yaml,line=1,col=\d+,title=check-endpoint scenario file::.*latte-correction.* Fix: .*\(not played\)$/m,
  );
  const markdown = readFileSync(summary, 'utf8');
  assert.match(markdown, /\*\*Scenario files\*\*: ❌ 1 file with problems, not played/);
  assert.match(
    markdown,
    /^- `sc\/id-not-file-name\.yaml:1:\d+`: .*latte\\-correction|^- `sc\/id-not-file-name\.yaml:1:\d+`: .*latte-correction/m,
  );
  const report: unknown = JSON.parse(readFileSync(join(folder, 'reports', 'report.json'), 'utf8'));
  const outputs = actionOutputs({ exitCode: 1, report, reportFile: 'reports/report.json' });
  assert.equal(outputs.outcome, 'failed');
  assert.equal(outputs.problems, '1', "the action counts the file's problem");
});
