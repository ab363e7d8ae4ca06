/**
 * `check-endpoint limits CHANNEL --prompt`: a system-prompt paragraph made from the channel's limits,
 * and `--json` the same as data. Every figure the paragraph states is one of the spec's own for that
 * channel (derived here from the spec, never written down), and the figures a model needs are all there.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createAjv } from '../src/contract/ajv.js';
import { knownChannels } from '../src/contract/contract.js';
import { bundledContract } from '../src/contract/load-contract.js';
import type { PlatformRules } from '../src/platforms/platform-rules.js';
import { modelInstructions } from '../src/report/limits-prompt.js';
import { validateAnswer } from '../src/index.js';
import { ROOT, runCli } from './helpers.js';

const contract = bundledContract();
const PLATFORMS = knownChannels(contract);

/** Every number anywhere in a channel's rules (its sources' prose aside). */
function figuresOf(rules: PlatformRules): Set<number> {
  const figures = new Set<number>();
  const walk = (value: unknown): void => {
    if (typeof value === 'number') figures.add(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null)
      for (const [key, item] of Object.entries(value)) if (key !== 'sources') walk(item);
  };
  walk(rules);
  return figures;
}

/** The figures a paragraph states: its numbers, less the digits of names (GSM-7, UCS-2, MarkdownV2). */
function figuresIn(paragraph: string): number[] {
  const words = paragraph.replace(/GSM-7|UCS-2|MarkdownV2/g, '');
  return [...words.matchAll(/\d[\d,]*/g)].map((match) => Number(match[0].replace(/,/g, '')));
}

describe("limits --prompt: every figure is the spec's", () => {
  for (const channel of PLATFORMS) {
    const rules = contract.platforms[channel]!;
    test(channel, () => {
      const { prompt } = modelInstructions(channel, rules);
      const spec = figuresOf(rules);
      const stated = figuresIn(prompt);
      assert.ok(stated.length > 0, 'it states figures');
      for (const figure of stated) assert.ok(spec.has(figure), `${figure} is not one of ${channel}'s figures: ${prompt}`);
      // The figures a model needs, each stated.
      const needed = [
        rules.text?.maxLength,
        rules.text?.softLength,
        rules.buttons?.support === 'yes' ? rules.buttons.maxCount : undefined,
        rules.buttons?.support === 'yes' ? rules.buttons.labelMaxLength : undefined,
        rules.list?.support === 'yes' ? rules.list.maxRows : undefined,
        rules.segments?.gsm7.single,
        rules.segments?.ucs2.single,
      ].filter((figure): figure is number => figure !== undefined);
      for (const figure of needed) assert.ok(stated.includes(figure), `${channel}: ${figure} is stated`);
    });
  }
});

describe('limits --prompt: what each platform renders, and choices without buttons', () => {
  const promptOf = (channel: string) => modelInstructions(channel, contract.platforms[channel]!).prompt;
  test("WhatsApp: its own *bold*, Markdown's **bold** never", () => {
    assert.match(promptOf('whatsapp'), /WhatsApp renders \*bold\* \(one \* on each side\)/);
    assert.match(
      promptOf('whatsapp'),
      /it shows \*\*bold\*\*, # headings, \[label\]\(url\) links and pipe tables as typed, so never write them/,
    );
  });
  test('Telegram: MarkdownV2, as the spec names it', () => {
    assert.equal(contract.platforms.telegram!.markdown?.dialect, 'MarkdownV2');
    assert.match(promptOf('telegram'), /Telegram renders MarkdownV2: /);
  });
  for (const channel of ['sms', 'imessage']) {
    test(`${channel}: no Markdown at all, and a numbered list for choices`, () => {
      assert.match(promptOf(channel), /shows plain text only: write no Markdown at all/);
      assert.match(promptOf(channel), /shows no buttons or lists: write the options as a numbered list/);
    });
  }
  test("SMS: the characters that force UCS-2 are the GSM-7 table's verdict", () => {
    const { sms } = modelInstructions('sms', contract.platforms.sms!);
    assert.ok(sms);
    for (const character of sms.forcesUcs2) {
      const [finding] = validateAnswer(
        { replies: [{ type: 'message', text: `${character}${'a'.repeat(sms.ucs2Single)}` }] },
        { channel: 'sms' },
      );
      assert.match(finding!.message, /in UCS-2/, character);
    }
    assert.match(modelInstructions('sms', contract.platforms.sms!).prompt, /such as — – ’/);
  });
  test('a custom channel, from its rules', () => {
    const acme: PlatformRules = {
      title: 'Acme',
      counting: 'codepoints',
      text: { maxLength: 500, softLength: 200 },
      buttons: { support: 'no' },
    };
    const { prompt } = modelInstructions('acme', acme);
    assert.match(prompt, /Keep each message under 200 characters/);
    assert.match(prompt, /over 500 characters is not sent/);
  });
});

