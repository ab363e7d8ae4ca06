/**
 * The HTML page draws only what the platform would show: a part of a reply with an error finding
 * at or under its JSON pointer (an image url not https, a javascript: link, a list with null
 * sections, a reaction with null fields, a null text, a quote of an unknown message) draws no image
 * box, link button, list opener, reaction mark, quote or "(no text)" bubble; its finding is drawn
 * instead. Beside them, valid parts of the same kinds are drawn, so each count can fail. Image data
 * whose bytes are not the type its mime claims (the contract does not refuse it) is named with its
 * size, never drawn as a broken picture.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import type { Report } from '../src/core/report.js';
import { launchChromium } from './chromium.js';
import { describeViolations, runAxe } from './axe.js';
import { runCli } from './helpers.js';

/** A 1×1 PNG: image data a browser draws. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The broken replies, by index, each with the one part the page must not draw and the pointer its finding is at. */
const BROKEN = [
  { reply: { type: 'message', text: 'a', image: { url: 'javascript:alert(1)' } }, pointer: '/replies/0/image/url' },
  { reply: { type: 'message', text: 'b', image: { url: 'http://example.com/y.png' } }, pointer: '/replies/1/image/url' },
  { reply: { type: 'message', text: 'c', link: { url: 'javascript:alert(1)', label: 'Click' } }, pointer: '/replies/2/link/url' },
  { reply: { type: 'message', text: 'd', list: { button: 'Menu', sections: null } }, pointer: '/replies/3/list' },
  { reply: { type: 'reaction', emoji: null, messageId: null }, pointer: '/replies/4' },
  { reply: { type: 'message', text: null }, pointer: '/replies/5' },
  { reply: { type: 'message', text: 'f', replyTo: 'msg_unknown' }, pointer: '/replies/6/replyTo' },
] as const;

/** Every selector of a drawn part the broken replies must not have. */
const DRAWN_PARTS = ['.image-placeholder', 'img', '.image-undrawn', '.cta', '.list-opener', '.list-sheet', '.reaction-note', '.quote'];

