/**
 * The build's key (scripts/build-key.ts): the same sources by the same Node give the same key, and
 * a changed source, a new one, NO_MINIFY or a missing output each make the next build run.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BUILD_KEY_FILE, buildKey, builtWithKey, writeBuildKey } from '../scripts/build-key.js';

const root = mkdtempSync(join(tmpdir(), 'check-endpoint-build-key-'));
after(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(join(root, file, '..'), { recursive: true });
  writeFileSync(join(root, file), text);
}

test('a build is skipped only for the same inputs by the same Node, with every output there', () => {
  write('src/index.ts', 'export const a = 1;\n');
  write('spec/request.schema.json', '{}\n');
  write('package.json', '{ "name": "x" }\n');
  const key = buildKey(root, {});
  assert.equal(buildKey(root, {}), key, 'the same inputs, the same key');
  assert.equal(builtWithKey(root, key), false, 'nothing built yet');
  for (const output of ['dist/cli.cjs', 'dist/cli.cache', 'dist/index.js', 'dist/report.js', 'dist/types/index.d.ts']) write(output, '');
  writeBuildKey(root, key);
  assert.equal(builtWithKey(root, key), true);

  assert.notEqual(buildKey(root, { NO_MINIFY: '1' }), key, 'NO_MINIFY builds other bytes');
  write('docs/guide.md', 'not an input\n');
  write('test/a.test.ts', 'not an input\n');
  assert.equal(buildKey(root, {}), key, 'docs and tests are not built into dist/');
  write('src/index.ts', 'export const a = 2;\n');
  assert.notEqual(buildKey(root, {}), key, 'a changed source');
  write('src/index.ts', 'export const a = 1;\n');
  write('src/more.ts', 'export const b = 1;\n');
  assert.notEqual(buildKey(root, {}), key, 'a new source');
  rmSync(join(root, 'src/more.ts'));
  assert.equal(buildKey(root, {}), key);
  rmSync(join(root, 'dist/types/index.d.ts'));
  assert.equal(builtWithKey(root, key), false, 'an output gone: built again');
  write('dist/types/index.d.ts', '');
  writeFileSync(join(root, BUILD_KEY_FILE), 'another\n');
  assert.equal(builtWithKey(root, key), false, 'another key');
});
