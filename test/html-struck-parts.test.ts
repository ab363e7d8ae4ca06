/**
 * The HTML page draws what a platform would not send, struck (issue 54): the eleventh list row, a
 * list opener past its length, a button past the count, a label past its length, a text past its
 * limit (its start drawn as sent, the rest struck), and on SMS buttons, a list, an image, a link,
 * a reaction and a template. Each struck part holds its value (the label's text is in the page),
 * says "not sent" to a screen reader, and has its finding and fix beside it at the same pointer.
 * Every limit is the bundled contract's (x-platforms), never one written here. In real Chromium,
 * under the page's content security policy; axe finds no violation.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import type { Report } from '../src/core/report.js';
import { bundledContract } from '../src/index.js';
import { prefixWithin } from '../src/platforms/counting.js';
import { launchChromium } from './chromium.js';
import { describeViolations, runAxe } from './axe.js';
import { runCli } from './helpers.js';

const whatsapp = bundledContract().platforms.whatsapp!;
const MAX_ROWS = whatsapp.list!.maxRows!;
const OPENER_MAX = whatsapp.list!.buttonMaxLength!;
const MAX_BUTTONS = whatsapp.buttons!.maxCount!;
const LABEL_MAX = whatsapp.buttons!.labelMaxLength!;
const BODY_MAX = whatsapp.buttons!.bodyMaxLength!;

/** A list opener five characters past WhatsApp's limit, and a button label as far past its own. */
const OPENER = `See the whole menu${'!'.repeat(OPENER_MAX - 18 + 5)}`;
const LONG_LABEL = `Tell me more${'.'.repeat(LABEL_MAX - 12 + 5)}`;
/** A text with buttons one phrase past the body limit: the part not sent is that phrase. */
const PAST = 'PAST THE LIMIT';
const LONG_TEXT = `${'a'.repeat(BODY_MAX)}${PAST}`;

interface Struck {
  channel: 'whatsapp' | 'sms';
  reply: number;
  /** The pointer of the finding, which the struck part names. */
  pointer: string;
  /** The text the struck part shows (the value at fault). */
  shows: string;
}

/** Every part the page must draw struck, where, and what it shows. */
const STRUCK: Struck[] = [
  { channel: 'whatsapp', reply: 0, pointer: '/replies/0/list/button', shows: OPENER },
  { channel: 'whatsapp', reply: 0, pointer: '/replies/0/list/sections', shows: `Item ${MAX_ROWS + 1}` },
  { channel: 'whatsapp', reply: 1, pointer: '/replies/1/buttons', shows: `Option ${MAX_BUTTONS + 1}` },
  { channel: 'whatsapp', reply: 2, pointer: '/replies/2/buttons/1/label', shows: LONG_LABEL },
  { channel: 'whatsapp', reply: 3, pointer: '/replies/3/text', shows: PAST },
  { channel: 'sms', reply: 0, pointer: '/replies/0/buttons', shows: 'Coffee' },
  { channel: 'sms', reply: 1, pointer: '/replies/1/list', shows: 'Menu' },
  { channel: 'sms', reply: 2, pointer: '/replies/2/image', shows: 'https://example.com/menu.png' },
  { channel: 'sms', reply: 3, pointer: '/replies/3/link', shows: 'Open the menu' },
  { channel: 'sms', reply: 4, pointer: '/replies/4', shows: '👍' },
  { channel: 'sms', reply: 5, pointer: '/replies/5', shows: 'Template message' },
];

const rows = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `item_${index + 1}`, title: `Item ${index + 1}` }));

