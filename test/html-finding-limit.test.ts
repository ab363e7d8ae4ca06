/**
 * The HTML page draws which part a platform would not send (the rows past the count, the buttons
 * past the count, a text past its length) from the finding's `limit`, never from its message: a
 * report whose every message is reworded draws the same, and a report from before findings carried
 * a limit draws the whole part struck. A real check, in this process, against the bundled contract
 * (every limit read from it); its report matches spec/report.schema.json.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { createAjv } from '../src/contract/ajv.js';
import type { Report, ReportedFinding } from '../src/core/report.js';
import { bundledContract, checkEndpoint } from '../src/index.js';
import { renderHtmlReport } from '../src/report/html.js';
import { limit } from './answer-helpers.js';
import { ROOT } from './helpers.js';

const validateReport = createAjv().compile(JSON.parse(readFileSync(join(ROOT, 'spec/report.schema.json'), 'utf8')));

const { whatsapp, sms } = bundledContract().platforms;
const MAX_ROWS = limit(whatsapp?.list?.maxRows, 'whatsapp list.maxRows');
const MAX_BUTTONS = limit(whatsapp?.buttons?.maxCount, 'whatsapp buttons.maxCount');
const BODY_MAX = limit(whatsapp?.buttons?.bodyMaxLength, 'whatsapp buttons.bodyMaxLength');
const SMS_MAX = limit(sms?.text?.maxLength, 'sms text.maxLength');

/** The words past a text's limit: all that is drawn struck of it. */
const PAST = 'PAST THE LIMIT';
/** Exactly at the limit, then PAST: on WhatsApp in code points; on SMS in GSM-7 septets, `{` taking 2 (counted in code points, the cut would fall one later). */
const WHATSAPP_TEXT = `${'a'.repeat(BODY_MAX)}${PAST}`;
const SMS_TEXT = `{${'a'.repeat(SMS_MAX - 2)}${PAST}`;

const rows = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `item_${index + 1}`, title: `Item ${index + 1}` }));

const REPLIES: Record<string, unknown[]> = {
  whatsapp: [
    { type: 'message', text: 'What can I get you?', list: { button: 'Menu', sections: [{ title: 'Menu', rows: rows(MAX_ROWS + 1) }] } },
    { type: 'message', text: 'pick', buttons: Array.from({ length: MAX_BUTTONS + 1 }, (_, index) => `Option ${index + 1}`) },
    { type: 'message', text: WHATSAPP_TEXT, buttons: ['OK'] },
  ],
  sms: [{ type: 'message', text: SMS_TEXT }],
};

async function agent(request: Request): Promise<Response> {
  if (request.method !== 'POST') return new Response(null, { status: 204 });
  const { channel } = (await request.json()) as { channel: string };
  return Response.json({ replies: REPLIES[channel] ?? [] });
}

/** The report with each finding (and problem) changed: its message reworded, or its limit taken away. */
function eachFinding(report: Report, change: (finding: ReportedFinding) => ReportedFinding): Report {
  const copy = JSON.parse(JSON.stringify(report)) as Report;
  for (const caseReport of copy.cases) {
    caseReport.findings = caseReport.findings.map(change);
    for (const turn of caseReport.turns) turn.findings = turn.findings.map(change);
    for (const play of caseReport.plays) {
      play.findings = play.findings.map(change);
      for (const turn of play.turns) turn.findings = turn.findings.map(change);
    }
  }
  return copy;
}

const REWORDED = 'Reworded: this is not sent, for no reason these words name';

function reworded(report: Report): Report {
  const copy = eachFinding(report, (finding) => ({ ...finding, message: REWORDED }));
  for (const problem of copy.problems ?? []) problem.message = REWORDED;
  return copy;
}

/** As a report written before findings carried their limit. */
function withoutLimits(report: Report): Report {
  return eachFinding(report, ({ limit: _limit, ...finding }) => finding);
}

/** One conversation's markup on the page: from its section to the next. */
function conversation(page: string, channel: string): string {
  const start = page.indexOf(`id="case-${channel}-typed"`);
  assert.ok(start > 0, `the page has the conversation of typed on ${channel}`);
  const end = page.indexOf('<section', start);
  return page.slice(start, end === -1 ? undefined : end);
}

/** Whether each item of a kind (`<li class="list-row"`, `<li class="chip" title=`) in the markup is drawn struck. */
function struckItems(markup: string, opening: string): boolean[] {
  return markup
    .split(opening)
    .slice(1)
    .map((item) => item.slice(0, item.indexOf('</li>')).includes('class="at-fault"'));
}

/** Of a text at a pointer: the text drawn as sent, and the text drawn struck. */
function textParts(markup: string, pointer: string): { sent: string; struck: string } {
  const paragraph = new RegExp(
    `<p class="text" dir="auto">(?:<span class="text-body">([^<]*)</span>(?:<span class="clipped">[^<]*</span>)?)?` +
      `<del class="at-fault" data-pointer="${pointer}"><span class="sr-only">[^<]*</span><span class="text-body">([^<]*)</span>`,
  ).exec(markup);
  assert.ok(paragraph, `a text struck at ${pointer}`);
  return { sent: paragraph[1] ?? '', struck: paragraph[2]! };
}

/** Past a count, one struck: `false` the first `count` times, then `true`. */
const pastCount = (count: number): boolean[] => [...Array<boolean>(count).fill(false), true];

