/**
 * What a person can tap in a reply, drawn as its platform shows it: its buttons (chips, or an
 * inline keyboard) and its list's sheet, each part the platform would not send struck with its
 * finding's pointer, and on the live chat page each choice a button that taps it.
 */
import { replyPointer } from '../../core/findings.js';
import type { ReportedFinding } from '../../core/report.js';
import type { ConversationContext } from './context.js';
import { type Markup, h } from './markup.js';
import { faultUnder, faultsAt, firstRefused, limitCounting, struck, struckWhere } from './at-fault.js';
import { asArray, asRecord, asString, clip, count, plural } from './values.js';

const MAX_LABEL = 120;
const MAX_BUTTONS = 12;
const MAX_SECTIONS = 10;
const MAX_ROWS = 30;

/** A short label: cut, never empty on screen. */
export function label(value: unknown, fallback = '(no label)'): Markup {
  const text = typeof value === 'string' ? value : undefined;
  if (text === undefined) return h`<span class="bad-value">${fallback}</span>`;
  if (text === '') return h`<span class="bad-value">(empty)</span>`;
  const { shown, hidden } = clip(text, MAX_LABEL);
  return h`${shown}${hidden ? '…' : ''}`;
}

function buttonLabel(button: unknown): Markup {
  if (typeof button === 'string') return label(button);
  const record = asRecord(button);
  return label(record?.label);
}

function buttonTitle(button: unknown): string {
  const id = typeof button === 'string' ? button : asString(asRecord(button)?.id);
  return id === undefined ? '' : `id: ${clip(id, MAX_LABEL).shown}`;
}

/** Where a message's parts are, for the findings at them and the person's taps: its turn, the reply's index and its findings. */
export interface PartPlace {
  turn: number;
  index: number;
  findings: readonly ReportedFinding[];
}

/** A choice's id (a button's, a list row's), as the person's tap names it; undefined when it has none. */
function choiceId(choice: unknown): string | undefined {
  return typeof choice === 'string' ? choice : asString(asRecord(choice)?.id);
}

/**
 * On the live chat page, what the person taps: a button naming the turn, the reply and the choice's
 * id (the page's script sends them back; the server finds the choice in its own record of the answer).
 */
function tappable(context: ConversationContext, place: PartPlace, id: string | undefined, inside: Markup | string): Markup | string {
  if (!context.interactive || id === undefined) return inside;
  return h`<button type="button" class="tap" data-turn="${place.turn}" data-reply="${place.index}" data-choice="${id}">${inside}</button>`;
}

/** The pointer of a part of the reply: `/replies/<index>/<segments>`. */
export const partPointer = (place: PartPlace, ...segments: (string | number)[]): string => replyPointer(place.index, ...segments);

export function renderButtons(context: ConversationContext, buttons: readonly unknown[], link: Markup | '', place: PartPlace): Markup {
  const shown = buttons.slice(0, MAX_BUTTONS);
  const more = buttons.length - shown.length;
  const kind = context.look.inlineKeyboard ? 'keyboard' : 'chips';
  const sequence = partPointer(place, 'buttons');
  const from = firstRefused(place.findings, sequence);
  return h`<ul class="${kind}" aria-label="${plural(buttons.length, 'button')}">
    ${shown.map((button, index) => {
      const item = partPointer(place, 'buttons', index);
      const refused = from !== undefined && index >= from ? sequence : faultUnder(place.findings, item);
      const drawn = buttonLabel(button);
      return h`<li class="chip" title="${buttonTitle(button)}">${tappable(context, place, choiceId(button), refused ? struck(drawn, refused) : drawn)}</li>`;
    })}${more > 0 ? h`<li class="chip more">${count(more)} more buttons</li>` : ''}${link}
  </ul>`;
}

/** Which rows and sections of a list its platform would not send: all (no lists there), past a count, or one at a time. */
interface RefusedList {
  /** The pointer of the finding that refuses rows or sections past a count, or all of them. */
  pointer: string;
  /** Rows from this one on (counted over all sections), sections from this one on; Infinity: none. */
  rowsFrom: number;
  sectionsFrom: number;
}

