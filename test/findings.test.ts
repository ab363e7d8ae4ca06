import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Finding, LEFT_OUT, MAX_FINDINGS, type Rule, capFindings, excerpt, findingRules } from '../src/core/findings.js';
import { validateAnswer } from '../src/validate/validate-answer.js';
import type { CaseReport } from '../src/core/report.js';
import { isExpectedFailure, parseBaseline } from '../src/run/baseline.js';

describe('excerpt: a received value in a message', () => {
  test('a short string reads as JSON, escapes and all', () => {
    const strings = [
      '',
      'hi',
      'say "hi"',
      'back\\slash',
      'tab\there',
      'line\nbreak',
      '\u0000\u001f',
      '😀',
      '\uD83D',
      'a\uDE00b',
      '\u2028',
      'é',
    ];
    for (const text of strings) assert.equal(excerpt(text), JSON.stringify(text), JSON.stringify(text));
  });

  test('a long value is cut at the limit in characters, with an ellipsis', () => {
    assert.equal(excerpt('a'.repeat(100), 10), `"${'a'.repeat(8)}…`);
    assert.equal(excerpt('😀'.repeat(100), 10), `"${'😀'.repeat(8)}…`);
    assert.equal(excerpt('a'.repeat(8), 10), `"${'a'.repeat(8)}"`);
  });

  test('objects, arrays and scalars', () => {
    assert.equal(excerpt({ a: 1, 'b"': [true, null] }), '{"a":1,"b\\"":[true,null]}');
    assert.equal(excerpt(undefined), 'nothing');
    assert.equal(excerpt(42), '42');
  });

  test('bounded whatever the value: deep nesting and huge strings', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.ok(excerpt(deep).length <= 60);
    assert.ok(excerpt('y'.repeat(10_000_000)).length <= 60);
  });
});

describe('findings in document order', () => {
  test('sortByPointer: segment by segment, numbers as numbers, a parent before its children, stable', async () => {
    const { sortByPointer } = await import('../src/validate/schema-findings.js');
    const ordered = [
      '',
      '/extra',
      '/replies',
      '/replies/0',
      '/replies/0/buttons/2/id',
      '/replies/0/buttons/10',
      '/replies/2',
      '/replies/2/text',
      '/replies/10',
      '/replies/x',
    ];
    const findings = ordered.map((path, order) => ({ path, order }));
    // Every rotation and the reverse come back in order.
    for (let shift = 0; shift < findings.length; shift++) {
      const rotated = [...findings.slice(shift), ...findings.slice(0, shift)];
      assert.deepEqual(
        sortByPointer(rotated).map((finding) => finding.path),
        ordered,
      );
    }
    assert.deepEqual(
      sortByPointer([...findings].reverse()).map((finding) => finding.path),
      ordered,
    );
    // Equal pointers keep their order.
    const same = [
      { path: '/replies/1', order: 1 },
      { path: '/replies/0', order: 2 },
      { path: '/replies/1', order: 3 },
    ];
    assert.deepEqual(
      sortByPointer(same).map((finding) => finding.order),
      [2, 1, 3],
    );
  });
});

