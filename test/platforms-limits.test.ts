/**
 * Walks every limit of every platform in the loaded contract: an answer exactly at the limit gives
 * no error, one unit over gives exactly one `platform` error at the exact JSON pointer. The
 * builders are a table keyed by the limit's path in a platform's rules, and a test checks that the
 * table covers every limit the spec has, so a new limit without a test fails.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LimitCount, PlatformRules, Support } from '../src/index.js';
import { validateAnswer } from '../src/index.js';
import { withoutVariationSelectors } from '../src/platforms/emoji.js';
import { platformLimitsSchema } from '../src/contract/load-contract.js';
import { answer, contract, errorsOf, imageData, limit, message, shapes } from './answer-helpers.js';

type Answer = { replies: unknown[] };

/**
 * `n` units of text in the platform's own counting unit. Astral emoji make a wrong unit show:
 * where code points are counted each emoji is 1; where UTF-16 is counted each is 2.
 */
function fill(n: number, rules: PlatformRules): string {
  if (rules.counting === 'codepoints') return '😀'.repeat(n);
  return '😀'.repeat(Math.floor(n / 2)) + (n % 2 === 1 ? 'a' : '');
}

const IMAGE_URL = 'https://example.com/photo.jpg';
const row = (id: string, title = 'Row') => ({ id, title });

interface Boundary {
  /** An answer exactly at the limit: no error. */
  at: Answer;
  /** The same answer one over: exactly one platform error, at `path`. */
  over: Answer;
  path: string;
  /**
   * Other errors the over answer cannot avoid, as `rule severity path`. Only WhatsApp's lists
   * need it: 10 sections and 10 rows in all, so an 11th section is also an 11th row.
   */
  alsoOver?: string[];
}

type Build = (n: number, rules: PlatformRules) => Boundary;

