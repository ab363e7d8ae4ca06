/**
 * The extended and quality cases are described where they are written: docs/checks.md's tables are
 * written from each case's `doc` (scripts/checks-doc.ts), and --extended's and --quality's help
 * list the cases from the registry, so a new case file shows in both without another edit.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CHECKS_DOC_FILE, cell, extendedTable, qualityTable, withTables } from '../scripts/checks-doc.js';
import { EXTENDED_CASES, QUALITY_CASES } from '../src/cases/registry.js';
import { optionSpec } from '../src/cli/options.js';
import { cliReference } from '../src/cli/cli-reference.js';
import { ROOT } from './helpers.js';

const page = readFileSync(join(ROOT, CHECKS_DOC_FILE), 'utf8');

describe(`${CHECKS_DOC_FILE}'s tables of the cases`, () => {
  test('are what the build writes from the cases', () => {
    assert.ok(
      page === withTables(page),
      `${CHECKS_DOC_FILE}'s tables of the extended and quality cases are not current: run npm run build`,
    );
  });

  test("hold one row a case, in the registry's order, from its doc", () => {
    const rows = (table: string) => table.split('\n').slice(2);
    assert.deepEqual(
      rows(qualityTable()).map((row) => row.split(' | ')[0]),
      QUALITY_CASES.map(({ id }) => `| \`${id}\``),
    );
    assert.deepEqual(
      rows(extendedTable()).map((row) => row.split(' | ')[0]),
      EXTENDED_CASES.map(({ id }) => `| \`${id}\``),
    );
    for (const { id, doc } of QUALITY_CASES) assert.ok(page.includes(`| \`${id}\` | ${doc.runs} | ${doc.sends} | ${doc.finding} |`), id);
    for (const { id, doc } of EXTENDED_CASES) assert.ok(page.includes(`| \`${id}\` | ${doc.does} |`), id);
  });

  test('a table edited by hand is written back', () => {
    const { id } = QUALITY_CASES[0]!;
    const edited = page.replace(`| \`${id}\` |`, '| `quality/edited` |');
    assert.notEqual(edited, page);
    assert.equal(withTables(edited), page);
  });

  test("a case's doc that would break its table is refused, naming the case and the field", () => {
    assert.equal(cell('quality/x', 'sends', 'a `a\\|b` pipe, escaped'), 'a `a\\|b` pipe, escaped');
    assert.throws(() => cell('quality/x', 'runs', undefined), /the case quality\/x gives no doc\.runs/);
    assert.throws(() => cell('quality/x', 'sends', 'a | b'), /quality\/x's doc\.sends has a line break or a bare \|/);
    assert.throws(() => cell('x', 'does', 'one\ntwo'), /x's doc\.does has a line break/);
  });

  test('a page without the markers is refused', () => {
    assert.throws(() => withTables('# What the check does\n'), /docs\/checks\.md has no markers/);
  });
});

describe("the flags' help lists the cases of the registry", () => {
  test('--quality names every quality case, in play order, as a sentence', () => {
    const help = optionSpec('quality').description;
    const names = QUALITY_CASES.map(({ id }) => id.replace(/^quality\//, ''));
    assert.equal(help, `Also run the quality cases: ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);
    for (const { id } of QUALITY_CASES) assert.ok(help.includes(id.replace(/^quality\//, '')), `${id}: ${help}`);
    assert.ok(help.includes('large-attachment'), help);
  });

  test('--extended names every extended case', () => {
    const help = optionSpec('extended').description;
    for (const { id } of EXTENDED_CASES) assert.ok(help.includes(id), `${id}: ${help}`);
  });

  test('docs/cli.md carries the help as the registry says it (npm run build writes it)', () => {
    const written = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    assert.equal(written, cliReference(), 'docs/cli.md is not current: run npm run build');
    assert.ok(written.includes(`| \`--quality\` | ${optionSpec('quality').description}. |`));
  });
});
