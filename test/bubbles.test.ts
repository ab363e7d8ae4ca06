/**
 * The bubble rule (contract, "Chat bubbles") as a pure function, table-driven at its boundaries, and
 * rule `bubbles`: at the soft length no warning, one over a warning that says how the rule would cut
 * the text; only on the channels whose limits give a soft length. Every figure comes from the spec.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bundledContract, validateAnswer } from '../src/index.js';
import { cutIntoBubbles } from '../src/platforms/bubbles.js';
import { sliceMeasure } from '../src/platforms/counting.js';

const contract = bundledContract();
const platforms = contract.platforms;

/** The bubbles' texts, cut with the given soft length (and hard limit), counted in code points. */
function cut(text: string, softLength: number, hardLimit?: number): string[] {
  const limits = { softLength, ...(hardLimit !== undefined ? { hardLimit } : {}) };
  return cutIntoBubbles(text, limits, sliceMeasure(text, 'codepoints')).map((bubble) => bubble.text);
}

const words = (count: number, word = 'word'): string => Array.from({ length: count }, () => word).join(' ');

describe('the bubble rule', () => {
  const cases: { name: string; text: string; soft: number; hard?: number; bubbles: string[] }[] = [
    {
      name: 'a paragraph break ends a bubble',
      text: 'Hello there.\n\nHow can I help?',
      soft: 100,
      bubbles: ['Hello there.', 'How can I help?'],
    },
    { name: 'several blank lines are one break', text: 'One.\n\n\n\nTwo.', soft: 100, bubbles: ['One.', 'Two.'] },
    { name: 'a single line break is no paragraph break', text: 'One line\nand the next', soft: 100, bubbles: ['One line\nand the next'] },
    {
      name: 'a lead-in line ending with ":" keeps the next paragraph',
      text: 'Here is our menu:\n\nLatte $5',
      soft: 100,
      bubbles: ['Here is our menu:\n\nLatte $5'],
    },
    {
      name: 'items of one list stay together',
      text: '- Latte\n\n- Mocha\n\n- Tea\n\nAnything else?',
      soft: 100,
      bubbles: ['- Latte\n\n- Mocha\n\n- Tea', 'Anything else?'],
    },
    {
      name: 'a numbered list stays together, and "1. " is no sentence end',
      text: '1. Latte\n\n2. Mocha',
      soft: 5,
      bubbles: ['1. Latte', '2. Mocha'],
    },
    {
      name: 'past the soft length, a lead-in no longer holds the next paragraph',
      text: `${words(5)}:\n\nrest`,
      soft: 10,
      bubbles: [`${words(5)}:`, 'rest'],
    },
    {
      name: 'within the soft length, sentence ends do not cut',
      text: 'One. Two! Three? Four… Five.',
      soft: 28,
      bubbles: ['One. Two! Three? Four… Five.'],
    },
    {
      name: 'past the soft length, the next sentence end cuts (". ", "! ", "? ", "… ")',
      text: 'One. Two! Three? Four… Five.',
      soft: 3,
      bubbles: ['One.', 'Two!', 'Three?', 'Four…', 'Five.'],
    },
    {
      name: 'a sentence end exactly at the soft length does not cut; the next one past it does',
      text: 'abcd. efgh. ijkl.',
      soft: 5,
      bubbles: ['abcd. efgh.', 'ijkl.'],
    },
    {
      name: 'never inside a fenced code block',
      text: 'Run this:\n\n```\nnpm install\n\nnpm test. Then more.\n```\n\nDone.',
      soft: 5,
      bubbles: ['Run this:', '```\nnpm install\n\nnpm test. Then more.\n```', 'Done.'],
    },
    {
      name: 'inside a code block past the hard limit: at the last line break or space before it',
      text: '```\naaaa bbbb\ncccc dddd\n```',
      soft: 5,
      hard: 13,
      bubbles: ['```\naaaa bbbb', 'cccc dddd\n```'],
    },
    { name: 'no place to cut: one bubble', text: words(50), soft: 10, bubbles: [words(50)] },
  ];
  for (const { name, text, soft, hard, bubbles } of cases) {
    test(name, () => assert.deepEqual(cut(text, soft, hard), bubbles));
  }

  test('a bubble never passes the hard limit', () => {
    const text = `\`\`\`\n${words(400)}\n\`\`\``;
    for (const bubble of cut(text, 100, 700)) assert.ok(Array.from(bubble).length <= 700, `${Array.from(bubble).length}`);
  });
});

