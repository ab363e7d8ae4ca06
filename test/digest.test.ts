/**
 * The digest of distinct problems, measured on an agent with exactly 2 distinct errors in every
 * reply, checked on every channel: each problem said once, in the text (at most 40 lines with
 * --quiet, 120 without), the JSON report's `problems` and the HTML page ("What to fix", under
 * 10,000 px tall, no image box or quote drawn for a null field). And the grouping itself.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { TWO_PROBLEMS_AGENT } from '../fixtures/agents/catalogue.js';
import { CHANNELS } from './contract-ids.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { pointerShape, problemId, template } from '../src/core/problems.js';
import { error } from '../src/core/findings.js';
import type { Report } from '../src/core/report.js';
import { launchChromium } from './chromium.js';
import { runCli } from './helpers.js';

const lines = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('problems: the grouping key', () => {
  test('a pointer shape has every index as *', () => {
    assert.equal(pointerShape('/replies/0/text'), '/replies/*/text');
    assert.equal(pointerShape('/replies/12/buttons/3'), '/replies/*/buttons/*');
    assert.equal(pointerShape('/replies/0/a1'), '/replies/*/a1');
    assert.equal(pointerShape(''), '');
  });
  test('a template has quoted values and numbers taken out', () => {
    assert.equal(
      template('the text is 5,000 characters long; WhatsApp shows at most 4,096'),
      template('the text is 4,200 characters long; WhatsApp shows at most 4,096'),
    );
    assert.equal(template('got "Hello" from "x"'), 'got "…" from "…"');
  });
  test('alike findings share an id; a different rule, message or hint does not', () => {
    const a = error('schema', '/replies/0/text', 'the text is "a"', 'Shorten it.');
    assert.equal(problemId(a), problemId(error('schema', '/replies/3/text', 'the text is "b"', 'Shorten it.')));
    assert.match(problemId(a), /^schema-[0-9a-f]{8}$/);
    assert.notEqual(problemId(a), problemId(error('platform', '/replies/0/text', 'the text is "a"', 'Shorten it.')));
    assert.notEqual(problemId(a), problemId(error('schema', '/replies/0/text', 'the text is "a"', 'Remove it.')));
    assert.notEqual(problemId(a), problemId(error('schema', '/replies/0/image', 'the text is "a"', 'Shorten it.')));
  });
});

/** The five fixed cases on every channel, and problem 1's findings: seven a channel (double-text and button-tap answer twice). */
const CASES = CHANNELS.length * 5;
const FINDINGS = CHANNELS.length * 7;