/** One builder per numeric limit of a platform's rules (spec/platform-limits.schema.json). */
const LIMITS: Record<string, Build> = {
  'text.maxLength': (n, rules) => ({
    at: answer(message({ text: fill(n, rules) })),
    over: answer(message({ text: fill(n + 1, rules) })),
    path: '/replies/0/text',
  }),
  'buttons.maxCount': (n) => {
    const buttons = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `b${i}`, label: `B${i}` }));
    return {
      at: answer(message({ text: 'Pick one', buttons: buttons(n) })),
      over: answer(message({ text: 'Pick one', buttons: buttons(n + 1) })),
      path: '/replies/0/buttons',
    };
  },
  'buttons.labelMaxLength': (n, rules) => ({
    at: answer(message({ text: 'Pick one', buttons: [{ id: 'b', label: fill(n, rules) }] })),
    over: answer(message({ text: 'Pick one', buttons: [{ id: 'b', label: fill(n + 1, rules) }] })),
    path: '/replies/0/buttons/0/label',
  }),
  'buttons.idMaxLength': (n, rules) => ({
    at: answer(message({ text: 'Pick one', buttons: [{ id: fill(n, rules), label: 'B' }] })),
    over: answer(message({ text: 'Pick one', buttons: [{ id: fill(n + 1, rules), label: 'B' }] })),
    path: '/replies/0/buttons/0/id',
  }),
  'buttons.idMaxBytes': (n) => ({
    at: answer(message({ text: 'Pick one', buttons: [{ id: 'a'.repeat(n), label: 'B' }] })),
    over: answer(message({ text: 'Pick one', buttons: [{ id: 'a'.repeat(n + 1), label: 'B' }] })),
    path: '/replies/0/buttons/0/id',
  }),
  'buttons.bodyMaxLength': (n, rules) => ({
    at: answer(message({ text: fill(n, rules), buttons: ['OK'] })),
    over: answer(message({ text: fill(n + 1, rules), buttons: ['OK'] })),
    path: '/replies/0/text',
  }),
  'list.maxSections': (n, rules) => {
    const list = (count: number) => ({
      button: 'Open',
      sections: Array.from({ length: count }, (_, i) => ({ title: `S${i}`, rows: [row(`r${i}`)] })),
    });
    const maxRows = rules.list?.maxRows;
    return {
      at: answer(message({ text: 'Pick one', list: list(n) })),
      over: answer(message({ text: 'Pick one', list: list(n + 1) })),
      path: '/replies/0/list/sections',
      alsoOver: maxRows !== undefined && n + 1 > maxRows ? ['platform error /replies/0/list/sections'] : [],
    };
  },
  'list.maxRows': (n) => {
    const list = (count: number) => ({ button: 'Open', sections: [{ rows: Array.from({ length: count }, (_, i) => row(`r${i}`)) }] });
    return {
      at: answer(message({ text: 'Pick one', list: list(n) })),
      over: answer(message({ text: 'Pick one', list: list(n + 1) })),
      path: '/replies/0/list/sections',
    };
  },
  'list.buttonMaxLength': (n, rules) => ({
    at: answer(message({ text: 'Pick one', list: { button: fill(n, rules), sections: [{ rows: [row('r')] }] } })),
    over: answer(message({ text: 'Pick one', list: { button: fill(n + 1, rules), sections: [{ rows: [row('r')] }] } })),
    path: '/replies/0/list/button',
  }),
  'list.sectionTitleMaxLength': (n, rules) => ({
    at: answer(message({ text: 'Pick one', list: { button: 'Open', sections: [{ title: fill(n, rules), rows: [row('r')] }] } })),
    over: answer(message({ text: 'Pick one', list: { button: 'Open', sections: [{ title: fill(n + 1, rules), rows: [row('r')] }] } })),
    path: '/replies/0/list/sections/0/title',
  }),
  'list.rowTitleMaxLength': (n, rules) => ({
    at: answer(message({ text: 'Pick one', list: { button: 'Open', sections: [{ rows: [row('r', fill(n, rules))] }] } })),
    over: answer(message({ text: 'Pick one', list: { button: 'Open', sections: [{ rows: [row('r', fill(n + 1, rules))] }] } })),
    path: '/replies/0/list/sections/0/rows/0/title',
  }),
  'list.rowDescriptionMaxLength': (n, rules) => ({
    at: answer(
      message({ text: 'Pick one', list: { button: 'Open', sections: [{ rows: [{ ...row('r'), description: fill(n, rules) }] }] } }),
    ),
    over: answer(
      message({ text: 'Pick one', list: { button: 'Open', sections: [{ rows: [{ ...row('r'), description: fill(n + 1, rules) }] }] } }),
    ),
    path: '/replies/0/list/sections/0/rows/0/description',
  }),
  'list.rowIdMaxLength': (n, rules) => ({
    at: answer(message({ text: 'Pick one', list: { button: 'Open', sections: [{ rows: [row(fill(n, rules))] }] } })),
    over: answer(message({ text: 'Pick one', list: { button: 'Open', sections: [{ rows: [row(fill(n + 1, rules))] }] } })),
    path: '/replies/0/list/sections/0/rows/0/id',
  }),
  'list.bodyMaxLength': (n, rules) => ({
    at: answer(message({ text: fill(n, rules), list: { button: 'Open', sections: [{ rows: [row('r')] }] } })),
    over: answer(message({ text: fill(n + 1, rules), list: { button: 'Open', sections: [{ rows: [row('r')] }] } })),
    path: '/replies/0/text',
  }),
  'link.labelMaxLength': (n, rules) => ({
    at: answer(message({ text: 'See the menu', link: { url: 'https://example.com/menu', label: fill(n, rules) } })),
    over: answer(message({ text: 'See the menu', link: { url: 'https://example.com/menu', label: fill(n + 1, rules) } })),
    path: '/replies/0/link/label',
  }),
  'link.bodyMaxLength': (n, rules) => ({
    at: answer(message({ text: fill(n, rules), link: { url: 'https://example.com/menu', label: 'Menu' } })),
    over: answer(message({ text: fill(n + 1, rules), link: { url: 'https://example.com/menu', label: 'Menu' } })),
    path: '/replies/0/text',
  }),
  'image.maxBytes': (n, rules) => {
    const mime = rules.image?.mimeTypes?.[0] ?? 'image/png';
    return {
      at: answer(message({ image: { data: imageData(n), mime } })),
      over: answer(message({ image: { data: imageData(n + 1), mime } })),
      path: '/replies/0/image/data',
    };
  },
  'image.captionMaxLength': (n, rules) => ({
    at: answer(message({ text: fill(n, rules), image: { url: IMAGE_URL } })),
    over: answer(message({ text: fill(n + 1, rules), image: { url: IMAGE_URL } })),
    path: '/replies/0/text',
  }),
};

