/**
 * A custom channel (a name the contract does not know) has no display limits: its answers get
 * schema findings only, unless limits for it are given (the `limits` option, in the shape of
 * spec/platform-limits.schema.json, as a `--limits FILE` holds them).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlatformRules } from '../src/index.js';
import { knownChannels, platformRulesFor, validateAnswer } from '../src/index.js';
import { PLATFORMS, answer, contract, message, rulesOf, shapes } from './answer-helpers.js';

/** Everything that some known platform refuses, in one answer. */
const everything = answer(
  message({ text: '😀'.repeat(20_000), buttons: Array.from({ length: 200 }, (_, i) => `Option ${i} ${'x'.repeat(300)}`) }),
  message({
    text: 'Pick one',
    list: {
      button: 'x'.repeat(100),
      sections: Array.from({ length: 30 }, (_, s) => ({ rows: [{ id: `r${s}`, title: 'x'.repeat(100) }] })),
    },
  }),
  message({ text: 'Menu', link: { url: 'https://example.com', label: 'x'.repeat(100) } }),
  message({ text: 'x'.repeat(20_000), image: { data: 'R0lGODlhAQABAAAAACw=', mime: 'image/gif' } }),
  { type: 'reaction', emoji: '🫠', messageId: 'm1' },
  { type: 'template', name: 'order_ready', language: 'en' },
  message({ text: 'Quoted', replyTo: 'm1' }),
);

describe('custom channels', () => {
  it('the contract names the five platforms these tests know, in order', () => {
    assert.deepEqual(
      knownChannels(contract).filter((channel) => PLATFORMS.some((known) => known === channel)),
      [...PLATFORMS],
    );
  });

  it('every known platform finds something wrong with the answer', () => {
    for (const channel of PLATFORMS) {
      assert.ok(
        validateAnswer(everything, { channel }).some((finding) => finding.rule === 'platform'),
        channel,
      );
    }
  });

  it('a custom channel gives no findings for it: no display limits are known', () => {
    assert.equal(platformRulesFor('matrix', contract), undefined);
    assert.deepEqual(validateAnswer(everything, { channel: 'matrix' }), []);
  });

  it('a custom channel still gets schema findings, and schema findings only', () => {
    const findings = validateAnswer(answer(message({ text: 'x'.repeat(20_000), buttton: ['a'] }), { type: 'mesage' }), {
      channel: 'matrix',
    });
    assert.deepEqual(shapes(findings), ['schema error /replies/0/buttton', 'schema error /replies/1/type']);
  });

  it('a custom channel still gets duplicate-id findings (they are schema rules)', () => {
    const findings = validateAnswer(answer(message({ text: 'Pick one', buttons: ['Yes', 'Yes'] })), { channel: 'matrix' });
    assert.deepEqual(shapes(findings), ['schema error /replies/0/buttons/1']);
  });

  it('a name that only looks like a known one is custom (names are exact)', () => {
    assert.deepEqual(validateAnswer(everything, { channel: 'WhatsApp' }), []);
  });

  it('the reference rule is no display limit: it applies on a custom channel too', () => {
    const findings = validateAnswer(answer(message({ text: 'Quoted', replyTo: 'm9' })), { channel: 'matrix', personMessageIds: ['m1'] });
    assert.deepEqual(shapes(findings), ['reference error /replies/0/replyTo']);
  });
});

describe('limits given for a channel', () => {
  const matrix: PlatformRules = {
    title: 'Matrix',
    counting: 'codepoints',
    text: { maxLength: 100 },
    buttons: { support: 'yes', maxCount: 2, labelMaxLength: 10 },
    list: { support: 'no' },
    reaction: { support: 'yes', emoji: ['👍', '👎'] },
  };

  it('apply to a custom channel', () => {
    const findings = validateAnswer(
      answer(
        message({ text: 'x'.repeat(101) }),
        message({ text: 'Pick one', buttons: ['one', 'two', 'three'] }),
        message({ text: 'Pick one', buttons: ['a label too long'] }),
        message({ text: 'Pick one', list: { button: 'Open', sections: [{ rows: [{ id: 'r', title: 'Row' }] }] } }),
        { type: 'reaction', emoji: '🫠', messageId: 'm1' },
        { type: 'reaction', emoji: '👍', messageId: 'm1' },
      ),
      { channel: 'matrix', limits: matrix },
    );
    assert.deepEqual(shapes(findings), [
      'platform error /replies/0/text',
      'platform error /replies/1/buttons',
      'platform error /replies/2/buttons/0',
      'platform error /replies/3/list',
      'platform error /replies/4/emoji',
    ]);
    for (const finding of findings) assert.match(finding.message, /Matrix/);
  });

  it('within the limits, a custom channel answer is valid', () => {
    const body = answer(message({ text: 'x'.repeat(100), buttons: ['one', 'two'] }), { type: 'reaction', emoji: '👎', messageId: 'm1' });
    assert.deepEqual(validateAnswer(body, { channel: 'matrix', limits: matrix }), []);
  });

  it('what the limits leave out is not checked (a template here: unknown support is "no" for templates only)', () => {
    const body = answer(
      message({ text: 'Menu', link: { url: 'https://example.com', label: 'x'.repeat(500) } }),
      message({ image: { url: 'https://example.com/a.png' } }),
    );
    assert.deepEqual(validateAnswer(body, { channel: 'matrix', limits: matrix }), []);
    assert.deepEqual(
      shapes(validateAnswer(answer({ type: 'template', name: 'a', language: 'en' }), { channel: 'matrix', limits: matrix })),
      ['platform error /replies/0'],
    );
  });

  it("given for a known channel, they take the place of the contract's", () => {
    const whatsapp = rulesOf('whatsapp');
    const wider: PlatformRules = { ...whatsapp, buttons: { ...whatsapp.buttons!, maxCount: 5 } };
    const body = answer(message({ text: 'Pick one', buttons: ['a', 'b', 'c', 'd'] }));
    assert.deepEqual(shapes(validateAnswer(body, { channel: 'whatsapp' })), ['platform error /replies/0/buttons']);
    assert.deepEqual(validateAnswer(body, { channel: 'whatsapp', limits: wider }), []);
  });
});