describe('an agent with 2 distinct errors in every reply, on every channel', () => {
  let agent: RunningAgent;
  let folder: string;
  let browser: Browser;
  before(async () => {
    agent = await serveAgent(TWO_PROBLEMS_AGENT.handler);
    folder = mkdtempSync(join(tmpdir(), 'check-endpoint-digest-'));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await agent?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('--quiet: the digest and the summary, each problem once, at most 40 lines', async () => {
    const result = await runCli([agent.url, '--channel', 'all', '--quiet'], { cwd: folder });
    assert.equal(result.code, 1, result.stderr);
    assert.ok(lines(result.stdout) <= 40, `${lines(result.stdout)} lines:\n${result.stdout}`);
    assert.match(result.stdout, new RegExp(`^2 problems fail ${CASES} of ${CASES} cases\\.$`, 'm'));
    assert.match(
      result.stdout,
      /^problem 1 {2}✗ schema {2}\/replies\/0 {2}image and replyTo are null; a property with no value is left out, never null$/m,
    );
    assert.match(result.stdout, /^problem 2 {2}✗ schema {2}\/replies\/0\/quickReplies {2}unknown property "quickReplies"/m);
    assert.equal(result.stdout.split('hint: Leave out a property that has no value').length - 1, 1, 'the hint once');
    assert.match(
      result.stdout,
      new RegExp(`in ${CASES} cases \\(${FINDINGS} findings\\): typed, double-text, photo, button-tap, no-reply on every channel`),
    );
    assert.doesNotMatch(result.stdout, /^FAIL/m, 'no case line under --quiet');
    assert.match(result.stdout, new RegExp(`\\n0 of ${CASES} cases passed\\.\\n$`), 'the summary is the last line');
  });

  test('the text: the digest first, then each case naming its problems, at most 120 lines; the summary and the record last', async () => {
    const reports = join(folder, 'reports');
    const result = await runCli([agent.url, '--channel', 'all', '--report-dir', reports], { cwd: folder });
    assert.equal(result.code, 1, result.stderr);
    assert.ok(lines(result.stdout) <= 120, `${lines(result.stdout)} lines:\n${result.stdout}`);
    assert.ok(
      result.stdout.indexOf(`2 problems fail ${CASES} of ${CASES} cases.`) < result.stdout.indexOf('FAIL  typed'),
      'the digest before the cases',
    );
    assert.match(result.stdout, /^FAIL {2}typed +whatsapp +1 turn +\d+ ms +problems 1, 2$/m);
    assert.match(result.stdout, /^FAIL {2}double-text +sms +2 turns +\d+ ms +problems 1 \(turns 1 and 2\), 2 \(turns 1 and 2\)$/m);
    assert.equal(result.stdout.split('unknown property "quickReplies"').length - 1, 1, 'the finding once');
    assert.match(result.stdout, new RegExp(`\\n0 of ${CASES} cases passed\\.\\n$`));
    assert.match(result.stderr, /recorded in \.check-endpoint\/last-run\.json/);

    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as Report;
    assert.equal(report.problems?.length, 2);
    const [nulls, unknown] = report.problems!;
    assert.deepEqual(
      { number: nulls!.number, rule: nulls!.rule, path: nulls!.path, findings: nulls!.findings, cases: nulls!.cases },
      { number: 1, rule: 'schema', path: '/replies/0', findings: FINDINGS, cases: CASES },
    );
    assert.equal(unknown!.path, '/replies/0/quickReplies', 'the pointer they all have');
    assert.deepEqual(nulls!.example, { case: 'typed', channel: 'whatsapp', turn: 0, reply: 0, path: '/replies/0' });
    for (const caseReport of report.cases)
      for (const finding of caseReport.findings) assert.ok([nulls!.id, unknown!.id].includes(finding.problem!), finding.message);
    assert.match(readFileSync(join(reports, 'junit.xml'), 'utf8'), new RegExp(`problem: ${nulls!.id}`));

    // The HTML page: "What to fix" above the matrix, under 10,000 px tall, no image box or quote for a null field.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(pathToFileURL(join(reports, 'report.html')).href);
      const height = await page.evaluate('document.body.scrollHeight');
      assert.ok(typeof height === 'number' && height < 10_000, `the page is ${String(height)} px tall`);
      assert.equal(await page.locator('#what-to-fix li.problem').count(), 2);
      assert.equal(await page.locator('#what-to-fix ~ #matrix').count(), 1, 'What to fix comes above the matrix');
      assert.equal(await page.locator('#problem-1 .problem-links a').count(), CASES, `problem 1 links to its ${CASES} conversations`);
      assert.equal(await page.locator('#problem-1 .problem-links a').first().getAttribute('href'), '#case-whatsapp-typed');
      assert.equal(await page.locator('.image-placeholder').count(), 0, 'no image box for image: null');
      assert.equal(await page.locator('.quote').count(), 0, 'no quote for replyTo: null');
      assert.equal(await page.getByText('Image data not drawn').count(), 0);
      assert.equal(await page.getByText('Quotes an unknown message').count(), 0);
      // The first finding of each problem drawn whole, its repeats (34 on the five platforms) folded.
      assert.equal(await page.locator('section.case .finding.repeat').count(), 2 * (FINDINGS - 1));
      assert.equal(await page.locator('section.case .finding:not(.repeat)').count(), 2);
      // A link to a folded conversation unfolds it.
      await page.locator('#problem-1 .problem-links a[href="#case-sms-photo"]').click();
      assert.equal(await page.locator('#case-sms-photo details.conversation-fold').getAttribute('open'), '');
    } finally {
      await page.close();
    }
  });
});
