/**
 * docs/report-formats.md's table of the report formats, from their registry (src/report/formats.ts):
 * `npm run build` writes it between the page's markers, and test/report-formats.test.ts holds it current.
 */
import { REPORT_FORMATS } from '../src/report/formats.js';
import { rewritePage, withWrittenTable } from './written-table.js';

export const DOC_FILE = 'docs/report-formats.md';
const BEGIN = '<!-- the table below is written from src/report/formats.ts by npm run build -->';

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
  return withWrittenTable(page, DOC_FILE, BEGIN, reportFormatsTable());
}

/** Writes the table into the page; true when it changed. */
export function writeReportFormatsDoc(root: string): boolean {
  return rewritePage(root, DOC_FILE, withTable);
}
