/**
 * docs/platforms.md's table of limits is written by `npm run build` from the contract's
 * x-platforms (scripts/platforms-doc.ts): the committed page holds the table the build writes, a
 * row per platform in the contract's order, and no figure of a platform's rules is left out.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { bundledContract } from '../src/contract/load-contract.js';
import { DOC_FILE, headOf, platformsTable, withTable } from '../scripts/platforms-doc.js';
import { ROOT } from './helpers.js';

const contract = bundledContract();

/** The table's rows as cells by column head, a row per platform title. */
function rowsOf(table: string): Map<string, Map<string, string>> {
  // Cells between the pipes that are not escaped (`\|` is a pipe in a cell).
  const [head, , ...rows] = table.split('\n').map((line) =>
    line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );
  const rowsByTitle = new Map<string, Map<string, string>>();
  for (const [title, ...cells] of rows) rowsByTitle.set(title!, new Map(cells.map((cell, index) => [head![index + 1]!, cell])));
  return rowsByTitle;
}

/** Every number a feature's rules hold, however deep. */
function numbers(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(numbers);
  return [];
}

describe(DOC_FILE, () => {
  test('its table is the one npm run build writes from the contract', () => {
    const page = readFileSync(join(ROOT, DOC_FILE), 'utf8');
    assert.ok(
      page === withTable(page),
      `${DOC_FILE}'s table of limits is not the contract's x-platforms as they are now: run npm run build, which writes it, and commit the page`,
    );
  });

  test("a row per platform, in the contract's order, named by its title", () => {
    const titles = [...rowsOf(platformsTable()).keys()];
    assert.deepEqual(
      titles,
      Object.values(contract.platforms).map((rules) => rules.title),
    );
  });

  test("each platform's figures are in its row, under the feature they limit", () => {
    const rows = rowsOf(platformsTable());
    for (const [channel, rules] of Object.entries(contract.platforms)) {
      const row = rows.get(rules.title);
      assert.ok(row, channel);
      for (const [feature, value] of Object.entries(rules)) {
        if (feature === 'title' || feature === 'counting' || feature === 'sources') continue;
        // SMS's segments are said in its text cell.
        const cell = row.get(headOf(feature === 'segments' ? 'text' : feature));
        assert.ok(cell !== undefined, `${channel}.${feature} has no column`);
        const support = (value as { support?: unknown }).support;
        if (support === 'no') assert.equal(cell, 'no', `${channel}.${feature}`);
        else if (support === 'ignored') assert.match(cell, /^ignored\b/, `${channel}.${feature}`);
        for (const figure of numbers(value)) {
          const mib = figure / (1024 * 1024);
          // A size in MiB where it is whole mebibytes, else in bytes (grouped: 1,000,000).
          const said = Number.isInteger(mib) && mib > 0 ? `${mib} MiB` : `(${figure}|${figure.toLocaleString('en-US')})`;
          assert.match(cell, new RegExp(`(^|[^\\d,])${said}([^\\d,]|,? |$)`), `${channel}.${feature}: ${figure} in «${cell}»`);
        }
      }
      const { emoji } = rules.reaction ?? {};
      if (Array.isArray(emoji)) assert.match(row.get('reaction')!, new RegExp(`only its ${emoji.length} `), channel);
      for (const type of rules.image?.mimeTypes ?? []) assert.ok(row.get('image')!.includes(type.split('/')[1]!.toUpperCase()), type);
      if (rules.counting !== 'codepoints' && rules.text?.maxLength !== undefined)
        assert.doesNotMatch(row.get('text')!, /^\d+(,|;|$)/, `${channel}: the text cell names its unit`);
    }
  });

  test('a channel added to the contract gets its row, with no edit of the page but the build', () => {
    const platforms = { ...contract.platforms, acme: { title: 'Acme', counting: 'utf16' as const, text: { maxLength: 300 } } };
    const row = rowsOf(platformsTable({ ...contract, platforms })).get('Acme');
    assert.ok(row);
    assert.equal(row.get('text'), '300 UTF-16 code units');
    // Left out of its rules: shown with no limit known, but for templates (as the checker takes them), and nothing checked.
    assert.equal(row.get('buttons'), 'yes');
    assert.equal(row.get('template'), 'no');
    assert.equal(row.get(headOf('markdown')), '—');
  });
});
