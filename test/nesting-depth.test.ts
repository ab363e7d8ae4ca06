/**
 * nestingDepth: how deeply a JSON value nests, held to a recursive count over generated JSON, and
 * over a hostile body nested 100,000 levels deep (no recursion, so no stack overflow).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { nestingDepth } from '../src/core/nesting-depth.js';

/** The depth as the definition says it, recursively: a leaf 0, an object or array one more than its deepest child. */
function recursiveDepth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(recursiveDepth));
}

test('leaves are 0 deep, an empty object or array 1, each level one more', () => {
  for (const leaf of [null, 0, 'text', true]) assert.equal(nestingDepth(leaf), 0);
  assert.equal(nestingDepth({}), 1);
  assert.equal(nestingDepth([]), 1);
  assert.equal(nestingDepth({ replies: [{ type: 'message', buttons: [{ id: 'a' }] }] }), 5);
  assert.equal(nestingDepth([1, [2, [3]], { a: 'b' }]), 3);
});

test('the same as the recursive count, over generated JSON', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 12 }), (value) => nestingDepth(value) === recursiveDepth(value)),
    { seed: 20261207, numRuns: 2000 },
  );
});

test('100,000 levels are counted without recursion; stopAt ends the count once past it', () => {
  const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
  assert.equal(nestingDepth(deep), 100_000);
  assert.equal(nestingDepth(deep, 64), 65);
  assert.equal(nestingDepth({ a: { b: {} } }, 3), 3);
});