/** A reply on a channel: its `bubbles` findings. */
function bubbleFindings(text: string, channel: string, limits?: Parameters<typeof validateAnswer>[1]['limits']) {
  return validateAnswer({ replies: [{ type: 'message', text }] }, { channel, ...(limits ? { limits } : {}) }).filter(
    (finding) => finding.rule === 'bubbles',
  );
}

/** A text of exactly `length` characters in paragraphs of sentences, with places to cut. */
function chatText(length: number): string {
  const paragraph = `${'Our oat latte is made fresh. '.repeat(6).trim()}\n\n`;
  return paragraph.repeat(Math.ceil(length / paragraph.length) + 1).slice(0, length - 1) + '.';
}

describe('rule bubbles', () => {
  const soft = Object.entries(platforms).filter(([, rules]) => rules.text?.softLength !== undefined);

  test("the soft lengths are the contract's: telegram 900, whatsapp 700, imessage 400, and no other platform has one", () => {
    assert.deepEqual(Object.fromEntries(soft.map(([channel, rules]) => [channel, rules.text!.softLength])), {
      whatsapp: 700,
      imessage: 400,
      telegram: 900,
    });
    assert.equal(contract.rules.bubbles?.level, 'should');
  });

  for (const [channel, rules] of soft) {
    const softLength = rules.text!.softLength!;
    test(`${channel}: at the soft length (${softLength}) no warning; one over, a warning that says where the rule cuts`, () => {
      assert.deepEqual(bubbleFindings(chatText(softLength), channel), []);
      const over = chatText(softLength + 1);
      const [finding, ...rest] = bubbleFindings(over, channel);
      assert.deepEqual(rest, []);
      assert.equal(finding?.severity, 'warning');
      assert.equal(finding.path, '/replies/0/text');
      assert.match(
        finding.message,
        new RegExp(`^the text is ${softLength + 1} characters long, past ${rules.title}'s soft length of ${softLength}`),
      );
      const count = Number(/cut it into (\d+) bubbles/.exec(finding.message)?.[1]);
      assert.equal(
        count,
        cutIntoBubbles(over, { softLength, hardLimit: rules.text!.maxLength! }, sliceMeasure(over, rules.counting)).length,
      );
      assert.match(finding.message, /starting at character 1 "Our oat latte is…", at character \d+ "Our oat latte is…"/);
      assert.match(finding.hint!, new RegExp(`For a model: \`check-endpoint limits ${channel} --prompt\`$`));
    });
  }

  test('a long text with no place to cut is warned of once, for its length', () => {
    const [finding] = bubbleFindings('a'.repeat(701), 'whatsapp');
    assert.match(finding!.message, /finds no place to cut it/);
  });

  test('never on sms or web, nor on a custom channel without a soft length; on one whose limits file gives one', () => {
    const long = chatText(2000);
    assert.deepEqual(bubbleFindings(long.slice(0, 1500), 'sms'), []);
    assert.deepEqual(bubbleFindings(long, 'web'), []);
    assert.deepEqual(bubbleFindings(long, 'acme'), []);
    assert.deepEqual(bubbleFindings(long, 'acme', { title: 'Acme', counting: 'codepoints', text: { maxLength: 4096 } }), []);
    const custom = bubbleFindings(long, 'acme', { title: 'Acme', counting: 'codepoints', text: { maxLength: 4096, softLength: 300 } });
    assert.equal(custom.length, 1);
    assert.match(custom[0]!.message, /past Acme's soft length of 300/);
  });

  test('a text past the hard limit gets rule platform (not sent), not the bubble warning', () => {
    const findings = validateAnswer({ replies: [{ type: 'message', text: chatText(4097) }] }, { channel: 'whatsapp' });
    assert.deepEqual(
      findings.map((finding) => finding.rule),
      ['platform'],
    );
  });
});
