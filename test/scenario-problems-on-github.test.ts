/**
 * A scenario file's problem is a problem in every output (issue 52, 7): `--scenarios sc` with a
 * file whose id is not its name failed the run (exit 1) but showed no annotation, counted
 * problems=0 for the action, a step summary of passed cases only, and an HTML page whose head said
 * "Problems: none" and nothing of the file. Each output is read here: the terminal, the annotations,
 * the step summary, the action's outputs, the JSON report, JUnit (a failing testcase for the file)
 * and the HTML page (the problem with its fix).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { actionOutputs } from '../src/action/outputs.js';
import { serveAgent } from '../src/example-agent/serve-agent.js';
import { ROOT, runCli } from './helpers.js';

const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-scenario-github-'));
after(() => rmSync(folder, { recursive: true, force: true }));

test('a file whose id is not its name: the terminal, an annotation on its line, the step summary, the action, JSON, JUnit and HTML', async () => {
  mkdirSync(join(folder, 'sc'));
  copyFileSync(join(ROOT, 'fixtures/scenarios/invalid/id-not-file-name.yaml'), join(folder, 'sc', 'id-not-file-name.yaml'));
  const agent = await serveAgent(() => ({ replies: [{ type: 'message', text: 'ok' }] }));
  const summary = join(folder, 'summary.md');
  const result = await runCli([agent.url, '--channel', 'web', '--case', 'typed', '--scenarios', 'sc', '--report-dir', 'reports'], {
    cwd: folder,
    env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, FLOW_FRAMEWORK_AGENT_TOKEN: undefined },
  }).finally(() => agent.close());
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /^✗ sc\/id-not-file-name\.yaml:1:\d+  \/id  .*latte-correction/m, 'the terminal');
  assert.match(result.stdout, /1 scenario file with problems, not played\.$/m, "the terminal's summary");
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

  // The JSON report: the file, invalid, its problem with the fix.
  const json = report as { scenarios: { files: { file: string; status: string; problems: { pointer: string; fix: string }[] }[] } };
  const [file] = json.scenarios.files;
  assert.equal(file?.status, 'invalid');
  assert.equal(file?.problems[0]?.pointer, '/id');

  // JUnit: a failing testcase named after the file, with the problem and its fix; counted in the totals.
  const junit = readFileSync(join(folder, 'reports', 'junit.xml'), 'utf8');
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => ['testsuite', 'testcase'].includes(name),
  }).parse(junit) as {
    testsuites: {
      failures: string;
      testsuite: { name: string; failures: string; testcase: { name: string; failure?: { message: string; '#text': string } }[] }[];
    };
  };
  assert.equal(parsed.testsuites.failures, '1', junit);
  const suite = parsed.testsuites.testsuite.find((entry) => entry.name === 'scenarios');
  assert.equal(suite?.failures, '1', junit);
  const testcase = suite?.testcase.find((entry) => entry.name === 'sc/id-not-file-name.yaml');
  assert.match(testcase?.failure?.message ?? '', /problem\(s\) in the scenario file: not played/, junit);
  assert.match(testcase?.failure?.['#text'] ?? '', /sc\/id-not-file-name\.yaml:1:\d+ \/id .*latte-correction.*\(Rename the file/, junit);

  // HTML: the head counts the file, and a section shows its problem with the fix.
  const html = readFileSync(join(folder, 'reports', 'report.html'), 'utf8');
  assert.match(html, /<a href="#scenario-files">1 scenario file with problems, not played<\/a>/, 'the head');
  const section = /<section id="scenario-files"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
  assert.match(section, /<li class="finding problem error scenario-problem" data-scenario-file="sc\/id-not-file-name\.yaml">/, html);
  assert.match(section, /<code class="pointer">sc\/id-not-file-name\.yaml:1:\d+<\/code>/);
  assert.match(
    section,
    /<p class="finding-message">expected the id to be the file&#39;s name, &quot;id-not-file-name&quot;; got &quot;latte-correction&quot;<\/p>/,
  );
  assert.match(section, /<span class="label">Fix:<\/span> Rename the file to latte-correction\.yaml/);
});
