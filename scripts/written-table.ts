/**
 * A table of a docs page that `npm run build` writes from the code's own lists: between a marker
 * that says where it comes from and the end marker. docs/report-formats.md, docs/checks.md and
 * docs/platforms.md each have one or more (scripts/*-doc.ts), and a test holds each current.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The marker each written table ends with. */
export const TABLE_END = '<!-- end of the written table -->';

/** The page's text with the table after `begin` (up to the end marker after it) as `table`. */
export function withWrittenTable(page: string, file: string, begin: string, table: string): string {
  const start = page.indexOf(begin);
  const end = page.indexOf(TABLE_END, start);
  if (start < 0 || end < 0) throw new Error(`${file} has no markers for the table that follows "${begin}"`);
  return `${page.slice(0, start + begin.length)}\n${table}\n${page.slice(end)}`;
}

/** Writes the page `file` (below `root`) as `rewrite` makes it from its text; true when it changed. */
export function rewritePage(root: string, file: string, rewrite: (page: string) => string): boolean {
  const path = join(root, file);
  const page = readFileSync(path, 'utf8');
  const written = rewrite(page);
  if (written === page) return false;
  writeFileSync(path, written);
  return true;
}
