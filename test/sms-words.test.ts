/**
 * The SMS segment warning names its cause: the characters outside GSM-7 that made the text UCS-2
 * (the first few, each with its code point and its position), what fits in one segment in either
 * encoding, and the carriers' ceiling, every figure as the spec gives it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bundledContract, validateAnswer } from '../src/index.js';

const sms = bundledContract().platforms.sms!;
const { gsm7, ucs2 } = sms.segments!;
const ceiling = sms.text!.maxLength!;

function segmentWarning(text: string) {
  const findings = validateAnswer({ replies: [{ type: 'message', text }] }, { channel: 'sms' });
  assert.equal(findings.length, 1, JSON.stringify(findings));
  assert.equal(findings[0]!.severity, 'warning');
  return findings[0]!;
}

describe('the SMS segment warning names its cause', () => {
  test('a dash and a curly quote made it UCS-2: each named, with its code point and where it stands', () => {
    const text = `${'a'.repeat(51)}\u2014${'b'.repeat(37)}\u2019${'c'.repeat(40)}`;
    const finding = segmentWarning(text);
    assert.match(finding.message, /^the text needs 2 SMS segments in UCS-2 /);
    assert.match(finding.message, /2 characters outside GSM-7 made it UCS-2: "\u2014" U\+2014 at 52, "\u2019" U\+2019 at 90$/);
    assert.match(finding.hint!, new RegExp(`^Aim for one segment: ${gsm7.single} GSM-7 characters, or only ${ucs2.single} once`));
    assert.match(finding.hint!, /Write plain characters instead \(\u2014 → -, \u2019 → '\)/);
    assert.match(finding.hint!, new RegExp(`Carriers take at most ${ceiling} characters a message`));
    assert.match(finding.hint!, /For a model: `check-endpoint limits sms --prompt`$/);
  });

  test('positions count characters, not UTF-16 units: an emoji before a dash is one', () => {
    const finding = segmentWarning(`😀${'a'.repeat(70)}\u2014`);
    assert.match(finding.message, /2 characters outside GSM-7 made it UCS-2: "😀" U\+1F600 at 1, "\u2014" U\+2014 at 72$/);
  });

  test('past the first four, the rest are counted', () => {
    const finding = segmentWarning('\u2019x'.repeat(40));
    assert.match(
      finding.message,
      /40 characters outside GSM-7 made it UCS-2: ("\u2019" U\+2019 at \d+, ){3}"\u2019" U\+2019 at 7, and 36 more$/,
    );
  });

  test('a long GSM-7 text: the one-segment target and the ceiling, no characters to blame', () => {
    const finding = segmentWarning('a'.repeat(gsm7.single + 1));
    assert.match(
      finding.message,
      new RegExp(`^the text needs 2 SMS segments in GSM-7 \\(one segment holds ${gsm7.single} GSM-7 characters`),
    );
    assert.doesNotMatch(finding.message, /outside GSM-7/);
    assert.match(finding.hint!, new RegExp(`^Aim for one segment: ${gsm7.single} GSM-7 characters`));
    assert.match(finding.hint!, new RegExp(`Carriers take at most ${ceiling} characters`));
  });

  test('at one segment, no warning', () => {
    assert.deepEqual(validateAnswer({ replies: [{ type: 'message', text: 'a'.repeat(gsm7.single) }] }, { channel: 'sms' }), []);
    assert.deepEqual(validateAnswer({ replies: [{ type: 'message', text: '\u2014'.repeat(ucs2.single) }] }, { channel: 'sms' }), []);
  });
});