/**
 * SMS segment sizes give warnings, not errors: at a size the text needs `segments` parts, one
 * character more needs one part more. GSM-7 is plain ASCII; UCS-2 is Cyrillic (one unit each).
 */
const SEGMENT_LIMITS: Record<string, (n: number) => { at: string; over: string; segments: number; encoding: string }> = {
  'segments.gsm7.single': (n) => ({ at: 'a'.repeat(n), over: 'a'.repeat(n + 1), segments: 1, encoding: 'GSM-7' }),
  'segments.gsm7.concatenated': (n) => ({ at: 'a'.repeat(2 * n), over: 'a'.repeat(2 * n + 1), segments: 2, encoding: 'GSM-7' }),
  'segments.ucs2.single': (n) => ({ at: 'ж'.repeat(n), over: 'ж'.repeat(n + 1), segments: 1, encoding: 'UCS-2' }),
  'segments.ucs2.concatenated': (n) => ({ at: 'ж'.repeat(2 * n), over: 'ж'.repeat(2 * n + 1), segments: 2, encoding: 'UCS-2' }),
};

/**
 * Soft lengths give the `bubbles` warning, not an error: at the soft length one reply is fine, one
 * character more reads as a wall of text the bubble rule would cut (test/bubbles.test.ts has the
 * rule's cuts). The text is sentences, so the rule has places to cut.
 */
const SOFT_LIMITS: Record<string, (n: number) => { at: string; over: string }> = {
  'text.softLength': (n) => {
    const sentences = (length: number) => 'We are open until nine tonight. '.repeat(Math.ceil(length / 32) + 1).slice(0, length);
    return { at: sentences(n), over: sentences(n + 1) };
  },
};

/**
 * What a person can send (`person`): not limits on replies, but bounds on what --explore sends; each
 * with the test that holds the explorer's messages to it.
 */
const PERSON_LIMITS: Record<string, string> = {
  'person.textMaxLength': 'test/explore.test.ts: the longest text is exactly at it, on each platform',
  'person.attachmentsAtOnce': 'test/explore.test.ts: several files in one message only up to it',
  'person.captionMaxLength': 'test/explore.test.ts: every caption within it',
};

/** Keys that are not numeric limits, each with the test below that covers it. */
const OTHER_KEYS: Record<string, string> = {
  title: 'findings name the platform (see "support no")',
  counting: 'fill() counts in the platform unit; test/platforms-counting.test.ts',
  sources: 'documentation only',
  'buttons.support': 'support',
  'list.support': 'support',
  'link.support': 'support',
  'image.support': 'support',
  'reaction.support': 'support',
  'template.support': 'support',
  'replyTo.support': 'support',
  'list.sectionTitleRequiredWhenSeveral': 'section titles',
  'link.labelShown': 'link labels not shown',
  'image.mimeTypes': 'image types',
  'reaction.emoji': 'reaction emoji',
  'markdown.renders': 'test/markdown.test.ts',
  'markdown.bold': "test/markdown.test.ts (the hint names the platform's own bold)",
  'markdown.dialect': 'test/limits-prompt.test.ts (the prompt names the dialect: MarkdownV2)',
};

/** Every numeric value in a platform's rules, by dotted path. */
function numericLimits(rules: unknown, prefix: string[] = []): { key: string; value: number }[] {
  if (typeof rules === 'number') return [{ key: prefix.join('.'), value: rules }];
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) return [];
  return Object.entries(rules).flatMap(([key, value]) => numericLimits(value, [...prefix, key]));
}