describe('check-endpoint limits CHANNEL --prompt', () => {
  test('prints the paragraph alone; with --json, the same in each platform entry, valid against the report schema', async () => {
    const text = await runCli(['limits', 'whatsapp', '--prompt']);
    assert.equal(text.code, 0, text.stderr);
    const expected = modelInstructions('whatsapp', contract.platforms.whatsapp!);
    assert.equal(text.stdout.trim(), expected.prompt);

    const json = await runCli(['limits', 'whatsapp', 'sms', '--prompt', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const document = JSON.parse(json.stdout);
    const ajv = createAjv();
    ajv.addSchema(JSON.parse(readFileSync(join(ROOT, 'spec/platform-limits.schema.json'), 'utf8')));
    const reportSchema = JSON.parse(readFileSync(join(ROOT, 'spec/report.schema.json'), 'utf8'));
    ajv.addSchema(reportSchema);
    const validate = ajv.getSchema(`${reportSchema.$id}#/$defs/limitsReport`)!;
    assert.ok(validate(document), JSON.stringify(validate.errors));
    const { channel: _channel, ...whatsapp } = expected;
    assert.deepEqual(document.platforms[0].prompt, whatsapp);
    assert.equal(document.platforms[1].prompt.softLength, null);
    assert.equal(document.platforms[1].prompt.sms.gsm7Single, contract.platforms.sms!.segments!.gsm7.single);
  });

  test('several channels: each paragraph under its channel name', async () => {
    const result = await runCli(['limits', 'sms', 'imessage', '--prompt']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^sms:\nYou write the messages this agent sends on SMS\./m);
    assert.match(result.stdout, /^imessage:\nYou write the messages this agent sends on iMessage\./m);
  });
});

describe('the Markdown, length, button and SMS hints name the command where the reply reads as a model wrote it', () => {
  const hints = (answer: unknown, channel: string) => validateAnswer(answer, { channel }).map((finding) => finding.hint ?? '');
  const ends = (channel: string) => new RegExp(`For a model: \`check-endpoint limits ${channel} --prompt\`$`);
  const message = (extra: Record<string, unknown>) => ({ replies: [{ type: 'message', ...extra }] });
  /** A model's reply: a paragraph, then a bulleted list. */
  const modelText = 'Here is what we have today.\n\n- Latte\n- Tea';
  test('each ends with it', () => {
    const cases: [unknown, string][] = [
      [message({ text: 'a **Large** latte' }), 'whatsapp'],
      [message({ text: 'x'.repeat(4097) }), 'telegram'],
      [message({ text: modelText, buttons: ['a', 'b', 'c', 'd'] }), 'whatsapp'],
      [message({ text: modelText, buttons: ['a much too long label for a button'] }), 'whatsapp'],
      [message({ text: modelText, buttons: ['a'] }), 'sms'],
      [message({ text: 'a'.repeat(200) }), 'sms'],
    ];
    for (const [answer, channel] of cases) {
      const said = hints(answer, channel);
      assert.ok(said.length > 0);
      for (const hint of said) assert.match(hint, ends(channel), `${channel}: ${hint}`);
    }
  });
  test('a short hand-written line with buttons: the hint says how to fix the reply, nothing of a model', () => {
    const cases: [unknown, string][] = [
      [message({ text: 'What can I get you?', buttons: ['a', 'b', 'c', 'd'] }), 'whatsapp'],
      [message({ text: 'What can I get you?', buttons: ['a much too long label for a button'] }), 'whatsapp'],
      [message({ text: 'What can I get you?', buttons: ['Coffee', 'Tea'] }), 'sms'],
    ];
    for (const [answer, channel] of cases) {
      const said = hints(answer, channel);
      assert.ok(said.length > 0);
      for (const hint of said) assert.doesNotMatch(hint, /For a model/, `${channel}: ${hint}`);
    }
  });
});
