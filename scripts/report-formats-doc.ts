/**
 * docs/report-formats.md's table of the report formats, from their registry (src/report/formats.ts):
 * `npm run build` writes it between the page's markers, and test/report-formats.test.ts holds it current.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT_FORMATS } from '../src/report/formats.js';

export const DOC_FILE = 'docs/report-formats.md';
const BEGIN = '<!-- the table below is written from src/report/formats.ts by npm run build -->';
const END = '<!-- end of the written table -->';

/** The table, one row a format, in the order the files are written. */
export function reportFormatsTable(): string {
  const rows = REPORT_FORMATS.map(
    (format) =>
      `| \`${format.id}\` | ${format.dirFile ? `\`${format.dirFile}\`` : '—'} | ${format.flag ? `\`--${format.flag.name} ${format.flag.placeholder}\`` : '—'} | ${format.title} |`,
  );
  return ['| id | in `--report-dir` | its own flag | what it is |', '|---|---|---|---|', ...rows].join('\n');
}

/** The page's text with its table as the registry says. */
export function withTable(page: string): string {
  const begin = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${DOC_FILE} has no markers for its table`);
  return `${page.slice(0, begin + BEGIN.length)}\n${reportFormatsTable()}\n${page.slice(end)}`;
}

/** Writes the table into the page; true when it changed. */
export function writeReportFormatsDoc(root: string): boolean {
  const path = join(root, DOC_FILE);
  const page = readFileSync(path, 'utf8');
  const written = withTable(page);
  if (written === page) return false;
  writeFileSync(path, written);
  return true;
}