describe('the HTML page draws what a platform would not send, struck, its finding beside it', () => {
  let agent: RunningAgent;
  let folder: string;
  let browser: Browser;
  let page: Page;
  let report: Report;
  const consoleErrors: string[] = [];

  before(async () => {
    agent = await serveAgent((request) => {
      if (request.channel === 'sms') {
        return {
          replies: [
            { type: 'message', text: 'What can I get you?', buttons: ['Coffee', 'Tea'] },
            { type: 'message', text: 'pick', list: { button: 'Menu', sections: [{ rows: [{ id: 'a', title: 'Latte' }] }] } },
            { type: 'message', text: 'our menu', image: { url: 'https://example.com/menu.png' } },
            { type: 'message', text: 'see', link: { url: 'https://example.com/', label: 'Open the menu' } },
            { type: 'reaction', emoji: '👍', messageId: request.messageId },
            { type: 'template', name: 'order_ready', language: 'en', parameters: ['Ana'] },
          ],
        };
      }
      return {
        replies: [
          {
            type: 'message',
            text: 'What can I get you?',
            list: { button: OPENER, sections: [{ title: 'Menu', rows: rows(MAX_ROWS + 1) }] },
          },
          { type: 'message', text: 'pick', buttons: Array.from({ length: MAX_BUTTONS + 1 }, (_, index) => `Option ${index + 1}`) },
          { type: 'message', text: 'more?', buttons: ['Yes', { id: 'more', label: LONG_LABEL }] },
          { type: 'message', text: LONG_TEXT, buttons: ['OK'] },
          // Sent: nothing of it struck.
          { type: 'message', text: 'when?', list: { button: 'Times', sections: [{ rows: rows(2) }] } },
        ],
      };
    });
    folder = mkdtempSync(join(tmpdir(), 'check-endpoint-struck-parts-'));
    browser = await launchChromium();
    const result = await runCli(
      [agent.url, '--case', 'typed', '--channel', 'whatsapp', '--channel', 'sms', '--report-dir', join(folder, 'reports')],
      { cwd: folder },
    );
    assert.equal(result.code, 1, result.stderr);
    report = JSON.parse(readFileSync(join(folder, 'reports', 'report.json'), 'utf8')) as Report;
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(0);
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(pathToFileURL(join(folder, 'reports', 'report.html')).href);
  });

  after(async () => {
    await browser?.close();
    await agent?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const replyRow = (channel: string, reply: number): Locator => page.locator(`#case-${channel}-typed li.row.agent`).nth(reply);

  test('the run found a platform error at each pointer drawn struck', () => {
    for (const { channel, pointer } of STRUCK) {
      const findings = report.cases.find((caseReport) => caseReport.channel === channel)!.findings;
      assert.ok(
        findings.some((finding) => finding.rule === 'platform' && finding.severity === 'error' && finding.path === pointer),
        `expected a platform error at ${pointer} on ${channel}; the findings are at ${findings.map((finding) => finding.path).join(', ')}`,
      );
    }
  });

  for (const { channel, reply, pointer, shows } of STRUCK) {
    test(`${channel} ${pointer}: drawn struck, showing ${JSON.stringify(shows.slice(0, 30))}, its finding and fix beside it`, async () => {
      const row = replyRow(channel, reply);
      const struck = row.locator(`.at-fault[data-pointer="${pointer}"]`);
      assert.ok(
        (await struck.count()) >= 1,
        `expected a part struck at ${pointer} in reply ${reply} on ${channel}: ${await row.innerHTML()}`,
      );
      const texts = await struck.allTextContents();
      assert.ok(
        texts.some((text) => text.includes(shows)),
        `expected the struck part at ${pointer} to show ${JSON.stringify(shows)}; it shows ${JSON.stringify(texts)}`,
      );
      assert.equal(await struck.first().evaluate((element) => element.tagName), 'DEL');
      const decoration = await page.evaluate(
        `getComputedStyle(document.querySelectorAll('#case-${channel}-typed li.row.agent')[${reply}].querySelector('.at-fault[data-pointer="${pointer}"]')).textDecorationLine`,
      );
      assert.match(String(decoration), /line-through/);
      // A screen reader hears that it was not sent, and where its finding is.
      assert.match(
        String(await struck.first().locator('.sr-only').textContent()),
        new RegExp(`^Not sent \\(see the finding at ${pointer}\\)`),
      );
      const finding = row.locator(`.notes .finding.error[data-pointer="${pointer}"]`);
      assert.equal(await finding.count(), 1, `expected the finding at ${pointer} beside the reply`);
      assert.match(await finding.innerText(), /Fix:/);
      assert.equal(await row.locator('.not-sent-label').count(), 1);
    });
  }

  test(`the list: its ${MAX_ROWS} rows as sent, only row ${MAX_ROWS + 1} struck; its opener struck in the bubble and on the sheet`, async () => {
    const listRows = replyRow('whatsapp', 0).locator('.list-row');
    assert.equal(await listRows.count(), MAX_ROWS + 1);
    for (let index = 0; index < MAX_ROWS; index++)
      assert.equal(await listRows.nth(index).locator('.at-fault').count(), 0, `row ${index + 1}`);
    assert.equal(await listRows.nth(MAX_ROWS).locator('.at-fault').count(), 1);
    const openers = replyRow('whatsapp', 0).locator('.at-fault[data-pointer="/replies/0/list/button"]');
    assert.equal(await openers.count(), 2, 'the opener in the bubble and the sheet title');
  });

  test(`the buttons: the first ${MAX_BUTTONS} as sent, the one past them struck; of two, only the long label struck`, async () => {
    const chips = replyRow('whatsapp', 1).locator('.chip');
    assert.equal(await chips.count(), MAX_BUTTONS + 1);
    for (let index = 0; index < MAX_BUTTONS; index++) assert.equal(await chips.nth(index).locator('.at-fault').count(), 0);
    assert.equal(await chips.nth(MAX_BUTTONS).locator('.at-fault').count(), 1);
    const two = replyRow('whatsapp', 2).locator('.chip');
    assert.deepEqual(await two.evaluateAll((chips) => chips.map((chip) => chip.querySelector('.at-fault') !== null)), [false, true]);
  });

  test(`the text: its first ${BODY_MAX} characters as sent (the limit with buttons), the rest struck`, async () => {
    const text = replyRow('whatsapp', 3).locator('.bubble .text');
    // The text as sent: the paragraph's text less its struck part.
    const sent = (await text.textContent())!.replace((await text.locator('.at-fault').textContent())!, '');
    assert.equal(sent.replace(/ … [\d,]+ more characters not shown$/, '').length, Math.min(BODY_MAX, 1500));
    assert.equal(prefixWithin(LONG_TEXT, 'codepoints', BODY_MAX), BODY_MAX);
    assert.match(await text.locator('.at-fault').innerText(), new RegExp(`${PAST}$`));
  });

  test('a reply sent whole has nothing struck', async () => {
    const sent = replyRow('whatsapp', 4);
    assert.equal(await sent.locator('.at-fault').count(), 0);
    assert.equal(await sent.locator('.not-sent-label').count(), 0);
    assert.equal(await page.locator('.row.person .reactions .reaction').count(), 0, 'the reaction SMS would not send is not drawn as sent');
  });

  test('axe-core finds no violation, every finding open, and the page logs no error (its content security policy held)', async () => {
    await page.evaluate("document.querySelectorAll('details').forEach((details) => { details.open = true; })");
    const results = await runAxe(page);
    assert.deepEqual(results.violations, [], describeViolations(results));
    assert.ok(
      results.passes.some((rule) => rule.id === 'color-contrast'),
      'axe checked colour contrast',
    );
    assert.deepEqual(consoleErrors, []);
  });
});

describe('prefixWithin: where a text past a limit is cut, in the platform unit', () => {
  const cases: { text: string; unit: 'codepoints' | 'utf16' | 'sms'; max: number; end: number; why: string }[] = [
    { text: 'abcdef', unit: 'codepoints', max: 4, end: 4, why: 'one unit a character' },
    { text: 'ab😀cd', unit: 'codepoints', max: 3, end: 4, why: 'an emoji is one code point, two UTF-16 units' },
    { text: 'ab😀cd', unit: 'utf16', max: 3, end: 2, why: 'an emoji is two UTF-16 units: it does not fit in the third' },
    { text: 'ab{cd', unit: 'sms', max: 3, end: 2, why: 'GSM-7: { takes two septets' },
    { text: 'ab€😀', unit: 'sms', max: 3, end: 3, why: 'UCS-2 (an emoji in the text): € is one unit' },
    { text: 'abc', unit: 'codepoints', max: 10, end: 3, why: 'within the limit: all of it' },
    { text: 'abc', unit: 'codepoints', max: 0, end: 0, why: 'a limit of 0: none of it' },
  ];
  for (const { text, unit, max, end, why } of cases) {
    test(`${JSON.stringify(text)} in ${unit}, at most ${max}: ends at ${end} (${why})`, () => {
      assert.equal(prefixWithin(text, unit, max), end);
    });
  }
});
