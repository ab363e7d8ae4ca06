/**
 * One run, every output: against the café's Go agent with a menu of three defects
 * (fixtures/agents/go-menu.patch, a fixture of the project's own: a 25-character list opener and 11 rows
 * on WhatsApp, buttons on SMS), the terminal, the JSON report, JUnit, the HTML page and the GitHub
 * step summary each show the value at fault (the label with its length, the eleventh row, the SMS
 * buttons) and agree on every count: the problems (a distinct cause each), the findings (one
 * instance each), the cases failed of played. The HTML draws each struck at its pointer
 * (test/html-struck-parts.test.ts draws them in Chromium), and the SMS hint names the Go way.
 * Where Go is missing that run says it is skipped, and why; the same menu from a Node agent is
 * checked the same way on every machine (its hint naming JavaScript's way).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import type { Report } from '../src/core/report.js';
import { MENU_DEFECTS_AGENT } from '../fixtures/agents/catalogue.js';
import { runCli } from './helpers.js';
import { goMissing, startGoMenuAgent } from './go-agents.js';

const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-counts-agree-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** The same menu with the same three defects, from two stacks: the SMS hint names each one's way. */
const AGENTS: { title: string; start: () => Promise<RunningAgent>; missing: string | undefined; way: RegExp }[] = [
  {
    title: "the café's Go agent (fixtures/agents/go-menu.patch)",
    start: startGoMenuAgent,
    missing: goMissing(),
    way: /Go \(net\/http, encoding\/json\) \(told by Go's net\/http headers\): switch channel \{ case "sms"/,
  },
  {
    // Where Go is missing, the counts are still compared on every machine.
    title: 'a Node agent (fixtures/agents/catalogue.ts MENU_DEFECTS_AGENT)',
    start: () => serveAgent(MENU_DEFECTS_AGENT.handler),
    missing: undefined,
    way: /Node\.js \(told by Keep-Alive: timeout=5 \(Node's http\)\): switch \(request\.channel\)/,
  },
];

/** How many times a pattern comes in a text. */
function occurrences(text: string, pattern: RegExp): number {
  return [...text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))].length;
}

const LABEL = '"See the whole menu today!" (25 characters)';
const ROW = 'row 11: {"id":"item_11","title":"Item 11"}';
const BUTTONS = '2 items: ["Coffee","Tea"]';

for (const [index, { title, start, missing, way }] of AGENTS.entries()) {
  test(
    `${title}: the terminal, --json, JUnit, HTML and the step summary show the values at fault and agree on problems, findings and cases`,
    { skip: missing ?? false },
    async () => {
      const agent = await start();
      const here = join(folder, String(index));
      mkdirSync(here);
      const summaryFile = join(here, 'step-summary.md');
      const run = await runCli([agent.url, '--channel', 'whatsapp', '--channel', 'sms', '--report-dir', 'reports'], {
        cwd: here,
        env: { NO_COLOR: '1', FLOW_FRAMEWORK_AGENT_TOKEN: undefined, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile },
      }).finally(() => agent.close());
      assert.equal(run.code, 1, run.stderr);
      const report = JSON.parse(readFileSync(join(here, 'reports/report.json'), 'utf8')) as Report;
      const junit = readFileSync(join(here, 'reports/junit.xml'), 'utf8');
      const html = readFileSync(join(here, 'reports/report.html'), 'utf8').replaceAll('&quot;', '"');
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
        [
          'platform /replies/0/list/button on whatsapp',
          'platform /replies/0/list/sections on whatsapp',
          'platform /replies/0/buttons on sms',
        ],
      );

      // The terminal: the same title, each problem once, its findings (`in 4 cases (5 findings)`) adding up.
      const title = `3 problems fail ${failed} of ${cases} cases.`;
      assert.ok(terminal.includes(`\n${title}\n`), terminal);
      assert.equal(occurrences(terminal, /^problem \d+ {2}/m), problems.length);
      const perProblem = [...terminal.matchAll(/^ {6}in (\d+) cases?(?: \((\d+) findings\))?:/gm)].map((found) =>
        Number(found[2] ?? found[1]),
      );
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

      // The SMS hint names the stack's way, told by the agent's headers, and no model line: the reply is written by hand.
      const smsHint = report.problems?.find((problem) => problem.name === 'platform /replies/0/buttons on sms')?.hint ?? '';
      assert.match(smsHint, way, smsHint);
      assert.doesNotMatch(smsHint, /For a model/, smsHint);

      // The HTML draws each value at fault struck, at its finding's pointer: the label, the eleventh row, the SMS buttons.
      for (const [pointer, value] of [
        ['/replies/0/list/button', 'See the whole menu today!'],
        ['/replies/0/list/sections', 'Item 11'],
        ['/replies/0/buttons', 'Coffee'],
      ]) {
        const struck = new RegExp(
          `<del class="at-fault" data-pointer="${pointer}"><span class="sr-only">Not sent[^<]*</span>${value}</del>`,
        );
        assert.match(html, struck, `expected the HTML to draw ${value} struck at ${pointer}`);
      }
      assert.doesNotMatch(
        html,
        /<del class="at-fault" data-pointer="\/replies\/0\/list\/sections"><span class="sr-only">[^<]*<\/span>Item 10</,
        'row 10 is sent',
      );

      // Every output shows the value at fault: the 25-character label, the eleventh row, the SMS buttons.
      // (The step summary escapes Markdown's characters, which GitHub shows as the text: `today\!` reads `today!`.)
      const shown = summary.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1');
      for (const [name, text] of Object.entries({ terminal, junit: junit.replaceAll('&quot;', '"'), html, summary: shown })) {
        for (const value of [LABEL, ROW, BUTTONS]) assert.ok(text.includes(value), `${name} shows ${value}`);
      }
    },
  );
}