type Schema = Record<string, unknown>;

/** Every leaf property of spec/platform-limits.schema.json, by dotted path, and whether it is a number. */
function schemaLeaves(): { key: string; numeric: boolean }[] {
  const root = platformLimitsSchema();
  const resolve = (schema: Schema): Schema => {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    const name = ref.replace('#/$defs/', '');
    return resolve((root.$defs as Record<string, Schema>)[name]!);
  };
  const walk = (schema: Schema, prefix: string[]): { key: string; numeric: boolean }[] => {
    const resolved = resolve(schema);
    const properties = resolved.properties as Record<string, Schema> | undefined;
    if (properties && resolved.type === 'object') {
      return Object.entries(properties).flatMap(([key, child]) => walk(child, [...prefix, key]));
    }
    return [{ key: prefix.join('.'), numeric: resolved.type === 'integer' || resolved.type === 'number' }];
  };
  return walk(root, []);
}

describe('the limit table covers the spec', () => {
  it('has a builder for every numeric key of every platform in the contract', () => {
    const missing = Object.entries(contract.platforms).flatMap(([channel, rules]) =>
      numericLimits(rules)
        .filter(({ key }) => !(key in LIMITS) && !(key in SEGMENT_LIMITS) && !(key in SOFT_LIMITS) && !(key in PERSON_LIMITS))
        .map(({ key }) => `${channel}: ${key}`),
    );
    assert.deepEqual(missing, []);
  });

  it('has a builder for every numeric property of spec/platform-limits.schema.json, and no stale one', () => {
    const numeric = schemaLeaves()
      .filter((leaf) => leaf.numeric)
      .map((leaf) => leaf.key)
      .sort();
    assert.deepEqual(
      numeric,
      [...Object.keys(LIMITS), ...Object.keys(SEGMENT_LIMITS), ...Object.keys(SOFT_LIMITS), ...Object.keys(PERSON_LIMITS)].sort(),
    );
  });

  it('names a test for every other property of the platform-limits schema', () => {
    const other = schemaLeaves()
      .filter((leaf) => !leaf.numeric)
      .map((leaf) => leaf.key)
      .sort();
    assert.deepEqual(other, Object.keys(OTHER_KEYS).sort());
  });
});

for (const [channel, rules] of Object.entries(contract.platforms)) {
  describe(`${channel}: every numeric limit, at and one over`, () => {
    for (const { key, value } of numericLimits(rules).filter(({ key }) => key in LIMITS)) {
      it(`${key} = ${value}`, () => {
        const { at, over, path, alsoOver = [] } = LIMITS[key]!(value, rules);
        assert.deepEqual(shapes(errorsOf(validateAnswer(at, { channel }))), [], 'at the limit');
        const findings = validateAnswer(over, { channel });
        assert.deepEqual(shapes(findings), [`platform error ${path}`, ...alsoOver], 'one over the limit');
        assert.match(findings[0]!.message, new RegExp(`at most ${value}\\b`));
        assert.ok(findings[0]!.message.includes(rules.title), 'the message names the platform');
      });
    }
    for (const { key, value } of numericLimits(rules).filter(({ key }) => key in SEGMENT_LIMITS)) {
      it(`${key} = ${value} (a warning)`, () => {
        const { at, over, segments, encoding } = SEGMENT_LIMITS[key]!(value);
        const expectSegments = (text: string, count: number) => {
          const findings = validateAnswer(answer(message({ text })), { channel });
          if (count === 1) return assert.deepEqual(shapes(findings), []);
          assert.deepEqual(shapes(findings), ['platform warning /replies/0/text']);
          assert.match(findings[0]!.message, new RegExp(`\\b${count} SMS segments in ${encoding}\\b`));
        };
        expectSegments(at, segments);
        expectSegments(over, segments + 1);
      });
    }
    for (const { key, value } of numericLimits(rules).filter(({ key }) => key in SOFT_LIMITS)) {
      it(`${key} = ${value} (a warning, rule bubbles)`, () => {
        const { at, over } = SOFT_LIMITS[key]!(value);
        assert.deepEqual(shapes(validateAnswer(answer(message({ text: at })), { channel })), [], 'at the soft length');
        const findings = validateAnswer(answer(message({ text: over })), { channel });
        assert.deepEqual(shapes(findings), ['bubbles warning /replies/0/text'], 'one over the soft length');
        assert.match(findings[0]!.message, new RegExp(`\\b${value}\\b`));
      });
    }
  });
}

