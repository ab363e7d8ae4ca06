/**
 * The value at fault, as every output shows it beside its problem: what the answer holds at the
 * finding's JSON pointer, said short: a text whole with its length, or its start and end when long;
 * a list by its count and its last item (the eleventh row of a list of 11); a list's sections by
 * their rows. Pure: from an answer body and a pointer.
 */
import { excerpt } from './findings.js';
import type { CaseReport, ProblemReport, TurnReport } from './report.js';
import { thousands } from './thousands.js';

/** A text up to this many characters is shown whole; a longer one by its start and end. */
const WHOLE_TEXT = 60;
const START = 40;
const END = 15;
/** A list of at most this many items may be shown whole. */
const SHORT_LIST = 10;
/** An item is shown as JSON up to this many characters (excerpt: bounded however large the item is). */
const ITEM = 80;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a JSON pointer (RFC 6901) names in a document, or undefined when it names nothing. */
export function valueAtPointer(document: unknown, pointer: string): { value: unknown } | undefined {
  if (pointer === '') return { value: document };
  if (!pointer.startsWith('/')) return undefined;
  let value = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(value) && /^\d+$/.test(key)) value = value[Number(key)];
    else if (isObject(value) && Object.hasOwn(value, key)) value = value[key];
    else return undefined;
    if (value === undefined) return undefined;
  }
  return { value };
}

function characters(text: string): number {
  return [...text].length;
}

/** `"See the whole menu today!" (25 characters)`; a long text as `"Hello, this is…the end." (1,900 characters)`. */
function textShown(text: string): string {
  const count = characters(text);
  const length = `(${thousands(count)} character${count === 1 ? '' : 's'})`;
  if (count <= WHOLE_TEXT) return `${JSON.stringify(text)} ${length}`;
  const points = [...text];
  return `${JSON.stringify(points.slice(0, START).join(''))} … ${JSON.stringify(points.slice(-END).join(''))} ${length}`;
}

function itemShown(item: unknown): string {
  return typeof item === 'string' ? textShown(item) : excerpt(item, ITEM);
}

/** `11 rows; row 11: {"id":"item_11","title":"Item 11"}`: a list's sections by their rows together. */
function sectionsShown(sections: readonly unknown[]): string | undefined {
  if (!sections.every((section) => isObject(section) && Array.isArray(section.rows))) return undefined;
  const rows = sections.flatMap((section) => (isObject(section) && Array.isArray(section.rows) ? section.rows : []));
  if (rows.length === 0) return `${sections.length} section${sections.length === 1 ? '' : 's'}, no row`;
  return `${rows.length} row${rows.length === 1 ? '' : 's'} in ${sections.length} section${sections.length === 1 ? '' : 's'}; row ${rows.length}: ${itemShown(rows.at(-1))}`;
}

/** The value said short (see the module's comment); `path` tells a list's sections from other lists. */
export function describeValue(value: unknown, path = ''): string {
  if (typeof value === 'string') return textShown(value);
  if (Array.isArray(value)) {
    const sections = path.endsWith('/sections') ? sectionsShown(value) : undefined;
    if (sections) return sections;
    if (value.length === 0) return 'an empty list';
    // A hostile answer's list may hold thousands: only a short one is written whole.
    const all = value.length <= SHORT_LIST ? excerpt(value, ITEM + 1) : undefined;
    if (all !== undefined && all.length <= ITEM) return `${value.length} item${value.length === 1 ? '' : 's'}: ${all}`;
    return `${value.length} items; item ${value.length}: ${itemShown(value.at(-1))}`;
  }
  return excerpt(value, ITEM);
}

/** The value at fault in an answer, said short; undefined when the pointer names the whole body, a whole reply (which the outputs quote already) or nothing in it. */
export function valueShown(answer: unknown, path: string): string | undefined {
  if (path === '' || /^\/replies(?:\/\d+)?$/.test(path) || answer === undefined) return undefined;
  const found = valueAtPointer(answer, path);
  return found ? describeValue(found.value, path) : undefined;
}

/** A case's turn `turn` (of its play `play`, with several), or undefined when it has none such. */
export function turnOf(caseReport: CaseReport, turn: number | null, play: number | undefined): TurnReport | undefined {
  if (turn === null) return undefined;
  const turns = play === undefined ? caseReport.turns : (caseReport.plays[play - 1]?.turns ?? []);
  return turns[turn];
}

/** The example finding's turn, from its case (of its play, with several). */
export function exampleTurn(problem: Pick<ProblemReport, 'example'>, cases: readonly CaseReport[]): TurnReport | undefined {
  const { example } = problem;
  const caseReport = cases.find((candidate) => candidate.id === example.case && candidate.channel === example.channel);
  return caseReport && turnOf(caseReport, example.turn, example.play);
}

/** The problems, each example given the value at its pointer (`value`) where its turn's answer has one. */
export function withValues(problems: readonly ProblemReport[], cases: readonly CaseReport[]): ProblemReport[] {
  return problems.map((problem) => {
    const value = valueShown(exampleTurn(problem, cases)?.answer, problem.example.path);
    return value === undefined ? problem : { ...problem, example: { ...problem.example, value } };
  });
}
