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
import { CLI, runCli, runCommand } from './helpers.js';

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
    // A list of quoted values is one value: the ids a conversation knows grow turn by turn.
    assert.equal(template('expected one of "p1"'), template('expected one of "p1", "p2"'));
    assert.equal(template('one of "a", "b" or "c"'), 'one of "…"');
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
  test('show: the same digest from the record, each problem once, then each case naming its problems by number', async () => {
    const reports = join(folder, 'reports');
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as Report;
    const shown = await runCli(['show'], { cwd: folder });
    assert.equal(shown.code, 0, shown.stderr);
    assert.ok(lines(shown.stdout) <= CASES + 20, `${lines(shown.stdout)} lines:\n${shown.stdout}`);
    assert.match(shown.stdout, new RegExp(`\\n2 problems fail ${CASES} of ${CASES} cases\\.\\n`));
    // Numbered as the run numbered them: the record's findings group into the report's problems.
    for (const problem of report.problems!)
      assert.ok(
        shown.stdout.includes(`problem ${problem.number}  ✗ ${problem.rule}  ${problem.path}  ${problem.message}`),
        problem.message,
      );
    assert.equal(shown.stdout.split('unknown property "quickReplies"').length - 1, 1, 'the finding once');
    assert.equal(shown.stdout.split('hint: Leave out a property that has no value').length - 1, 1, 'the hint once');
    // The channel column is as wide as the longest channel name, and two spaces.
    const column = (channel: string) => `${channel}${' '.repeat(Math.max(...CHANNELS.map((name) => name.length)) - channel.length + 2)}`;
    assert.match(shown.stdout, new RegExp(`^FAIL {2}typed {8}${column('whatsapp')}problems 1, 2$`, 'm'));
    assert.match(
      shown.stdout,
      new RegExp(`^FAIL {2}double-text {2}${column('sms')}problems 1 \\(turns 1 and 2\\), 2 \\(turns 1 and 2\\)$`, 'm'),
    );
    assert.ok(shown.stdout.indexOf('problem 2 ') < shown.stdout.indexOf('FAIL  typed'), 'the digest before the cases');
    assert.match(
      shown.stdout,
      new RegExp(`\\n0 of ${CASES} cases passed\\.\\n[^\\n]*--failed plays the ${CASES} cases that did not pass again\\.\\n$`),
    );
  });

  test('GitHub Actions: one annotation per problem, not one per case', async () => {
    const result = await runCli([agent.url, '--channel', 'all', '--quiet'], { cwd: folder, env: { GITHUB_ACTIONS: 'true' } });
    assert.equal(result.code, 1, result.stderr);
    const annotations = result.stderr.split('\n').filter((line) => line.startsWith('::'));
    assert.equal(annotations.length, 2, annotations.join('\n'));
    assert.match(
      annotations[0]!,
      /^::error title=check-endpoint problem 1%3A schema::image and replyTo are null[^\n]* at \/replies\/0\. Hint: Leave out/,
    );
    assert.match(
      annotations[0]!,
      new RegExp(`In ${CASES} cases \\(${FINDINGS} findings\\): typed, double-text, photo, button-tap, no-reply on every channel\\.$`),
    );
    assert.match(annotations[1]!, /^::error title=check-endpoint problem 2%3A schema::unknown property "quickReplies"/);
    // In the job's log (stdout and stderr in one), the annotations come before the summary, which stays last.
    const log = await runCommand(
      'bash',
      ['-c', `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} ${agent.url} --channel all 2>&1`],
      {
        cwd: folder,
        env: { ...process.env, GITHUB_ACTIONS: 'true', NO_COLOR: '1' },
      },
    );
    const logLines = log.stdout.trimEnd().split('\n');
    assert.match(logLines.at(-2)!, new RegExp(`^0 of ${CASES} cases passed\\.$`), log.stdout.slice(-2000));
    assert.match(logLines.at(-1)!, /^recorded in \.check-endpoint\/last-run\.json: /);
    assert.ok(log.stdout.lastIndexOf('::error ') < log.stdout.indexOf(`0 of ${CASES} cases passed.`), 'the annotations before the summary');
  });
});

describe('GitHub Actions: at most 10 annotations of a level, as GitHub shows; problems with one fix are one', () => {
  /** An unknown property named after the channel and case: on every channel, 25 problems, each in its own case. */
  let perCase: RunningAgent;
  /** Twelve unknown properties in one reply: twelve problems in the same case with the same fix. */
  const NAMES = 'abcdefghijkl'.split('').map((letter) => `extra_${letter}`);
  let twelve: RunningAgent;
  before(async () => {
    perCase = await serveAgent((request) => ({
      replies: [{ type: 'message', text: 'Hi.', [`extra_${request.channel}_${request.conversationId.split('.')[1]}`]: 1 }],
    }));
    twelve = await serveAgent(() => ({
      replies: [{ type: 'message', text: 'Hi.', ...Object.fromEntries(NAMES.map((name) => [name, 1])) }],
    }));
  });
  after(async () => {
    await perCase?.close();
    await twelve?.close();
  });

  test(`${CASES} problems in as many cases: 9 annotations, and a 10th counting the rest; every one stays in the log`, async () => {
    const result = await runCli([perCase.url, '--channel', 'all'], { env: { GITHUB_ACTIONS: 'true' } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, new RegExp(`^${CASES} problems fail ${CASES} of ${CASES} cases\\.$`, 'm'));
    const annotations = result.stderr.split('\n').filter((line) => line.startsWith('::'));
    assert.equal(annotations.length, 10, annotations.join('\n'));
    assert.ok(annotations.every((line) => line.startsWith('::error ')));
    assert.match(annotations[8]!, /^::error title=check-endpoint problem 9%3A schema::unknown property "extra_/);
    assert.equal(
      annotations[9],
      `::error title=check-endpoint::${CASES - 9} more problems (problems 10–${CASES}): GitHub shows 10 annotations of a kind a step; each is in the step summary and the log`,
    );
    for (const channel of CHANNELS) assert.ok(result.stdout.includes(`unknown property "extra_${channel}_typed"`), channel);
  });

  test('12 problems with one fix in the same case: one annotation, the fix once', async () => {
    const result = await runCli([twelve.url, '--case', 'typed', '--channel', 'web'], { env: { GITHUB_ACTIONS: 'true' } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /^12 problems fail 1 of 1 case\.$/m);
    const annotations = result.stderr.split('\n').filter((line) => line.startsWith('::'));
    assert.deepEqual(annotations.length, 1, annotations.join('\n'));
    assert.match(
      annotations[0]!,
      /^::error title=check-endpoint problems 1–12%3A schema::12 problems with one fix; the first: unknown property "extra_a"[^\n]*\. Hint: Remove it[^\n]*\. In 1 case: typed on web\.$/,
    );
    assert.equal(annotations[0]!.split('Hint:').length - 1, 1, 'the fix once');
    for (const name of NAMES) assert.ok(result.stdout.includes(`unknown property "${name}"`), name);
  });
});