/** What each limit counts, where it is no length of text (a text's is its platform's unit). */
const COUNTED: Record<string, LimitCount> = {
  'buttons.maxCount': 'items',
  'list.maxSections': 'sections',
  'list.maxRows': 'rows',
  'buttons.idMaxBytes': 'utf8-bytes',
  'image.maxBytes': 'bytes',
};

/** The unit fill() measures a text in: on SMS its emoji make the text UCS-2. */
const TEXT_COUNT: Record<PlatformRules['counting'], LimitCount> = { codepoints: 'codepoints', utf16: 'utf16', sms: 'ucs2-code-units' };

for (const [channel, rules] of Object.entries(contract.platforms)) {
  describe(`${channel}: a finding one over a limit carries it as data, the contract's value`, () => {
    for (const { key, value } of numericLimits(rules).filter(({ key }) => key in LIMITS)) {
      it(`${key} = ${value}`, () => {
        const { over, path } = LIMITS[key]!(value, rules);
        const found = validateAnswer(over, { channel }).find((finding) => finding.path === path);
        const held = found?.limit;
        assert.ok(held, `the finding at ${path} carries its limit: ${JSON.stringify(found)}`);
        assert.equal(held.max, value, "the limit is the contract's value");
        // The key names where it stands in the platform's rules; a text held to equal limits names the first of them.
        assert.equal(numericLimits(rules).find((entry) => entry.key === held.key)?.value, value, `${held.key} is ${value} in x-platforms`);
        if (!(key.endsWith('bodyMaxLength') || key === 'image.captionMaxLength')) assert.equal(held.key, key);
        assert.equal(held.counts, COUNTED[key] ?? TEXT_COUNT[rules.counting]);
        assert.equal(held.measured, value + 1, 'one over');
      });
    }
    for (const { key, value } of numericLimits(rules).filter(({ key }) => key in SOFT_LIMITS)) {
      it(`${key} = ${value} (the bubbles warning)`, () => {
        const [found] = validateAnswer(answer(message({ text: SOFT_LIMITS[key]!(value).over })), { channel });
        assert.deepEqual(found?.limit, { key, max: value, counts: TEXT_COUNT[rules.counting], measured: value + 1 });
      });
    }
  });
}

describe('an SMS text over its limit is counted in its encoding', () => {
  const max = limit(contract.platforms.sms?.text?.maxLength, 'sms text.maxLength');
  it('GSM-7 septets: an extension character takes 2', () => {
    const [found] = validateAnswer(answer(message({ text: `{${'a'.repeat(max - 1)}` })), { channel: 'sms' });
    assert.deepEqual(found?.limit, { key: 'text.maxLength', max, counts: 'gsm7-septets', measured: max + 1 });
  });
  it('UCS-2 code units: a character outside GSM-7 makes the whole text UCS-2', () => {
    const [found] = validateAnswer(answer(message({ text: `ж${'a'.repeat(max)}` })), { channel: 'sms' });
    assert.deepEqual(found?.limit, { key: 'text.maxLength', max, counts: 'ucs2-code-units', measured: max + 1 });
  });
});

describe('a finding over no count or length carries no limit', () => {
  it('buttons where the platform shows none, a section with no title', () => {
    const none = validateAnswer(answer(message({ text: 'Pick one', buttons: ['Yes', 'No'] })), { channel: 'sms' });
    assert.deepEqual(shapes(none), ['platform error /replies/0/buttons']);
    assert.equal(none[0]!.limit, undefined);
    const sections = [{ rows: [row('a')] }, { rows: [row('b')] }];
    const untitled = validateAnswer(answer(message({ text: 'Pick one', list: { button: 'Open', sections } })), { channel: 'whatsapp' });
    assert.ok(untitled.length > 0 && untitled.every((finding) => finding.limit === undefined), JSON.stringify(untitled));
  });
});