describe("the HTML page draws what is not sent from the finding's limit, not its words", () => {
  let report: Report;

  before(async () => {
    report = await checkEndpoint(agent, { env: {}, cases: ['typed'], channels: ['whatsapp', 'sms'] });
    assert.equal(report.outcome, 'failed');
  });

  test("the findings carry the bundled contract's limits, and the report matches spec/report.schema.json", () => {
    assert.ok(validateReport(JSON.parse(JSON.stringify(report))), JSON.stringify(validateReport.errors));
    const limits = report.cases.flatMap((caseReport) =>
      caseReport.findings.filter((finding) => finding.limit).map(({ path, limit }) => ({ channel: caseReport.channel, path, limit })),
    );
    assert.deepEqual(limits, [
      {
        channel: 'whatsapp',
        path: '/replies/0/list/sections',
        limit: { key: 'list.maxRows', max: MAX_ROWS, counts: 'rows', measured: MAX_ROWS + 1 },
      },
      {
        channel: 'whatsapp',
        path: '/replies/1/buttons',
        limit: { key: 'buttons.maxCount', max: MAX_BUTTONS, counts: 'items', measured: MAX_BUTTONS + 1 },
      },
      {
        channel: 'whatsapp',
        path: '/replies/2/text',
        limit: { key: 'buttons.bodyMaxLength', max: BODY_MAX, counts: 'codepoints', measured: BODY_MAX + PAST.length },
      },
      {
        channel: 'sms',
        path: '/replies/0/text',
        limit: { key: 'text.maxLength', max: SMS_MAX, counts: 'gsm7-septets', measured: SMS_MAX + PAST.length },
      },
    ]);
  });

  for (const [name, reportFor] of [
    ['as reported', (drawn: Report) => drawn],
    ['with every message reworded', reworded],
  ] as const) {
    test(`${name}: the row past ${MAX_ROWS} struck, the button past ${MAX_BUTTONS} struck, each text struck from where its limit ends`, () => {
      const changed = reportFor(report);
      if (changed !== report) {
        assert.ok(
          changed.cases.every((caseReport) => caseReport.findings.every((finding) => finding.message === REWORDED)),
          'no finding says its limit in words',
        );
      }
      const page = renderHtmlReport(changed);
      const whatsappMarkup = conversation(page, 'whatsapp');
      assert.deepEqual(struckItems(whatsappMarkup, '<li class="list-row"'), pastCount(MAX_ROWS));
      assert.deepEqual(struckItems(whatsappMarkup, '<li class="chip" title='), [...pastCount(MAX_BUTTONS), false]);
      assert.deepEqual(textParts(whatsappMarkup, '/replies/2/text'), { sent: 'a'.repeat(BODY_MAX), struck: PAST });
      const smsText = textParts(conversation(page, 'sms'), '/replies/0/text');
      assert.equal(smsText.struck, PAST, 'cut where the GSM-7 septets reach the limit');
      assert.ok(smsText.sent.startsWith('{a'), smsText.sent.slice(0, 20));
    });
  }

  test('a report whose limits are not what a report holds (null, a string, a limit with no max) draws as one without them, and does not throw', () => {
    const old = renderHtmlReport(withoutLimits(report));
    for (const hostile of [null, 'ten', { counts: 'rows' }, { max: 'ten', counts: 'items' }, []]) {
      // A report is data another version, or a hand, wrote: its types are not the TypeScript's.
      const changed = eachFinding(report, (finding) =>
        finding.limit ? ({ ...finding, limit: hostile } as unknown as ReportedFinding) : finding,
      );
      const page = renderHtmlReport(changed);
      assert.deepEqual(
        struckItems(conversation(page, 'whatsapp'), '<li class="list-row"'),
        struckItems(conversation(old, 'whatsapp'), '<li class="list-row"'),
        JSON.stringify(hostile),
      );
    }
  });

  test('a list row whose description alone is past its limit: its description struck, its title drawn as sent', async () => {
    const DESCRIPTION_MAX = limit(whatsapp?.list?.rowDescriptionMaxLength, 'whatsapp list.rowDescriptionMaxLength');
    const long = { id: 'long', title: 'Fits', description: 'd'.repeat(DESCRIPTION_MAX + 1) };
    const drawn = await checkEndpoint(
      async (request: Request) =>
        request.method === 'POST'
          ? Response.json({ replies: [{ type: 'message', text: 'Pick', list: { button: 'Menu', sections: [{ rows: [long] }] } }] })
          : new Response(null, { status: 204 }),
      { env: {}, cases: ['typed'], channels: ['whatsapp'] },
    );
    assert.ok(
      drawn.cases[0]!.findings.some((finding) => finding.path === '/replies/0/list/sections/0/rows/0/description'),
      JSON.stringify(drawn.cases[0]!.findings),
    );
    const row = conversation(renderHtmlReport(drawn), 'whatsapp').split('<li class="list-row"')[1]!;
    assert.match(row, /<span class="row-title">Fits<\/span>/, 'the title, as sent');
    assert.match(
      row,
      /<span class="row-description"><del class="at-fault" data-pointer="\/replies\/0\/list\/sections\/0\/rows\/0\/description">/,
    );
  });

  test('a report from before findings carried their limit: each part past a limit struck whole, its words not read', () => {
    const old = withoutLimits(report);
    assert.ok(
      old.cases.some((caseReport) => caseReport.findings.some((finding) => /shows at most \d+/.test(finding.message))),
      'the messages still say the limit in words',
    );
    const page = renderHtmlReport(old);
    const whatsappMarkup = conversation(page, 'whatsapp');
    assert.deepEqual(struckItems(whatsappMarkup, '<li class="list-row"'), Array<boolean>(MAX_ROWS + 1).fill(true));
    assert.deepEqual(struckItems(whatsappMarkup, '<li class="chip" title='), [...Array<boolean>(MAX_BUTTONS + 1).fill(true), false]);
    assert.equal(textParts(whatsappMarkup, '/replies/2/text').sent, '', 'the whole text struck');
    assert.equal(textParts(conversation(page, 'sms'), '/replies/0/text').sent, '', 'the whole text struck');
  });
});
