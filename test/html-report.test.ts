import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { BROKEN_AGENTS, VALID_AGENTS } from '../fixtures/agents/catalogue.js';
import { type AgentHandler, RawResponse, type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import type { CaseReport, Report, ReportedFinding, TurnReport } from '../src/core/report.js';
import type { PersonMessage } from '../src/core/request.js';
import { renderHtmlReport } from '../src/report/html.js';
import { imageData } from '../src/report/html/image-data.js';
import { checkEndpoint, describePlannedRun } from '../src/run/check-endpoint.js';
import { errorReport } from '../src/run/assemble.js';
import { planCheck } from '../src/run/plan.js';
import { validateAnswer } from '../src/validate/validate-answer.js';
// The browser is the headless Chromium of the @sparticuz/chromium dev dependency (`npm ci` brings it,
// no apt-get, no root), or the one CHECK_ENDPOINT_CHROMIUM names: CHECK_ENDPOINT_CHROMIUM=/usr/bin/chromium npm test.
import { launchChromium } from './chromium.js';
import { describeViolations, runAxe } from './axe.js';
import { everyReplyKindAgent, sampleRepliesOfEveryKind } from './every-reply-kind.js';
import { runCli } from './helpers.js';
import { CHANNELS, FIXED_CASE_IDS } from './contract-ids.js';

/** Where the screenshot of the report of a failing run is copied, for people to look at. */
const SCREENSHOT_COPY = '/tmp/check-endpoint-report.png';
const SCREENSHOT_FAILURES_COPY = '/tmp/check-endpoint-report-failures.png';
const HOSTILE = '<img src=x onerror=alert(1)>';

interface OpenedPage {
  page: Page;
  /** Every URL the page requested. */
  requests: string[];
  /** Console errors (a content security policy violation is one) and uncaught exceptions. */
  errors: string[];
  /** Dialogs opened (an injected alert() would be one). */
  dialogs: string[];
}

/** What the page is ready at: loaded, its script run, its fonts loaded (a screenshot waits for the fonts). */
const READY = 'document.readyState === "complete" && document.fonts.status === "loaded"';

async function openPage(browser: Browser, file: string, width = 1280): Promise<OpenedPage> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  // No action of its own times out: on a loaded machine Playwright's 30 s per action is not a bound
  // of ours; each test's own timeout (the runner's) is, and waits below are for the page's states.
  page.setDefaultTimeout(0);
  const opened: OpenedPage = { page, requests: [], errors: [], dialogs: [] };
  page.on('request', (request) => opened.requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') opened.errors.push(message.text());
  });
  page.on('pageerror', (error) => opened.errors.push(error.message));
  page.on('dialog', (dialog) => {
    opened.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(READY);
  return opened;
}

// ---------------------------------------------------------------------------------------------
// Hand-made reports for the renderer's own tests.

function finding(rule: ReportedFinding['rule'], path: string, message: string, turn: number | null, reply: number | null): ReportedFinding {
  return { rule, severity: 'error', message, path, hint: null, turn, reply, reproduce: null };
}

function turnOf(
  messageId: string,
  message: PersonMessage,
  answer: unknown,
  findings: ReportedFinding[] = [],
  sentBody?: string,
): TurnReport {
  return {
    messageId,
    request: { conversationId: 'c1', messageId, channel: 'web', message },
    ...(sentBody !== undefined ? { sentBody } : {}),
    status: 200,
    latencyMs: 12,
    answer,
    findings,
  };
}

function caseOf(id: string, channel: string, turns: TurnReport[], extra: ReportedFinding[] = []): CaseReport {
  const findings = [...turns.flatMap((turn) => turn.findings), ...extra];
  const passed = !findings.some((item) => item.severity === 'error');
  const status = passed ? 'passed' : 'failed';
  const conversationId = `${channel}:chk_<b>.${id}.1`;
  return {
    id,
    channel,
    conversationId,
    passed,
    status,
    durationMs: 40,
    turns,
    findings,
    expected: false,
    runs: 1,
    passedRuns: passed ? 1 : 0,
    label: passed ? 'passing' : 'failing',
    plays: [{ play: 1, conversationId, passed, status, durationMs: 40, turns, findings }],
  };
}

function reportOf(cases: CaseReport[], target = 'http://127.0.0.1:1/agent'): Report {
  const failed = cases.filter((caseReport) => !caseReport.passed).length;
  const all = cases.flatMap((caseReport) => caseReport.findings);
  const channels = [...new Set(cases.map((caseReport) => caseReport.channel))];
  return {
    version: 1,
    runs: 1,
    tool: { name: 'check-endpoint', version: '0.1.0' },
    spec: { version: '1.0', source: 'bundled' },
    target,
    channels: channels.map((name) => ({ name, title: name === 'web' ? 'Web chat' : null, limits: name === 'web' ? 'spec' : 'none' })),
    outcome: failed ? 'failed' : 'passed',
    exitCode: failed ? 1 : 0,
    error: null,
    stopped: null,
    counts: {
      cases: cases.length,
      passed: cases.length - failed,
      failed,
      notRun: 0,
      errors: all.filter((item) => item.severity === 'error').length,
      warnings: all.filter((item) => item.severity === 'warning').length,
    },
    cases,
    baseline: null,
    rules: {},
  };
}

/** A report whose every string an agent or a hand could set tries to inject markup. */
function hostileReport(): Report {
  const replies = [
    { type: 'message', text: HOSTILE, replyTo: '"><script>alert(2)</script>' },
    { type: 'message', text: 'pick', buttons: ['<b>bold</b>', { id: '" onclick="alert(3)', label: '<i>x</i>' }] },
    {
      type: 'message',
      text: 'list',
      list: {
        button: '<u>open</u>',
        sections: [
          { title: '<h1>t</h1>', rows: [{ id: 'r', title: '</li><script>alert(4)</script>', description: '<svg onload=alert(5)>' }] },
        ],
      },
    },
    { type: 'message', text: 'link', link: { url: 'javascript:alert(6)', label: '"><svg onload=alert(7)>' } },
    { type: 'message', text: 'by url', image: { url: 'https://example.com/x.png" onerror="alert(8)' } },
    { type: 'message', text: 'html as image', image: { data: 'PHNjcmlwdD5hbGVydCg5KTwvc2NyaXB0Pg==', mime: 'text/html' } },
    { type: 'message', text: 'svg as image', image: { data: 'PHN2ZyBvbmxvYWQ9YWxlcnQoMTApPjwvc3ZnPg==', mime: 'image/svg+xml' } },
    { type: 'message', text: 'not base64', image: { data: '"><script>alert(11)</script>', mime: 'image/png' } },
    { type: 'template', name: '<x>', language: '<en>', parameters: ['<p>param</p>'] },
    { type: 'reaction', emoji: '<i>', messageId: 'p1' },
    { type: '<marquee>', what: '<blink>' },
  ];
  const findings = [finding('schema', '/replies/10/type', `unknown type "<marquee>" ${HOSTILE}`, 0, 10)];
  const person: PersonMessage = {
    text: `<script>alert(12)</script>`,
    attachments: [{ kind: 'image', mime: 'image/jpeg', name: '<x>.jpg', data: '<not>' }],
  };
  const first = turnOf('p1', person, { replies }, findings);
  const quality = caseOf(
    'quality/<auth>',
    'web',
    [turnOf('p2', { text: 'hi' }, '<html>', [finding('status', '', HOSTILE, 0, null)], `{"not": <b>json`)],
    [finding('auth', '', `run-wide ${HOSTILE}`, null, null)],
  );
  return reportOf([caseOf('typed', 'web', [first]), quality], 'http://127.0.0.1:1/"><script>alert(13)</script>');
}

describe('the HTML report: what a person could not have done, code as code, a JSON body as JSON', () => {
  test('a tap on a button whose reply was not sent is drawn as the check’s, not the person’s; backticked commands are <code>', async () => {
    // Four buttons: WhatsApp shows three, so the reply is not sent, and button-tap's second turn taps one of them.
    // Its text in paragraphs reads as a model's: the hint names the command that prints a model's instructions.
    const text = 'We have tables tonight.\n\nWhen would you like to come?';
    const agent = await serveAgent(() => ({ replies: [{ type: 'message', text, buttons: ['5 pm', '6 pm', '7 pm', '8 pm'] }] }));
    try {
      const report = await checkEndpoint(agent.url, { env: {}, cases: ['button-tap'] });
      const html = renderHtmlReport(report);
      assert.equal(report.cases[0]!.passed, false);
      assert.match(html, /<span class="tap-label">Sent by the check as a tap<\/span>/);
      assert.match(html, /no person could tap it/);
      assert.doesNotMatch(html, /<span class="tap-label">Tapped<\/span>/);
      assert.match(html, /<code>[^<`]*check-endpoint[^<`]* limits whatsapp --prompt<\/code>/);
      assert.doesNotMatch(html, /Fix:<\/span>[^<]*`/, 'no backtick is drawn in a Fix');
    } finally {
      await agent.close();
    }
  });

  test('a 401 with a JSON body quotes the body as JSON, with no escaped quotes', async () => {
    const agent = await serveAgent((request, raw) =>
      raw.headers.authorization
        ? { replies: [] }
        : new RawResponse(401, '{"error": "missing or wrong bearer token"}', { 'content-type': 'application/json' }),
    );
    try {
      const report = await checkEndpoint(agent.url, { env: {}, cases: ['typed'] });
      const [finding] = report.cases[0]!.findings;
      assert.equal(finding!.message, 'expected status 200, got 401: {"error":"missing or wrong bearer token"}');
      const html = renderHtmlReport(report);
      assert.ok(html.includes('got 401: {&quot;error&quot;:&quot;missing or wrong bearer token&quot;}'));
      assert.ok(!html.includes('\\&quot;'), 'no escaped quote');
    } finally {
      await agent.close();
    }
  });
});

describe('the HTML report: rendering', () => {
  test('agent text is escaped: markup shows as text, never as elements', () => {
    const page = renderHtmlReport(hostileReport());
    assert.match(page, /^<!doctype html>/);
    assert.ok(page.includes('&lt;img src=x onerror=alert(1)&gt;'), 'the hostile reply text appears, escaped');
    for (const raw of [HOSTILE, '<script>alert', '<svg', '<b>bold', '<i>x', '<h1>t', '<marquee', '<blink', '<u>open', '<x>', '<p>param']) {
      assert.ok(!page.includes(raw), `raw markup ${raw} must not appear`);
    }
    // Only the page's own script; no event handler attributes; every src a data: image; every href a fragment.
    assert.equal(page.match(/<script/g)?.length, 1);
    for (const [tag, attributes] of page.matchAll(/<[a-z][a-z0-9-]*((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*>/gi)) {
      for (const [, name] of attributes!.matchAll(/\s([^\s=>]+)(?:="[^"]*")?/g))
        assert.doesNotMatch(name!, /^on/i, `an event handler attribute in ${tag}`);
    }
    for (const [, src] of page.matchAll(/\ssrc="([^"]*)"/g)) assert.match(src!, /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/);
    for (const [, href] of page.matchAll(/\shref="([^"]*)"/g)) assert.match(href!, /^#[A-Za-z0-9_-]+$/);
    assert.doesNotMatch(page, /data:text\/html|data:image\/svg/);
    // An image by URL is named, never loaded.
    assert.ok(page.includes('https://example.com/x.png&quot; onerror=&quot;alert(8)'));
    assert.match(page, /Image by URL, not loaded here/);
    // Nothing may be fetched: the content security policy allows data: images and this page's own style and script only.
    const policy = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(page)?.[1]?.replaceAll('&#39;', "'");
    assert.match(policy ?? '', /^default-src 'none'; img-src data:; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'/);
  });

  test('a quality case, a body sent damaged and a run-wide finding render generically', () => {
    const page = renderHtmlReport(hostileReport());
    assert.match(page, /id="case-web-quality--auth-"/);
    assert.match(page, /href="#case-web-quality--auth-"/);
    assert.ok(page.includes('quality/&lt;auth&gt;'));
    assert.match(page, /Findings for the whole case/);
    assert.match(page, /run-wide &lt;img/);
    assert.match(page, /The body as sent/);
    assert.ok(page.includes('{&quot;not&quot;: &lt;b&gt;json'));
  });

  test('pure and bounded: the same report gives the same page; a flood of replies is cut short', () => {
    const report = hostileReport();
    assert.equal(renderHtmlReport(report), renderHtmlReport(report));
    const long = 'x'.repeat(5000);
    const flood = Array.from({ length: 20_000 }, (_, index) => ({ type: 'message', text: `${long} ${index}` }));
    const page = renderHtmlReport(reportOf([caseOf('typed', 'web', [turnOf('p1', { text: 'hi' }, { replies: flood })])]));
    assert.ok(page.length < 1_000_000, `the page stays small (${page.length} characters)`);
    assert.match(page, /19,975 more replies not drawn/);
    assert.match(page, /3,502 more characters not shown/);
  });

  test('a text past its soft length is drawn again beside the wall, cut into the bubbles the warning names', () => {
    const paragraph = 'Our oat latte is made fresh every morning. It comes in three sizes. ';
    const text = [1, 2, 3, 4].map((n) => `${n === 1 ? '' : `Part ${n}. `}${paragraph.repeat(4).trim()}`).join('\n\n');
    const [said] = validateAnswer({ replies: [{ type: 'message', text }] }, { channel: 'whatsapp' });
    assert.equal(said?.rule, 'bubbles');
    const bubbles = Number(/cut it into (\d+) bubbles/.exec(said.message)?.[1]);
    const warned: ReportedFinding = { ...said, turn: 0, reply: 0, reproduce: null };
    const page = renderHtmlReport(
      reportOf([caseOf('typed', 'whatsapp', [turnOf('p1', { text: 'menu?' }, { replies: [{ type: 'message', text }] }, [warned])])]),
    );
    assert.match(page, new RegExp(`aria-label="The same text as ${bubbles} chat bubbles, cut by the bubble rule"`));
    assert.match(page, /As \d+ bubbles, cut by the bubble rule \(soft length 700\):/);
    const preview = page.slice(page.indexOf('class="bubble-preview"'));
    assert.equal(preview.split('<div class="bubble from-agent">').length - 1, bubbles);
    assert.ok(preview.includes('Part 2. Our oat latte'));
    assert.doesNotMatch(
      renderHtmlReport(
        reportOf([caseOf('typed', 'whatsapp', [turnOf('p1', { text: 'menu?' }, { replies: [{ type: 'message', text }] })])]),
      ),
      /class="bubble-preview"/,
    );
  });

  test("a part is hidden by a schema or reference error at it, struck by a platform error; never hidden by a warning or a case's own rule", () => {
    const replies = [{ type: 'message', text: 'Ahoy there', image: { url: 'https://example.com/x.png' } }];
    const pageWith = (found: ReportedFinding): string =>
      renderHtmlReport(reportOf([caseOf('typed', 'web', [turnOf('p1', { text: 'hi' }, { replies }, [found])])]));
    const text = (page: string): boolean => page.includes('>Ahoy there</span>');
    const image = (page: string): boolean => page.includes('class="image-placeholder"');
    for (const rule of ['schema', 'reference'] as const) {
      const page = pageWith(finding(rule, '/replies/0/text', 'refused', 0, 0));
      assert.ok(!text(page) && image(page), `${rule} at /replies/0/text hides the text only`);
      assert.ok(page.includes('data-pointer="/replies/0/text"'), 'its finding is drawn');
    }
    // A platform's error names no limit here: the whole text is drawn, struck, and the image as it is.
    const struckPage = pageWith(finding('platform', '/replies/0/text', 'refused', 0, 0));
    assert.ok(text(struckPage) && image(struckPage), 'platform at /replies/0/text hides nothing');
    assert.match(struckPage, /<del class="at-fault" data-pointer="\/replies\/0\/text">.*Ahoy there/s);
    assert.ok(!image(pageWith(finding('schema', '/replies/0/image/url', 'refused', 0, 0))), 'an error under the image hides it');
    assert.ok(
      text(pageWith({ ...finding('platform', '/replies/0/text', 'shown raw', 0, 0), severity: 'warning' })),
      'a warning hides nothing',
    );
    assert.ok(text(pageWith(finding('acme/pirate-voice', '/replies/0/text', 'no Arr!', 0, 0))), "a case's own rule hides nothing");
  });

  test('image data is drawn only when its bytes start as the type its mime says', () => {
    const signatures: Record<string, number[]> = {
      'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
      'image/jpeg': [0xff, 0xd8, 0xff, 0xe0],
      'image/gif': [...Buffer.from('GIF89a')],
      'image/webp': [...Buffer.from('RIFF'), 0x24, 0, 0, 0, ...Buffer.from('WEBPVP8 ')],
    };
    for (const [mime, bytes] of Object.entries(signatures)) {
      const data = Buffer.from([...bytes, 0, 0, 0, 0]).toString('base64');
      assert.equal(imageData(mime, data)?.drawn, true, mime);
      for (const other of Object.keys(signatures).filter((type) => type !== mime)) {
        assert.equal(imageData(other, data)?.drawn, false, `${mime} bytes sent as ${other}`);
      }
    }
    assert.deepEqual(imageData('image/png', 'aGVsbG8='), { drawn: false, why: 'that is not a PNG', bytes: 5 });
    assert.deepEqual(imageData('image/heic', 'aGVsbG8='), { drawn: false, why: 'of type image/heic', bytes: 5 });
    assert.equal(imageData('image/png', 'not base64!'), undefined);
    assert.equal(imageData(null, 'aGVsbG8='), undefined);
  });

  test('a report of a check that could not run says why', async () => {
    const page = renderHtmlReport(
      errorReport(
        describePlannedRun(await planCheck('http://127.0.0.1:9/agent')),
        'Could not reach your agent at http://127.0.0.1:9/agent: refused',
      ),
    );
    assert.match(page, /The check could not run/);
    assert.match(page, /Could not reach your agent at http:\/\/127\.0\.0\.1:9\/agent: refused/);
  });
});

// ---------------------------------------------------------------------------------------------
// A real run rendered and opened in headless Chromium.

/** One agent, a different fixture per channel: failures of several kinds, warnings, and passes. */
const PER_CHANNEL: Record<string, string> = {
  whatsapp: 'four-buttons-on-button-tap', // platform: 4 buttons on button-tap
  sms: 'four-buttons-on-button-tap', // platform: no buttons on SMS
  imessage: 'silent', // warnings only: typed messages get no reply
  telegram: 'reaction-not-on-telegram-list', // platform: a reaction Telegram does not take
  web: 'html-on-typed', // json: the whole turn fails
};
const EXPECTED_FAILURES = new Set(['whatsapp/button-tap', 'sms/button-tap', 'telegram/double-text', 'web/typed']);
const EXPECTED_WARNINGS = new Set(['imessage/typed', 'imessage/double-text', 'imessage/button-tap']);

function fixture(name: string): AgentHandler {
  const agent = [...VALID_AGENTS, ...BROKEN_AGENTS].find((candidate) => candidate.name === name);
  assert.ok(agent, `fixture agent ${name}`);
  return agent.handler;
}

describe('the HTML report in a real browser', { timeout: 600_000 }, () => {
  let agent: RunningAgent;
  let reference: RunningAgent;
  let browser: Browser | undefined;
  let launchError: unknown;
  let tmp: string;
  /** The browser, or the reason it could not start: every test that needs it fails with that reason. */
  const chromiumPage = (target: string, width?: number) => {
    if (!browser) throw launchError;
    return openPage(browser, target, width);
  };
  let file: string;
  let report: Report;
  /** The previews of a passing run (the reference agent) and of a run with every reply kind on every channel. */
  let passingFile: string;
  let everyKindFile: string;
  let passing: Report;
  let everyKind: Report;
  let everyKindAgent: RunningAgent;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-html-'));
    // A browser that cannot start fails the tests that need it (never skips them), each saying why.
    browser = await launchChromium().catch((error: unknown) => {
      launchError = error;
      return undefined;
    });
    const handlers = Object.fromEntries(Object.entries(PER_CHANNEL).map(([channel, name]) => [channel, fixture(name)]));
    // A platform with no fixture of its own here gets the reference agent: it passes there.
    const passes = fixture('reference');
    agent = await serveAgent((request, raw) => (handlers[request.channel] ?? passes)(request, raw));
    reference = await startReferenceAgent();
    report = await checkEndpoint(agent.url, { channels: ['all'] });
    file = join(tmp, 'report.html');
    writeFileSync(file, renderHtmlReport(report));
    everyKindAgent = await serveAgent(everyReplyKindAgent());
    [passing, everyKind] = await Promise.all([
      checkEndpoint(reference.url, { channels: ['all'] }),
      checkEndpoint(everyKindAgent.url, { channels: ['all'] }),
    ]);
    passingFile = join(tmp, 'passing.html');
    everyKindFile = join(tmp, 'every-kind.html');
    writeFileSync(passingFile, renderHtmlReport(passing));
    writeFileSync(everyKindFile, renderHtmlReport(everyKind));
  });

  after(async () => {
    await Promise.all([agent?.close(), reference?.close(), everyKindAgent?.close(), browser?.close()]);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test('headless Chromium starts', async () => {
    const { page } = await chromiumPage(file);
    await page.close();
  });

  test('the run failed where the fixtures break it', () => {
    assert.equal(report.outcome, 'failed');
    const failed = report.cases.filter((caseReport) => !caseReport.passed).map((caseReport) => `${caseReport.channel}/${caseReport.id}`);
    assert.deepEqual(new Set(failed), EXPECTED_FAILURES);
  });

  test('the matrix: a row per channel, a column per case, each cell pass, warning or fail, linking to its conversation', async () => {
    const { page, requests, errors } = await chromiumPage(file);
    const rows = page.locator('table.matrix tbody tr');
    const matrix: {
      channel: string | null;
      cells: { caseId: string | null; state: string | null; text: string; href: string | null }[];
    }[] = [];
    for (let index = 0; index < (await rows.count()); index++) {
      const row = rows.nth(index);
      const cells = row.locator('td');
      const drawn = [];
      for (let cell = 0; cell < (await cells.count()); cell++) {
        const td = cells.nth(cell);
        drawn.push({
          caseId: await td.getAttribute('data-case'),
          state: await td.getAttribute('data-state'),
          text: (await td.innerText()).replace(/\s+/g, ' ').trim(),
          href: await td.locator('a').getAttribute('href'),
        });
      }
      matrix.push({ channel: await row.getAttribute('data-channel'), cells: drawn });
    }
    assert.deepEqual(
      matrix.map((row) => row.channel),
      CHANNELS,
    );
    const columns = (await page.locator('table.matrix thead th').allInnerTexts()).map((text) => text.trim());
    assert.deepEqual(columns, ['Channel', ...FIXED_CASE_IDS]);
    for (const row of matrix) {
      for (const cell of row.cells) {
        const key = `${row.channel}/${cell.caseId}`;
        const state = EXPECTED_FAILURES.has(key) ? 'fail' : EXPECTED_WARNINGS.has(key) ? 'warning' : 'pass';
        assert.equal(cell.state, state, key);
        assert.match(cell.text, { fail: /^✗ Fail/, warning: /^! Warning/, pass: /^✓ Pass/ }[state], key);
        assert.equal(cell.href, `#case-${row.channel}-${cell.caseId}`);
        assert.equal(await page.locator(`section.case[id="case-${row.channel}-${cell.caseId}"]`).count(), 1, `${key} has its conversation`);
      }
    }
    // Failing cells say why (the rule), at a glance.
    assert.match(matrix[0]!.cells[3]!.text, /Fail.*platform/);
    assert.match(matrix[4]!.cells[0]!.text, /Fail.*json/);
    // A link goes to its conversation.
    await page.click('table.matrix a[href="#case-telegram-double-text"]');
    // The browser follows a link just after the click or key press: wait for it (it fails at the test's timeout if it never does).
    await page.waitForURL((url) => url.hash === '#case-telegram-double-text');
    const box = await page.locator('#case-telegram-double-text').boundingBox();
    assert.ok(box && box.y >= 0 && box.y < 200, `the conversation is scrolled into view (top ${box?.y})`);
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, [pathToFileURL(file).href]);
    await page.close();
  });

  test('a reply the platform would not send is struck through, the part it refuses not drawn, with its rule and JSON pointer beside it', async () => {
    const { page, errors } = await chromiumPage(file);
    const section = page.locator('#case-whatsapp-button-tap');
    const struck = section.locator('li.row.not-sent');
    assert.equal(await struck.count(), 1);
    assert.match(await struck.locator('.not-sent-label').innerText(), /NOT SENT/);
    const decoration = await page.evaluate(
      "getComputedStyle(document.querySelector('#case-whatsapp-button-tap li.row.not-sent .bubble .text .text-body')).textDecorationLine",
    );
    assert.match(String(decoration), /line-through/);
    // Of the 4 buttons WhatsApp refuses, the 3 it would show are drawn, and the fourth struck at the finding's pointer.
    const chips = struck.locator('.chips .chip');
    assert.equal(await chips.count(), 4);
    assert.deepEqual(await chips.locator('.at-fault').evaluateAll((marks) => marks.map((mark) => mark.getAttribute('data-pointer'))), [
      '/replies/0/buttons',
    ]);
    assert.equal(await chips.nth(3).locator('.at-fault').count(), 1);
    const note = struck.locator('.finding[data-rule="platform"]');
    assert.ok(await note.isVisible());
    assert.equal(await note.locator('code.rule').innerText(), 'platform');
    assert.equal(await note.locator('code.pointer').innerText(), '/replies/0/buttons');
    assert.match(await note.innerText(), /4 buttons; WhatsApp shows at most 3/);
    // The tap that follows quotes the agent's message, and the agent's answer quotes the tap.
    assert.match(await section.locator('li.row.person').nth(1).innerText(), /Agent\s+When would you like to come\?[\s\S]*6 pm/);
    // A whole-turn failure shows on the turn: the web agent answered HTML.
    const refused = page.locator('#case-web-typed li.row.refused');
    assert.match(await refused.locator('.finding.error[data-rule="json"]').innerText(), /json\s+at\s+\(body\)/);
    // A reaction Telegram would not send is not drawn on the message it names: it is drawn beside, its emoji struck, its finding beside it.
    assert.equal(await page.locator('#case-telegram-double-text .row.person .reaction').count(), 0);
    assert.equal(
      await page.locator('#case-telegram-double-text li.row.not-sent .reaction-note .at-fault[data-pointer="/replies/0/emoji"]').count(),
      1,
    );
    assert.match(await page.locator('#case-telegram-double-text li.row.not-sent').innerText(), /\/replies\/0\/emoji/);
    // The person's photo (218 KB) is not in the report: the page names the file and its size.
    assert.equal(await page.locator('#case-whatsapp-photo img[alt^="Photo sent by the person"]').count(), 0);
    assert.match(await page.locator('#case-whatsapp-photo .file').first().innerText(), /image photo\.jpg \(image\/jpeg, 217,942 bytes\)/);
    // Turn latencies are shown.
    assert.match(await section.locator('.turn-chip').first().innerText(), /^Turn 1 · HTTP 200 · \d+ ms · 1 reply$/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the failures toggle works from the keyboard, hides passing conversations, and shows them again', async () => {
    const { page, requests, errors } = await chromiumPage(file);
    const toggle = page.locator('#failures-toggle');
    assert.equal(await toggle.evaluate((element) => element.tagName), 'BUTTON');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    // Reached with Tab from the matrix's last link.
    await page.focus('table.matrix tbody tr:last-child td:last-child a');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement && document.activeElement.id'), 'failures-toggle');
    const visible = () => page.locator('section.case:visible').evaluateAll((sections) => sections.map((section) => section.id));
    assert.equal((await visible()).length, CHANNELS.length * FIXED_CASE_IDS.length);

    await page.keyboard.press('Space');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    assert.deepEqual(new Set(await visible()), new Set([...EXPECTED_FAILURES].map((key) => `case-${key.replace('/', '-')}`)));
    assert.match(
      await page.locator('#toggle-status').innerText(),
      new RegExp(`only the 4 failing of ${CHANNELS.length * FIXED_CASE_IDS.length}`),
    );
    // A channel with no failure is hidden as a whole.
    assert.equal(await page.locator('section.channel-group[aria-labelledby="channel-imessage"]').isVisible(), false);
    await page.screenshot({ path: join(tmp, 'failures-only.png'), fullPage: true });
    copyFileSync(join(tmp, 'failures-only.png'), SCREENSHOT_FAILURES_COPY);

    await page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    assert.equal((await visible()).length, CHANNELS.length * FIXED_CASE_IDS.length);
    assert.match(
      await page.locator('#toggle-status').innerText(),
      new RegExp(`all ${CHANNELS.length * FIXED_CASE_IDS.length} conversations`),
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, [pathToFileURL(file).href]);
    await page.close();
  });

  test('the page makes no network request; the screenshot is saved', async () => {
    const { page, requests, errors } = await chromiumPage(file);
    const screenshot = join(tmp, 'report.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    assert.ok(statSync(screenshot).size > 50_000, 'a full-page screenshot');
    copyFileSync(screenshot, SCREENSHOT_COPY);
    assert.deepEqual(requests, [pathToFileURL(file).href], 'only the page itself was requested');
    assert.deepEqual(errors, []);
    // Prints: no toggle, every conversation.
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('.toolbar').isVisible(), false);
    assert.equal(await page.locator('section.case').count(), CHANNELS.length * FIXED_CASE_IDS.length);
    await page.close();
  });

  test('the runs behind the accessibility tests: one passes, one fails, one answers every reply kind on every channel', () => {
    assert.equal(passing.outcome, 'passed');
    assert.equal(passing.counts.cases, CHANNELS.length * FIXED_CASE_IDS.length);
    const kinds = sampleRepliesOfEveryKind().length;
    assert.ok(kinds >= 10, `the sample answers hold ${kinds} kinds of reply`);
    for (const channel of CHANNELS) {
      const turns = everyKind.cases.filter((caseReport) => caseReport.channel === channel).flatMap((caseReport) => caseReport.turns);
      assert.ok(turns.length > 0, channel);
      for (const turn of turns) {
        const { answer } = turn;
        assert.ok(typeof answer === 'object' && answer !== null && 'replies' in answer && Array.isArray(answer.replies), channel);
        assert.equal(answer.replies.length, kinds, `${channel}: every kind of reply in each answer`);
      }
    }
    // Each platform refuses some of them: struck through, with findings beside them.
    assert.ok(everyKind.cases.every((caseReport) => !caseReport.passed));
  });

  for (const [what, page] of [
    ['a passing run', () => passingFile],
    ['a failing run', () => file],
    ['a run with every reply kind on every channel', () => everyKindFile],
  ] as const) {
    test(`axe-core finds no violation on the preview of ${what}, wide and narrow, every curl command open`, async () => {
      for (const width of [1280, 390]) {
        const opened = await chromiumPage(page(), width);
        await opened.page.evaluate("document.querySelectorAll('details').forEach((details) => { details.open = true; })");
        const results = await runAxe(opened.page);
        assert.deepEqual(results.violations, [], `at ${width} px:\n${describeViolations(results)}`);
        // The rules ran on this page's content: colour contrast was checked on its text, and held.
        assert.ok(
          results.passes.some((rule) => rule.id === 'color-contrast'),
          'axe checked colour contrast',
        );
        assert.deepEqual(opened.errors, []);
        await opened.page.close();
      }
    });
  }

  test('with a dark colour scheme asked for, the page keeps its own light one, and axe finds no violation', async () => {
    const { page, errors } = await chromiumPage(everyKindFile);
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(await page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches"), true);
    // The page has no dark scheme: it says so (color-scheme: light), so the browser draws no dark
    // form control or scrollbar on its light colours.
    assert.equal(await page.evaluate('getComputedStyle(document.documentElement).colorScheme'), 'light');
    assert.equal(await page.evaluate('getComputedStyle(document.body).backgroundColor'), 'rgb(246, 247, 249)');
    const results = await runAxe(page);
    assert.deepEqual(results.violations, [], describeViolations(results));
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('nothing on the page moves, with prefers-reduced-motion or without', async () => {
    for (const reducedMotion of ['reduce', 'no-preference'] as const) {
      const { page, errors } = await chromiumPage(file);
      await page.emulateMedia({ reducedMotion });
      assert.equal(await page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches"), reducedMotion === 'reduce');
      await page.click('#failures-toggle');
      await page.click('#case-telegram-double-text summary');
      await page.click('table.matrix a[href="#case-web-no-reply"]');
      const moving = await page.evaluate(`(() => {
        const moving = [];
        for (const element of document.querySelectorAll('*')) {
          const style = getComputedStyle(element);
          if (style.animationName !== 'none' || style.transitionDuration.split(',').some((duration) => parseFloat(duration) > 0) || style.scrollBehavior === 'smooth')
            moving.push(element.tagName + '.' + element.className);
        }
        return { moving, animations: document.getAnimations().length };
      })()`);
      assert.deepEqual(moving, { moving: [], animations: 0 }, reducedMotion);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test('by keyboard alone: the skip link, every matrix link in order, the failures toggle, a conversation and its curl command', async () => {
    const { page, errors } = await chromiumPage(file);
    /** The focused element: its id, else its href, else its tag and class; and whether its focus ring shows. */
    const focused = async () => {
      const found: unknown = await page.evaluate(`(() => {
        const element = document.activeElement;
        const style = getComputedStyle(element);
        return {
          name: element.id || element.getAttribute('href') || element.tagName.toLowerCase() + '.' + element.className,
          ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
          section: element.closest('section.case')?.id ?? null,
        };
      })()`);
      return found as { name: string; ring: boolean; section: string | null };
    };
    const tab = async (key = 'Tab') => {
      await page.keyboard.press(key);
      return focused();
    };
    const channels = CHANNELS;
    const cases = FIXED_CASE_IDS;
    const links = channels.flatMap((channel) => cases.map((id) => `#case-${channel}-${id}`));

    // From the top: the skip link shows when focused, then What to fix (each problem's rule and
    // conversations), then the matrix (its scrolling region, then each cell's link, row by row),
    // then the toggle. Every stop shows a focus ring.
    const fixLinks = (await page
      .locator('#what-to-fix a')
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')))) as string[];
    assert.ok(fixLinks.length > 0, 'What to fix links to rules and conversations');
    const stops = [];
    for (let index = 0; index < fixLinks.length + links.length + 3; index++) stops.push(await tab());
    assert.deepEqual(
      stops.map((stop) => stop.name),
      ['#conversations-title', ...fixLinks, 'div.table-wrap', ...links, 'failures-toggle'],
    );
    assert.deepEqual(
      stops.filter((stop) => !stop.ring).map((stop) => stop.name),
      [],
      'a visible focus ring on every stop',
    );

    // The toggle by Space; then Shift+Tab back to a passing cell that it hid (the matrix's last), Enter: everything shows again, there.
    const lastCell = links.at(-1)!;
    await page.keyboard.press('Space');
    assert.equal(await page.locator('#failures-toggle').getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator(lastCell).isVisible(), false);
    assert.equal((await tab('Shift+Tab')).name, lastCell);
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#failures-toggle').getAttribute('aria-pressed'), 'false');
    await page.waitForURL((url) => url.hash === lastCell);
    assert.ok(await page.locator(lastCell).isVisible());
    // The next Tab goes on inside that conversation: its link back to the matrix, which goes back.
    assert.deepEqual(await tab(), { name: '#matrix', ring: true, section: lastCell.slice(1) });
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.hash === '#matrix');
    assert.equal((await tab()).name, 'div.table-wrap');

    // To a failing conversation, and its curl command: Enter opens it, Space closes it.
    const telegram = links.indexOf('#case-telegram-double-text');
    for (let index = 0; index <= telegram; index++) await tab();
    assert.equal((await focused()).name, '#case-telegram-double-text');
    await page.keyboard.press('Enter');
    assert.equal((await tab()).name, '#matrix');
    const summary = await tab();
    assert.deepEqual(summary, { name: 'summary.', ring: true, section: 'case-telegram-double-text' });
    const details = page.locator('#case-telegram-double-text details.reproduce').first();
    assert.equal(await details.evaluate((element) => element.hasAttribute('open')), false);
    await page.keyboard.press('Enter');
    assert.equal(await details.evaluate((element) => element.hasAttribute('open')), true);
    assert.match(await details.locator('pre').innerText(), /^curl /);
    await page.keyboard.press('Space');
    assert.equal(await details.evaluate((element) => element.hasAttribute('open')), false);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('hostile answers stay text in the browser: no injected element, no script runs', async () => {
    const hostile = join(tmp, 'hostile.html');
    writeFileSync(hostile, renderHtmlReport(hostileReport()));
    const { page, requests, errors, dialogs } = await chromiumPage(hostile);
    assert.equal(await page.locator('img[src="x"]').count(), 0);
    assert.equal(await page.locator('main svg, main marquee, main h1, main b, main i').count(), 0);
    assert.equal(await page.locator('script').count(), 1);
    const handlers = await page.evaluate(
      "[...document.querySelectorAll('*')].flatMap((element) => [...element.attributes].map((attribute) => attribute.name)).filter((name) => name.startsWith('on'))",
    );
    assert.deepEqual(handlers, []);
    assert.ok(await page.getByText(HOSTILE, { exact: true }).first().isVisible());
    // Every image has loaded or failed (an injected onerror would have run): the page is complete.
    await page.waitForFunction(`${READY} && [...document.images].every((image) => image.complete)`);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, [pathToFileURL(hostile).href]);
    await page.close();
  });

  test('check-endpoint <url> --html FILE writes the page and says where', async () => {
    const out = join(tmp, 'cli', 'preview.html');
    const result = await runCli([reference.url, '--channel', 'whatsapp', '--channel', 'sms', '--html', out]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(
      result.stdout.split('\n').some((line) => line.includes(out) && /html/i.test(line)),
      `the output names the file:\n${result.stdout}`,
    );
    const page = readFileSync(out, 'utf8');
    assert.match(page, /^<!doctype html>/);
    assert.match(page, /id="case-whatsapp-typed"/);
    assert.match(page, /id="case-sms-no-reply"/);
  });
});