function refusedList(place: PartPlace): RefusedList | undefined {
  const whole = partPointer(place, 'list');
  if (faultsAt(place.findings, whole).length > 0) return { pointer: whole, rowsFrom: 0, sectionsFrom: 0 };
  const sections = partPointer(place, 'list', 'sections');
  const refused: RefusedList = { pointer: sections, rowsFrom: Infinity, sectionsFrom: Infinity };
  // Each finding there counts rows (of all sections together) or sections; one that carries neither refuses every section.
  for (const finding of faultsAt(place.findings, sections)) {
    const rows = limitCounting(finding, 'rows');
    if (rows !== undefined) refused.rowsFrom = Math.min(refused.rowsFrom, rows);
    else refused.sectionsFrom = Math.min(refused.sectionsFrom, limitCounting(finding, 'sections') ?? 0);
  }
  return refused.rowsFrom === Infinity && refused.sectionsFrom === Infinity ? undefined : refused;
}

/** The list's opener label (`button`), struck where its platform refuses it or the whole list. */
export function openerLabel(list: Record<string, unknown>, place: PartPlace): Markup | string {
  const refused = faultsAt(place.findings, partPointer(place, 'list')).length > 0 ? partPointer(place, 'list') : undefined;
  return refused
    ? struck(label(list.button), refused)
    : struckWhere(place.findings, partPointer(place, 'list', 'button'), label(list.button));
}

export function renderListSheet(context: ConversationContext, list: Record<string, unknown>, place: PartPlace): Markup {
  const sections = asArray(list.sections) ?? [];
  const refused = refusedList(place);
  let rowsLeft = MAX_ROWS;
  let rowNumber = 0;
  const drawn = sections.slice(0, MAX_SECTIONS).map((section, s) => {
    const record = asRecord(section);
    const rows = asArray(record?.rows) ?? [];
    const shown = rows.slice(0, Math.max(0, rowsLeft));
    rowsLeft -= shown.length;
    const title = asString(record?.title);
    const sectionPointer = partPointer(place, 'list', 'sections', s);
    const sectionRefused = refused && s >= refused.sectionsFrom ? refused.pointer : undefined;
    // A section its platform wants titled (when a list has several) and that has none: its missing title, struck.
    const untitled = title === undefined && faultsAt(place.findings, sectionPointer).length > 0;
    const titleText =
      title !== undefined
        ? sectionRefused
          ? struck(label(title), sectionRefused)
          : struckWhere(place.findings, partPointer(place, 'list', 'sections', s, 'title'), label(title))
        : untitled
          ? struck(h`<span class="bad-value">(no title)</span>`, sectionPointer)
          : '';
    const sectionRows = shown.map((row, r) => {
      const item = asRecord(row);
      const description = asString(item?.description);
      const number = rowNumber++;
      const rowPointer = partPointer(place, 'list', 'sections', s, 'rows', r);
      // The whole row is not sent past the list's count, for a fault at the row itself or at its id
      // (what a tap sends back); else only its title or its description, where the fault is.
      const wholeRow =
        refused && (number >= refused.rowsFrom || s >= refused.sectionsFrom)
          ? refused.pointer
          : (faultsAt(place.findings, rowPointer)[0]?.path ?? faultUnder(place.findings, `${rowPointer}/id`));
      const mark = (content: Markup, part: 'title' | 'description'): Markup | string => {
        const fault = wholeRow ?? faultUnder(place.findings, `${rowPointer}/${part}`);
        return fault ? struck(content, fault) : content;
      };
      const drawnRow = h`<span class="row-title">${mark(label(item?.title), 'title')}</span>${
        description !== undefined ? h`<span class="row-description">${mark(label(description), 'description')}</span>` : ''
      }<span class="radio" aria-hidden="true"></span>`;
      return h`<li class="list-row" title="${buttonTitle({ id: item?.id })}">${tappable(context, place, choiceId(item), drawnRow)}</li>`;
    });
    rowNumber += rows.length - shown.length;
    return h`<li class="list-section">
      ${titleText !== '' ? h`<p class="section-title">${titleText}</p>` : ''}
      <ul class="list-rows">
        ${sectionRows}${rows.length > shown.length ? h`<li class="list-row more">${count(rows.length - shown.length)} more rows</li>` : ''}
      </ul>
    </li>`;
  });
  return h`<div class="list-sheet" role="group" aria-label="The list's rows, as the person sees them after opening it">
    <p class="sheet-title">${openerLabel(list, place)}</p>
    <ul class="list-sections">
      ${drawn}
    </ul>
    ${sections.length > MAX_SECTIONS ? h`<p class="clipped">${count(sections.length - MAX_SECTIONS)} more sections</p>` : ''}
  </div>`;
}
