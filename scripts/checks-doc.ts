/**
 * docs/checks.md's tables of the extended and the quality cases, from the registry
 * (src/cases/registry.ts), one row a case in its play order, each row from the case's own `doc`:
 * `npm run build` writes each table between its markers, and test/checks-doc.test.ts holds them current.
 */
import { EXTENDED_CASES, QUALITY_CASES } from '../src/cases/registry.js';
import { rewritePage, withWrittenTable } from './written-table.js';

export const CHECKS_DOC_FILE = 'docs/checks.md';

/** A table of the page: the marker it follows, and its text. */
interface Table {
  begin: string;
  text: () => string;
}

/** A cell of a case's row: one line, and a | in it written \| (else the table breaks). */
export function cell(id: string, field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`the case ${id} gives no doc.${field}: its module's \`doc\` is its row in ${CHECKS_DOC_FILE}`);
  }
  if (/\n|(?<!\\)\|/.test(value)) {
    throw new TypeError(
      `the case ${id}'s doc.${field} has a line break or a bare |: a table cell is one line, and a | in it is written \\|`,
    );
  }
  return value;
}

/** The extended cases' table: what the person does in each. */
export function extendedTable(): string {
  const rows = EXTENDED_CASES.map(({ id, doc }) => `| \`${id}\` | ${cell(id, 'does', doc?.does)} |`);
  return ['| extended case | what the person does |', '|---|---|', ...rows].join('\n');
}

/** The quality cases' table: where each runs, what it sends, and what it finds. */
export function qualityTable(): string {
  const rows = QUALITY_CASES.map(
    ({ id, doc }) =>
      `| \`${id}\` | ${cell(id, 'runs', doc?.runs)} | ${cell(id, 'sends', doc?.sends)} | ${cell(id, 'finding', doc?.finding)} |`,
  );
  return ['| case | runs | what it sends | finding |', '|---|---|---|---|', ...rows].join('\n');
}

const TABLES: readonly Table[] = [
  {
    begin: '<!-- the table below is written from the extended cases (their `doc`, src/cases/extended/) by npm run build -->',
    text: extendedTable,
  },
  {
    begin: '<!-- the table below is written from the quality cases (their `doc`, src/cases/quality/) by npm run build -->',
    text: qualityTable,
  },
];

/** The page's text with its tables as the registry says. */
export function withTables(page: string): string {
  return TABLES.reduce((written, { begin, text }) => withWrittenTable(written, CHECKS_DOC_FILE, begin, text()), page);
}

/** Writes the tables into the page; true when it changed. */
export function writeChecksDoc(root: string): boolean {
  return rewritePage(root, CHECKS_DOC_FILE, withTables);
}
