/**
 * The house, read from the code's own imports: each folder of src/ imports only from itself and
 * from the folders below it, type imports and dynamic import() included, so no cycle can form.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers.js';

/** src/'s folders from the bottom up; the files at src/'s top (cli.ts, index.ts) sit above them all. */
const LAYERS = [
  'core',
  'platforms',
  'formats',
  'generated',
  'contract',
  'http',
  'validate',
  'cases',
  'scenario-files',
  'run',
  'report',
  'example-agent',
  // The chat page's server (check-endpoint chat, and the library's chatServer): the check's run, judged and drawn as the report draws it.
  'chat',
  'commands',
  'cli',
  '(top)',
  // The GitHub Action runs the command (cli.ts) with the command line its inputs make.
  'action',
];

const SRC = join(ROOT, 'src');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function layerOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? parts[0]! : '(top)';
}

const IMPORT = /(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  return [...text.matchAll(IMPORT)]
    .map((match) => match[1] ?? match[2]!)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier))
    .filter((target) => target.startsWith(SRC + sep));
}

test('every folder of src/ is in the layer list', () => {
  const folders = readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  for (const folder of folders) assert.ok(LAYERS.includes(folder), `src/${folder}/ is not placed in test/layers.test.ts`);
});

test('no import runs upward: each folder imports only from itself and the folders below it', () => {
  const upward: string[] = [];
  let imports = 0;
  for (const file of sourceFiles(SRC)) {
    const from = LAYERS.indexOf(layerOf(file));
    for (const target of importsOf(file)) {
      imports++;
      const to = LAYERS.indexOf(layerOf(target));
      if (to > from)
        upward.push(`${relative(ROOT, file)} imports ${relative(ROOT, target)} (${layerOf(target)}/ is above ${layerOf(file)}/)`);
    }
  }
  assert.ok(imports > 100, `the imports were read (${imports})`);
  assert.deepEqual(upward, []);
});