describe('capFindings: the findings left out of an answer, counted by rule', () => {
  const many = (rule: Rule, count: number, severity: 'error' | 'warning' = 'error'): Finding[] =>
    Array.from({ length: count }, (_, index) => ({ rule, severity, message: `${rule} ${index}`, path: `/replies/${index}`, hint: null }));

  test('at the cap nothing is left out; one over, the last two make way for one note', () => {
    const atCap = many('schema', MAX_FINDINGS);
    assert.deepEqual(capFindings(atCap), atCap);
    const over = capFindings(many('schema', MAX_FINDINGS + 1));
    assert.equal(over.length, MAX_FINDINGS);
    assert.deepEqual(over.at(-1)!.leftOut, { schema: 2 });
    assert.equal(over.at(-1)!.message, '2 more findings are left out (schema 2); the first 49 are above');
  });

  test('the note counts each rule left out exactly, and takes none of their rules', () => {
    const capped = capFindings([...many('schema', 60), ...many('platform', 7, 'warning'), ...many('reference', 3)]);
    const note = capped.at(-1)!;
    assert.equal(note.rule, LEFT_OUT);
    assert.deepEqual(note.leftOut, { schema: 11, platform: 7, reference: 3 });
    assert.equal(note.severity, 'error');
    // Kept findings by rule plus the note's counts give back every finding the answer had.
    const byRule = new Map<string, number>();
    for (const finding of capped.filter((candidate) => candidate.rule !== LEFT_OUT))
      byRule.set(finding.rule, (byRule.get(finding.rule) ?? 0) + 1);
    for (const [rule, count] of Object.entries(note.leftOut!)) byRule.set(rule, (byRule.get(rule) ?? 0) + count);
    assert.deepEqual(Object.fromEntries(byRule), { schema: 60, platform: 7, reference: 3 });
    assert.deepEqual(findingRules(note), ['schema', 'platform', 'reference']);
  });

  test('only warnings left out: the note is a warning', () => {
    const capped = capFindings([...many('schema', 49), ...many('platform', 5, 'warning')]);
    assert.equal(capped.at(-1)!.severity, 'warning');
    assert.deepEqual(capped.at(-1)!.leftOut, { platform: 5 });
  });

  test('capped again, an answer still has one note, last, with the counts of both', () => {
    const once = capFindings(many('schema', 70), MAX_FINDINGS - 1); // 48 kept, 22 counted
    const twice = capFindings([...once, ...many('platform', 10, 'warning')]);
    assert.deepEqual(
      twice.map((finding) => finding.rule),
      [...Array(48).fill('schema'), 'platform', LEFT_OUT],
    );
    assert.deepEqual(twice.at(-1)!.leftOut, { schema: 22, platform: 9 });
  });

  test('validateAnswer: 300 unknown properties, 251 left out; 120 platform errors, 71 left out: one note each', () => {
    const crowded: Record<string, unknown> = { type: 'message', text: 'x' };
    for (let index = 0; index < 300; index++) crowded[`extra${index}`] = 1;
    const tooLong = Array.from({ length: 60 }, () => ({ type: 'message', text: 'é'.repeat(5000), buttons: ['a', 'b', 'c', 'd'] }));
    for (const [replies, leftOut] of [
      [[crowded], { schema: 251 }],
      [tooLong, { platform: 71 }],
    ] as const) {
      const findings = validateAnswer({ replies }, { channel: 'whatsapp' });
      assert.equal(findings.length, MAX_FINDINGS);
      assert.deepEqual(
        findings.filter((finding) => finding.rule === LEFT_OUT).map((finding) => finding.leftOut),
        [leftOut],
      );
      assert.equal(findings.at(-1)!.rule, LEFT_OUT);
    }
  });
});

describe('a baseline and the left-out note', () => {
  const caseWith = (findings: Finding[]): CaseReport => ({
    id: 'photo',
    channel: 'whatsapp',
    conversationId: 'whatsapp:chk_0.photo.1',
    passed: false,
    status: 'failed',
    expected: false,
    durationMs: 1,
    turns: [],
    findings: findings.map((finding) => ({ ...finding, turn: 0, reply: null, reproduce: null })),
    runs: 1,
    passedRuns: 0,
    label: 'failing',
    plays: [],
  });
  const capped = capFindings([
    ...Array.from({ length: 49 }, (_, index): Finding => ({
      rule: 'schema',
      severity: 'error',
      message: 'm',
      path: `/replies/${index}`,
      hint: null,
    })),
    ...Array.from({ length: 5 }, (_, index): Finding => ({
      rule: 'platform',
      severity: 'error',
      message: 'm',
      path: `/replies/${index}`,
      hint: null,
    })),
  ]);

  test('the note is covered only when every rule it left out is listed', () => {
    assert.equal(isExpectedFailure(caseWith(capped), parseBaseline('photo:schema\n', 'b'), false), false);
    assert.equal(isExpectedFailure(caseWith(capped), parseBaseline('photo:schema\nphoto:platform\n', 'b'), false), true);
    assert.equal(isExpectedFailure(caseWith(capped), parseBaseline('photo\n', 'b'), false), true);
  });

  test('left-out is not a rule a baseline can name', () => {
    assert.throws(() => parseBaseline('photo:left-out\n', 'b'), /unknown rule "left-out"/);
  });
});