describe('the HTML page draws no part of a reply that has an error at it', () => {
  let agent: RunningAgent;
  let folder: string;
  let browser: Browser;
  let page: Page;
  let report: Report;
  const consoleErrors: string[] = [];

  before(async () => {
    agent = await serveAgent((request) => ({
      replies: [
        ...BROKEN.map(({ reply }) => reply),
        // The same kinds of part, valid: each is drawn.
        { type: 'message', text: 'by url', image: { url: 'https://example.com/ok.png' } },
        { type: 'message', text: 'by data', image: { mime: 'image/png', data: PNG_1X1 } },
        { type: 'message', text: 'not a png', image: { mime: 'image/png', data: 'aGVsbG8=' } },
        { type: 'message', text: 'go', link: { url: 'https://example.com/', label: 'Open' } },
        { type: 'message', text: 'pick', list: { button: 'Times', sections: [{ rows: [{ id: 'r1', title: '6 pm' }] }] } },
        { type: 'message', text: 'quoted', replyTo: request.messageId },
        { type: 'reaction', emoji: '👍', messageId: request.messageId },
      ],
    }));
    folder = mkdtempSync(join(tmpdir(), 'check-endpoint-drawn-parts-'));
    browser = await launchChromium();
    const result = await runCli([agent.url, '--case', 'typed', '--channel', 'web', '--report-dir', join(folder, 'reports')], {
      cwd: folder,
    });
    assert.equal(result.code, 1, result.stderr);
    report = JSON.parse(readFileSync(join(folder, 'reports', 'report.json'), 'utf8')) as Report;
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(pathToFileURL(join(folder, 'reports', 'report.html')).href);
  });

  after(async () => {
    await browser?.close();
    await agent?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('the run found an error at each broken part, and none in the valid replies', () => {
    const findings = report.cases[0]!.findings;
    for (const [index, { pointer }] of BROKEN.entries()) {
      assert.ok(
        findings.some((finding) => finding.severity === 'error' && finding.reply === index && finding.path === pointer),
        `an error at ${pointer}: ${findings.map((finding) => finding.path).join(', ')}`,
      );
    }
    assert.deepEqual(
      findings.filter((finding) => finding.reply === null || finding.reply >= BROKEN.length),
      [],
      'the valid replies have no finding',
    );
  });

  test('each broken reply: its findings drawn beside it, and none of its broken parts', async () => {
    const rows = page.locator('section.case li.row.agent');
    // Every reply has its row but the valid reaction, drawn on the message it reacts to.
    assert.equal(await rows.count(), BROKEN.length + 6);
    for (const [index, { pointer }] of BROKEN.entries()) {
      const row = rows.nth(index);
      for (const part of DRAWN_PARTS) assert.equal(await row.locator(part).count(), 0, `reply ${index}: no ${part}`);
      assert.doesNotMatch(await row.innerText(), /\(no text\)|Reaction on|unknown message|\(no id\)|Click|Menu/, `reply ${index}`);
      assert.ok((await row.locator(`.finding.error[data-pointer="${pointer}"]`).count()) >= 1, `reply ${index}: its finding at ${pointer}`);
      assert.equal(await row.locator('.not-sent-label').count(), 1, `reply ${index} is marked not sent`);
    }
    // Their valid parts stay: the texts a, b, c, d and f, and no bubble at all for the reaction and the null text.
    const texts = await page.locator('section.case li.row.agent .bubble .text').allInnerTexts();
    assert.deepEqual(texts.slice(0, 5), ['a', 'b', 'c', 'd', 'f']);
    assert.equal(await rows.nth(4).locator('.bubble').count(), 0);
    assert.equal(await rows.nth(5).locator('.bubble').count(), 0);
  });

  test('every finding of the run is drawn, at its pointer', async () => {
    const findings = report.cases[0]!.findings;
    assert.ok(findings.length >= BROKEN.length);
    for (const finding of findings) {
      const drawn = page.locator(`section.case li.row.agent .finding[data-pointer="${finding.path}"][data-rule="${finding.rule}"]`);
      assert.ok((await drawn.count()) >= 1, `${finding.rule} at ${finding.path}: ${finding.message}`);
    }
  });

  test('the valid parts are drawn: one image box, one picture, one link button, one list, one quote, one reaction', async () => {
    const chat = page.locator('section.case');
    assert.equal(await chat.locator('.image-placeholder').count(), 1);
    assert.match(await chat.locator('.image-placeholder').innerText(), /https:\/\/example\.com\/ok\.png/);
    assert.equal(await chat.locator('img.picture').count(), 1);
    const width = await page.evaluate("document.querySelector('section.case img.picture').naturalWidth");
    assert.equal(width, 1, 'the PNG is drawn');
    assert.deepEqual(await chat.locator('.cta-label').allInnerTexts(), ['↗ Open']);
    assert.equal(await chat.locator('.list-opener').count(), 1);
    assert.equal(await chat.locator('.quote').count(), 1);
    assert.deepEqual(await chat.locator('.row.person .reactions .reaction').allTextContents(), ['The agent reacted: 👍']);
    assert.equal(await chat.getByText('(no text)').count(), 0);
  });

  test('image data that is not the PNG its mime says is named with its size, never a broken picture', async () => {
    const undrawn = page.locator('section.case .image-undrawn');
    assert.equal(await undrawn.count(), 1);
    assert.equal(await undrawn.innerText(), 'Image data that is not a PNG (5 bytes): not drawn here');
    const broken = await page.evaluate("[...document.querySelectorAll('img')].filter((image) => image.naturalWidth === 0).length");
    assert.equal(broken, 0, 'no picture the browser could not draw');
  });

  test('axe-core finds no violation on the page, every finding open', async () => {
    await page.evaluate("document.querySelectorAll('details').forEach((details) => { details.open = true; })");
    const results = await runAxe(page);
    assert.deepEqual(results.violations, [], describeViolations(results));
    assert.deepEqual(consoleErrors, []);
  });
});
