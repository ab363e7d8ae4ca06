import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { excerpt } from '../src/core/findings.js';

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
