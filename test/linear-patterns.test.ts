/**
 * Every pattern run over an agent's answer takes time in proportion to its length, whatever the
 * agent wrote (issue 52, 1): `/Body exceeded \S+ ?\S* limit/i` held one turn for a minute of CPU on
 * a 256 KiB answer. Each pattern is run on 256 KiB of adversarial text (its literal opening, then a
 * long run of one character; or the opening again and again) and must stay within a fixed multiple
 * of a plain scan of the same text in the same process. A pattern that grows with the square of the
 * length misses the bound by thousands of times, so the bound is generous: a busy machine slows
 * both sides alike: at 256 KiB a quadratic pattern takes some 10,000 plain scans. The text first goes
 * through at 64 KiB, so a regression fails in seconds rather than hanging for minutes at 256 KiB.
 * (Until 2026-12-08 the second size was 1 MiB: it found nothing 256 KiB does not, and took three
 * quarters of this file's 16 s of CPU.)
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HttpAnswer } from '../src/http/client.js';
import { MARKDOWN_DETECTORS, MARKDOWN_SYNTAXES } from '../src/platforms/markdown.js';
import { TEXT_SIGN_PATTERNS, answeringStack } from '../src/validate/answering-stack.js';

const KIB = 1024;
/** How many plain scans a pattern may take on the same text: linear ones take a few, quadratic ones millions. */
const MULTIPLE = 100;
/** Characters a run of which a quantifier might take, and the ends that make a match fail late. */
const FILLS = ['A', ' ', '0', '"', "'", '-', '|', ':', '<', '*', '#', '[', '\t', '.', '\n', '\u00e9'];

/** The literal text a pattern starts with (`Body exceeded `), up to its first operator. */
function literalOpening(source: string): string {
  let opening = '';
  for (let at = 0; at < source.length; at++) {
    const char = source[at]!;
    if (char === '\\') {
      const next = source[at + 1] ?? '';
      if (!/[^A-Za-z0-9]/.test(next)) break; // \S, \d, \b: a class, not a literal
      opening += next;
      at++;
    } else if ('^$.|?*+()[]{}'.includes(char)) {
      // A quantifier binds the character before it: that one is not surely there.
      if ('?*{'.includes(char)) opening = opening.slice(0, -1);
      break;
    } else opening += char;
  }
  return opening;
}

/** Adversarial texts of `length` characters for a pattern that starts with `opening`. */
function adversarialTexts(opening: string, length: number): string[] {
  return FILLS.flatMap((fill) => [
    (opening + fill.repeat(length)).slice(0, length - 1) + '\u0001',
    (opening + fill).repeat(Math.ceil(length / (opening.length + 1))).slice(0, length),
    (opening + fill + fill.repeat(16) + ' ').repeat(Math.ceil(length / (opening.length + 18))).slice(0, length),
  ]);
}

/** The CPU time of `work`, in microseconds: the least of `tries` runs. */
function cpuMicros(work: () => unknown, tries: number): number {
  let least = Infinity;
  for (let run = 0; run < tries; run++) {
    const start = process.cpuUsage();
    work();
    const spent = process.cpuUsage(start);
    least = Math.min(least, spent.user + spent.system);
  }
  return least;
}

/** A plain scan: one look at every character, no pattern. */
function plainScan(text: string): number {
  let sum = 0;
  for (let at = 0; at < text.length; at++) sum = (sum + text.charCodeAt(at)) | 0;
  return sum;
}

/** Runs `detector` on each text, at 64 KiB and then at 256 KiB, within MULTIPLE plain scans of all of them. */
function assertLinear(name: string, texts: (length: number) => string[], detector: (text: string) => unknown): void {
  for (const length of [64 * KIB, 256 * KIB]) {
    const all = texts(length);
    // The least of two scans: more tries took most of this file's time, and a busy moment only makes the bound looser.
    const plain = cpuMicros(() => all.forEach(plainScan), 2);
    // The bound has a floor of 20 ms: a plain scan of a few texts takes less than the clock's steps.
    const bound = Math.max(MULTIPLE * plain, 20_000);
    let spent = cpuMicros(() => all.forEach(detector), 1);
    if (spent > bound) spent = cpuMicros(() => all.forEach(detector), 3); // a busy moment, not the pattern
    assert.ok(
      spent <= bound,
      `${name} took ${Math.round(spent / 1000)} ms of CPU on ${all.length} adversarial texts of ${length} characters, ` +
        `more than ${MULTIPLE} times a plain scan of them (${Math.round(plain / 1000)} ms): a pattern here backtracks ` +
        'over a run of characters; give each quantifier a bound, and never two runs of the same characters side by side',
    );
  }
}

describe('each pattern run on an answer is linear in its length (256 KiB of adversarial text)', () => {
  for (const pattern of TEXT_SIGN_PATTERNS) {
    test(`stack sign ${pattern}`, () => {
      const opening = literalOpening(pattern.source);
      assertLinear(
        String(pattern),
        (length) => adversarialTexts(opening, length),
        (text) => pattern.exec(text),
      );
    });
  }

  /** Where each Markdown detector's match starts, so that the run after it is tried. */
  const OPENINGS: Record<(typeof MARKDOWN_SYNTAXES)[number], readonly string[]> = {
    bold: ['**a', '**'],
    heading: ['# ', '   ###\t'],
    link: ['[a', '[a](https://', '[a](www.'],
    table: ['a|b\n', 'a|b\n|---', 'a|b\n|---|---', 'a|b\n | :--: | --: |', 'a|b\n|'],
    'code-fence': ['```', '~~~'],
  };
  for (const syntax of MARKDOWN_SYNTAXES) {
    test(`Markdown ${syntax} ${MARKDOWN_DETECTORS[syntax]}`, () => {
      const pattern = MARKDOWN_DETECTORS[syntax];
      assertLinear(
        `the ${syntax} detector`,
        (length) => OPENINGS[syntax].flatMap((opening) => adversarialTexts(opening, length)),
        (text) => pattern.exec(text),
      );
    });
  }

  test('answeringStack on the answer of the issue: {"replies":[],"x":"Body exceeded AAAA…"}', () => {
    const answerOf = (text: string): HttpAnswer => ({
      kind: 'answer',
      status: 200,
      httpVersion: '1.1',
      latencyMs: 1,
      statusText: 'OK',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(text),
    });
    assertLinear(
      'answeringStack',
      (length) => [`{"replies":[],"x":"Body exceeded ${'A'.repeat(length)}"}`],
      (text) => answeringStack(answerOf(text)),
    );
  });
});
