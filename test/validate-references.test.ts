/**
 * Rule `reference`: every id a reply names (a message's `replyTo`, a reaction's `messageId`) is
 * one of the person's messages in this conversation. Checked only when the caller says which
 * those are (`personMessageIds`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateAnswer } from '../src/index.js';
import { PLATFORMS, answer, message, shapes } from './answer-helpers.js';

const replyTo = (id: string) => message({ text: 'Sure', replyTo: id });
const reaction = (id: string) => ({ type: 'reaction', emoji: '👍', messageId: id });

describe('reference', () => {
  const personMessageIds = ['m1', 'm2'];

  it("ids of the person's messages pass", () => {
    const body = answer(replyTo('m1'), reaction('m2'));
    assert.deepEqual(validateAnswer(body, { channel: 'whatsapp', personMessageIds }), []);
  });

  it('a replyTo naming another message is one reference error at /replyTo', () => {
    const findings = validateAnswer(answer(replyTo('agent-1')), { channel: 'whatsapp', personMessageIds });
    assert.deepEqual(shapes(findings), ['reference error /replies/0/replyTo']);
    assert.match(findings[0]!.message, /"agent-1"/);
    assert.match(findings[0]!.message, /"m1", "m2"/);
  });

  it("a reaction's messageId naming another message is one reference error at /messageId", () => {
    const findings = validateAnswer(answer(message({ text: 'hi' }), reaction('m3')), { channel: 'telegram', personMessageIds });
    assert.deepEqual(shapes(findings), ['reference error /replies/1/messageId']);
  });

  it('ids are compared exactly', () => {
    const findings = validateAnswer(answer(replyTo('M1'), replyTo(' m1')), { channel: 'web', personMessageIds });
    assert.deepEqual(shapes(findings), ['reference error /replies/0/replyTo', 'reference error /replies/1/replyTo']);
  });

  it('with no person messages yet, every id is unknown', () => {
    const findings = validateAnswer(answer(reaction('m1')), { channel: 'web', personMessageIds: [] });
    assert.deepEqual(shapes(findings), ['reference error /replies/0/messageId']);
  });

  it('is not checked when personMessageIds is left out', () => {
    for (const channel of PLATFORMS.filter((c) => c !== 'sms')) {
      assert.deepEqual(validateAnswer(answer(replyTo('anything'), reaction('at-all')), { channel }), [], channel);
    }
  });

  it("applies where replyTo is ignored (SMS): the id still names no person's message", () => {
    assert.deepEqual(validateAnswer(answer(replyTo('m1')), { channel: 'sms', personMessageIds }), []);
    assert.deepEqual(shapes(validateAnswer(answer(replyTo('m9')), { channel: 'sms', personMessageIds })), [
      'reference error /replies/0/replyTo',
    ]);
  });

  it('comes alongside platform findings, ordered by pointer', () => {
    const findings = validateAnswer(answer(reaction('m9'), message({ text: 'a'.repeat(5000), replyTo: 'm9' })), {
      channel: 'whatsapp',
      personMessageIds,
    });
    assert.deepEqual(shapes(findings), [
      'reference error /replies/0/messageId',
      'reference error /replies/1/replyTo',
      'platform error /replies/1/text',
    ]);
  });

  it('a reply broken in shape is not reference-checked', () => {
    const findings = validateAnswer(answer({ type: 'reaction', emoji: 'xx', messageId: 'm9' }), { channel: 'web', personMessageIds });
    assert.deepEqual(shapes(findings), ['schema error /replies/0/emoji']);
  });
});