/** A minimal valid reply that carries one feature, and where a "not shown" error points. */
const FEATURES: Record<string, { reply: Record<string, unknown>; path: string }> = {
  buttons: { reply: message({ text: 'Pick one', buttons: ['Yes', 'No'] }), path: '/replies/0/buttons' },
  list: { reply: message({ text: 'Pick one', list: { button: 'Open', sections: [{ rows: [row('r1')] }] } }), path: '/replies/0/list' },
  link: { reply: message({ text: 'Our menu', link: { url: 'https://example.com/menu', label: 'Menu' } }), path: '/replies/0/link' },
  image: { reply: message({ image: { url: IMAGE_URL } }), path: '/replies/0/image' },
  reaction: { reply: { type: 'reaction', emoji: '👍', messageId: 'm1' }, path: '/replies/0' },
  template: { reply: { type: 'template', name: 'order_ready', language: 'en_US', parameters: ['42'] }, path: '/replies/0' },
  replyTo: { reply: message({ text: 'Sure', replyTo: 'm1' }), path: '/replies/0/replyTo' },
};

describe('support: no, ignored, yes', () => {
  it('knows every feature with a support setting', () => {
    const supported = schemaLeaves()
      .filter((leaf) => leaf.key.endsWith('.support'))
      .map((leaf) => leaf.key.replace('.support', ''))
      .sort();
    assert.deepEqual(supported, Object.keys(FEATURES).sort());
  });

  for (const [channel, rules] of Object.entries(contract.platforms)) {
    for (const [feature, { reply, path }] of Object.entries(FEATURES)) {
      const support = (rules[feature as keyof PlatformRules] as { support?: Support } | undefined)?.support;
      it(`${channel}: ${feature} is "${support}"`, () => {
        assert.ok(support, `${channel} says nothing about ${feature}`);
        const findings = validateAnswer(answer(reply), { channel, personMessageIds: ['m1'] });
        if (support === 'no') {
          assert.deepEqual(shapes(findings), [`platform error ${path}`]);
          assert.match(findings[0]!.message, new RegExp(`^${rules.title} shows no .*not sent`));
          assert.ok(findings[0]!.hint, 'a hint says what to send instead');
        } else {
          assert.deepEqual(shapes(findings), []);
        }
      });
    }
  }

  it('a reply not sent is not also measured: an SMS with buttons and a too long text gets one finding', () => {
    const text = 'a'.repeat(limit(contract.platforms.sms?.text?.maxLength, 'SMS text limit') + 1);
    assert.deepEqual(shapes(validateAnswer(answer(message({ text, buttons: ['Yes'] })), { channel: 'sms' })), [
      'platform error /replies/0/buttons',
    ]);
  });
});

describe('section titles', () => {
  const twoSections = (second: Record<string, unknown>) =>
    answer(message({ text: 'Pick one', list: { button: 'Open', sections: [{ title: 'Hot', rows: [row('r1')] }, second] } }));
  for (const [channel, rules] of Object.entries(contract.platforms)) {
    if (rules.list?.support !== 'yes') continue;
    it(`${channel}: a second section without a title ${rules.list.sectionTitleRequiredWhenSeveral ? 'is' : 'is not'} an error`, () => {
      const findings = validateAnswer(twoSections({ rows: [row('r2')] }), { channel });
      assert.deepEqual(shapes(findings), rules.list?.sectionTitleRequiredWhenSeveral ? ['platform error /replies/0/list/sections/1'] : []);
      assert.deepEqual(shapes(validateAnswer(twoSections({ title: 'Cold', rows: [row('r2')] }), { channel })), []);
    });
    it(`${channel}: a single section needs no title`, () => {
      const single = answer(message({ text: 'Pick one', list: { button: 'Open', sections: [{ rows: [row('r1')] }] } }));
      assert.deepEqual(shapes(validateAnswer(single, { channel })), []);
    });
  }
});

