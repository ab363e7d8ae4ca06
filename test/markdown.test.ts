/**
 * Markdown a platform shows raw: a warning (rule platform) for each kind of Markdown syntax a text
 * holds that its platform does not render, as `x-platforms.*.markdown` says; never on web. Plain
 * text that only holds Markdown's characters gives nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { type PlatformRules, checkEndpoint, validateAnswer } from '../src/index.js';
import { MARKDOWN_SYNTAXES, markdownIn } from '../src/platforms/markdown.js';
import { PLATFORMS, answer, message, rulesOf, shapes } from './answer-helpers.js';

const SAMPLES = {
  bold: 'One **Large** latte, please.',
  heading: '# Opening hours\nMon to Fri 8 to 6',
  link: 'See [our menu](https://example.com/menu) for more.',
  table: '| Drink | Price |\n|---|---|\n| Latte | $5 |',
  'code-fence': 'Your code:\n```\nABC123\n```',
} as const;

const ALL_AT_ONCE = Object.values(SAMPLES).join('\n\n');

function markdownWarnings(text: string, channel: string, limits?: PlatformRules) {
  return validateAnswer(answer(message({ text })), { channel, ...(limits ? { limits } : {}) }).filter(
    (finding) => finding.rule === 'platform' && finding.severity === 'warning' && /Markdown/.test(finding.message),
  );
}

describe('each kind of Markdown is found whole', () => {
  for (const syntax of MARKDOWN_SYNTAXES) {
    it(`${syntax}: ${JSON.stringify(SAMPLES[syntax])}`, () => {
      assert.deepEqual(
        markdownIn(SAMPLES[syntax]).map((found) => found.syntax),
        [syntax],
      );
    });
  }

  const plain: [string, string][] = [
    ['a lone asterisk', '5 * 3 = 15, and *that* is all'],
    ['two asterisks with spaces around', 'a ** b ** c'],
    ['a lone #', 'We are #1 in town, order #42 is ready'],
    ['a # with nothing after it', '#\n# '],
    ['a hashtag at the start of a line', '#latte'],
    ['prices with pipes', 'Small $5 | Large $7'],
    ['price lines with pipes', 'Latte | $5\nMocha | $6'],
    ['a URL', 'See https://example.com/menu_(2024)?a=[1] for more'],
    ['a bracket note', 'Order [1] is ready (table 4)'],
    ['a horizontal rule', 'Thanks\n\n---\n\nBye'],
    ['two backticks', 'type ``this``'],
  ];
  for (const [what, text] of plain) {
    it(`plain text is not Markdown: ${what}`, () => {
      assert.deepEqual(markdownIn(text), []);
      for (const channel of PLATFORMS) assert.deepEqual(markdownWarnings(text, channel), [], `${channel}: ${text}`);
    });
  }
});

describe('what each platform renders comes from x-platforms', () => {
  const expected: Record<(typeof PLATFORMS)[number], string[]> = {
    sms: ['bold', 'heading', 'link', 'table', 'code-fence'],
    imessage: ['bold', 'heading', 'link', 'table', 'code-fence'],
    whatsapp: ['bold', 'heading', 'link', 'table'],
    telegram: ['bold', 'heading', 'table'],
    web: [],
  };
  for (const channel of PLATFORMS) {
    it(`${channel}: warns on ${expected[channel].join(', ') || 'nothing'}`, () => {
      const rules = rulesOf(channel);
      assert.ok(rules.markdown, `${channel} says what it renders`);
      assert.deepEqual(
        MARKDOWN_SYNTAXES.filter((syntax) => !rules.markdown!.renders.includes(syntax)),
        expected[channel],
      );
      const warnings = markdownWarnings(ALL_AT_ONCE, channel);
      assert.equal(warnings.length, expected[channel].length, warnings.map((w) => w.message).join('\n'));
      for (const warning of warnings) assert.equal(warning.path, '/replies/0/text');
    });
  }

  it('one warning per kind, however many times it appears', () => {
    assert.equal(markdownWarnings('**a** and **b** and **c**', 'sms').length, 1);
  });

  it('a custom channel whose limits say nothing of Markdown is not checked for it; one that does is', () => {
    const custom: PlatformRules = { title: 'Matrix', counting: 'codepoints' };
    assert.deepEqual(markdownWarnings(ALL_AT_ONCE, 'matrix', custom), []);
    assert.equal(markdownWarnings(ALL_AT_ONCE, 'matrix', { ...custom, markdown: { renders: ['link'] } }).length, 4);
  });

  it('an image caption is a text too', () => {
    const findings = validateAnswer(answer(message({ text: SAMPLES.bold, image: { url: 'https://example.com/a.jpg' } })), {
      channel: 'whatsapp',
    });
    assert.deepEqual(shapes(findings), ['platform warning /replies/0/text']);
  });

  it('a text too long to be sent gets its error, not Markdown warnings besides', () => {
    const text = `${SAMPLES.bold} ${'a'.repeat(4096)}`;
    assert.deepEqual(shapes(validateAnswer(answer(message({ text })), { channel: 'whatsapp' })), ['platform error /replies/0/text']);
  });
});

describe('the warning says what the person sees and how to write it instead', () => {
  test('**bold** on WhatsApp: the asterisks show; its own bold is *bold*', () => {
    const [warning] = markdownWarnings(SAMPLES.bold, 'whatsapp');
    assert.ok(warning);
    assert.equal(
      warning.message,
      'the text holds Markdown bold ("**Large**"); WhatsApp does not render it, so the person sees the asterisks around the words',
    );
    assert.equal(warning.hint, "WhatsApp's own bold is *bold*: write *Large*. For a model: `check-endpoint limits whatsapp --prompt`");
  });

  test('**bold** on SMS: no bold at all', () => {
    assert.equal(
      markdownWarnings(SAMPLES.bold, 'sms')[0]?.hint,
      'SMS shows no bold: write Large without the asterisks. For a model: `check-endpoint limits sms --prompt`',
    );
  });

  test('a heading on iMessage, and on WhatsApp with its own bold', () => {
    const [imessage] = markdownWarnings(SAMPLES.heading, 'imessage');
    assert.match(imessage!.message, /the person sees the # signs/);
    assert.equal(
      imessage!.hint,
      'iMessage shows no headings: write "Opening hours" as a plain line. For a model: `check-endpoint limits imessage --prompt`',
    );
    assert.equal(
      markdownWarnings(SAMPLES.heading, 'whatsapp')[0]?.hint,
      'WhatsApp shows no headings: write "Opening hours" as a plain line, or in bold: *Opening hours*. For a model: `check-endpoint limits whatsapp --prompt`',
    );
  });

  test('a link on SMS: write the URL itself', () => {
    const [warning] = markdownWarnings(SAMPLES.link, 'sms');
    assert.match(warning!.message, /brackets, and the URL in parentheses/);
    assert.equal(
      warning!.hint,
      'Write the URL itself (our menu: https://example.com/menu): SMS shows a bare URL as a link. For a model: `check-endpoint limits sms --prompt`',
    );
  });

  test('a table on Telegram, a code fence on iMessage', () => {
    assert.match(markdownWarnings(SAMPLES.table, 'telegram')[0]!.hint!, /one line per row/);
    assert.match(markdownWarnings(SAMPLES['code-fence'], 'imessage')[0]!.message, /the person sees the ``` lines/);
  });

  test('never a failure: the answer is valid, the warnings fail only under --strict', () => {
    for (const finding of validateAnswer(answer(message({ text: ALL_AT_ONCE })), { channel: 'sms' })) {
      assert.equal(finding.severity, 'warning', finding.message);
    }
  });
});

describe('a Markdown-happy agent, checked live', () => {
  let agent: RunningAgent | undefined;
  before(async () => {
    agent = await serveAgent((request) =>
      request.message.text === 'ok thanks 👍'
        ? { replies: [] }
        : { replies: [{ type: 'message', text: '**Sure!** Here is what we have:\n\n| Drink | Price |\n|---|---|\n| Latte | $5 |' }] },
    );
  });
  after(async () => {
    await agent?.close();
  });

  test('is warned on SMS and WhatsApp, and not on web; every case still passes', async () => {
    const report = await checkEndpoint(agent!.url, { channels: ['sms', 'whatsapp', 'web'] });
    assert.equal(report.outcome, 'passed');
    const warned = (channel: string) =>
      report.cases
        .filter((c) => c.channel === channel)
        .flatMap((c) => c.findings)
        .filter((f) => /Markdown/.test(f.message))
        .map((f) => f.message.replace(/ \(.*\);/, ';'));
    assert.ok(warned('sms').length > 0);
    assert.ok(warned('whatsapp').length > 0);
    assert.deepEqual(warned('web'), []);
    assert.ok(warned('whatsapp').some((message) => message.startsWith('the text holds Markdown bold')));
    assert.ok(warned('whatsapp').some((message) => message.startsWith('the text holds a Markdown table')));
  });
});
