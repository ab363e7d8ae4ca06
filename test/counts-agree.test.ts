/**
 * One run, every output: against the café menu with three defects (fixtures/agents/catalogue.ts
 * MENU_DEFECTS_AGENT: a 25-character list opener and 11 rows on WhatsApp, buttons on SMS), the
 * terminal, the JSON report, JUnit, the HTML page and the GitHub step summary each show the value at
 * fault (the label with its length, the eleventh row, the SMS buttons) and agree on every count:
 * the problems (a distinct cause each), the findings (one instance each), the cases failed of played.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import type { Report } from '../src/core/report.js';
import { MENU_DEFECTS_AGENT } from '../fixtures/agents/catalogue.js';
import { runCli } from './helpers.js';

const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-counts-agree-'));
let agent: RunningAgent;
before(async () => {
  agent = await serveAgent(MENU_DEFECTS_AGENT.handler);
});
after(async () => {
  await agent.close();
  rmSync(folder, { recursive: true, force: true });
});

/** How many times a pattern comes in a text. */
function occurrences(text: string, pattern: RegExp): number {
  return [...text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))].length;
}

const LABEL = '"See the whole menu today!" (25 characters)';
const ROW = 'row 11: {"id":"item_11","title":"Item 11"}';
const BUTTONS = '2 items: ["Coffee","Tea"]';

test('the terminal, --json, JUnit, HTML and the step summary show the values at fault and agree on problems, findings and cases', async () => {
  const summaryFile = join(folder, 'step-summary.md');
  const run = await runCli([agent.url, '--channel', 'whatsapp', '--channel', 'sms', '--report-dir', 'reports'], {
    cwd: folder,
    env: { NO_COLOR: '1', FLOW_FRAMEWORK_AGENT_TOKEN: undefined, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile },
  });
  assert.equal(run.code, 1, run.stderr);
  const report = JSON.parse(readFileSync(join(folder, 'reports/report.json'), 'utf8')) as Report;
  const junit = readFileSync(join(folder, 'reports/junit.xml'), 'utf8');
  const html = readFileSync(join(folder, 'reports/report.html'), 'utf8').replaceAll('&quot;', '"');
  const summary = readFileSync(summaryFile, 'utf8');
  const terminal = run.stdout;

  // The JSON report: three problems, whose findings add up to its counts.
  const problems = report.problems ?? [];
  assert.equal(problems.length, 3);
  const findings = report.counts.errors + report.counts.warnings;
  assert.equal(
    problems.reduce((sum, problem) => sum + problem.findings, 0),
    findings,
  );
  assert.equal(
    findings,
    report.cases.reduce((sum, caseReport) => sum + caseReport.findings.length, 0),
  );
  const { cases, failed, passed } = report.counts;
  assert.deepEqual([cases, failed], [10, 8]);
  assert.deepEqual(problems.map((problem) => problem.example.value).sort(), [BUTTONS, LABEL, `11 rows in 1 section; ${ROW}`].sort());
  assert.deepEqual(
    problems.map((problem) => problem.name),
    ['platform /replies/0/list/button on whatsapp', 'platform /replies/0/list/sections on whatsapp', 'platform /replies/0/buttons on sms'],
  );

  // The terminal: the same title, each problem once, its findings (`in 4 cases (5 findings)`) adding up.
  const title = `3 problems fail ${failed} of ${cases} cases.`;
  assert.ok(terminal.includes(`\n${title}\n`), terminal);
  assert.equal(occurrences(terminal, /^problem \d+ {2}/m), problems.length);
  const perProblem = [...terminal.matchAll(/^ {6}in (\d+) cases?(?: \((\d+) findings\))?:/gm)].map((found) => Number(found[2] ?? found[1]));
  assert.equal(
    perProblem.reduce((sum, count) => sum + count, 0),
    findings,
  );
  assert.ok(terminal.includes(`\n${passed} of ${cases} cases passed.\n`));

  // JUnit: the cases, the failures, a line for each finding, naming each problem.
  assert.match(junit, new RegExp(`<testsuites [^>]*tests="${cases}" failures="${failed}"`));
  assert.equal(occurrences(junit, /\[platform\] \/replies/), findings);
  assert.equal(new Set([...junit.matchAll(/problem: ([a-z0-9-]+)/g)].map((found) => found[1])).size, problems.length);

  // HTML: the same title and findings in its head, each problem once in What to fix.
  assert.ok(html.includes(`<dd>${title} ${findings} findings (${findings} errors).</dd>`), 'the head');
  assert.equal(occurrences(html, /class="finding problem /), problems.length);
  assert.ok(html.includes(`${passed} of ${cases} cases passed`));

  // The step summary: the same title and findings, each problem once, the same cases passed.
  assert.ok(summary.includes(`**What to fix**: ${title} ${findings} findings (${findings} errors).`), summary);
  assert.equal(occurrences(summary, /^\d+\. (❌|⚠️) /m), problems.length);
  assert.ok(summary.includes(`${passed} of ${cases} cases passed.`));

  // Every output shows the value at fault: the 25-character label, the eleventh row, the SMS buttons.
  // (The step summary escapes Markdown's characters, which GitHub shows as the text: `today\!` reads `today!`.)
  const shown = summary.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1');
  for (const [name, text] of Object.entries({ terminal, junit: junit.replaceAll('&quot;', '"'), html, summary: shown })) {
    for (const value of [LABEL, ROW, BUTTONS]) assert.ok(text.includes(value), `${name} shows ${value}`);
  }
});