describe('link labels not shown', () => {
  const shownNot = Object.entries(contract.platforms).filter(
    ([, rules]) => rules.link?.support === 'yes' && rules.link.labelShown === false,
  );
  it('the contract has a platform that ignores link labels (iMessage)', () => {
    assert.ok(shownNot.length > 0);
  });
  for (const [channel] of shownNot) {
    it(`${channel}: any label length passes`, () => {
      const reply = message({ text: 'Our menu', link: { url: 'https://example.com/menu', label: 'x'.repeat(10_000) } });
      assert.deepEqual(shapes(validateAnswer(answer(reply), { channel })), []);
    });
  }
});

describe('image types', () => {
  const withMime = (mime: string) => answer(message({ image: { data: imageData(3), mime } }));
  for (const [channel, rules] of Object.entries(contract.platforms)) {
    if (rules.image?.support !== 'yes') continue;
    const allowed = rules.image.mimeTypes;
    if (allowed) {
      it(`${channel}: takes ${allowed.join(', ')} and nothing else`, () => {
        for (const mime of allowed) assert.deepEqual(shapes(validateAnswer(withMime(mime), { channel })), [], mime);
        for (const mime of ['image/gif', 'image/webp', 'image/svg+xml'].filter((m) => !allowed.includes(m))) {
          const findings = validateAnswer(withMime(mime), { channel });
          assert.deepEqual(shapes(findings), ['platform error /replies/0/image/mime'], mime);
          assert.ok(findings[0]!.message.includes(mime));
        }
      });
    } else {
      it(`${channel}: takes any image type`, () => {
        assert.deepEqual(shapes(validateAnswer(withMime('image/webp'), { channel })), []);
      });
    }
    it(`${channel}: an image url is not measured (the checker does not fetch it)`, () => {
      assert.deepEqual(shapes(validateAnswer(answer(message({ image: { url: 'https://example.com/huge.tiff' } })), { channel })), []);
    });
  }
});

describe('reaction emoji', () => {
  const react = (emoji: string) => answer({ type: 'reaction', emoji, messageId: 'm1' });
  for (const [channel, rules] of Object.entries(contract.platforms)) {
    if (rules.reaction?.support !== 'yes') continue;
    const allowed = rules.reaction.emoji;
    if (Array.isArray(allowed)) {
      it(`${channel}: takes each of its ${allowed.length} emoji exactly as listed, and refuses it with U+FE0F toggled, naming the listed form`, () => {
        for (const emoji of allowed) {
          assert.deepEqual(shapes(validateAnswer(react(emoji), { channel })), [], emoji);
          const other = emoji.includes('\uFE0F') ? emoji.replace(/\uFE0F/g, '') : `${emoji}\uFE0F`;
          const findings = validateAnswer(react(other), { channel });
          assert.equal(findings.length, 1, `${emoji} with U+FE0F toggled`);
          assert.ok(findings[0]!.hint?.includes(emoji), `${emoji}: the hint names the listed form: ${findings[0]!.hint}`);
        }
      });
      it(`${channel}: rejects an emoji not in its list`, () => {
        const outside = ['🫠', '🐸', '🥹', '😀'].filter(
          (emoji) => !allowed.some((a) => withoutVariationSelectors(a) === withoutVariationSelectors(emoji)),
        );
        assert.ok(outside.length > 0);
        for (const emoji of outside) {
          const findings = validateAnswer(react(emoji), { channel });
          assert.deepEqual(shapes(findings), ['platform error /replies/0/emoji'], emoji);
          assert.ok(findings[0]!.hint?.includes(allowed[0]!), 'the hint lists the emoji it takes');
        }
      });
    } else {
      it(`${channel}: takes any one emoji`, () => {
        for (const emoji of ['🫠', '👍🏽', '👨‍👩‍👧', '🇫🇷', '❤', '❤️', '#️⃣']) {
          assert.deepEqual(shapes(validateAnswer(react(emoji), { channel })), [], emoji);
        }
      });
    }
  }
});
