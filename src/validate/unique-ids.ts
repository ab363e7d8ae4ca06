import type { Button, ListSection, MessageReply } from '../core/answer.js';
import { buttonId } from '../core/answer.js';
import { type Finding, MAX_FINDINGS, error, excerpt, replyPointer } from '../core/findings.js';

/** Where an id stands, as pointer segments under the reply; turned into a pointer only when needed. */
type Place = (string | number)[];

/** Above this many ids a Map finds repeats; below, comparing pairs costs less than building one. */
const PAIRWISE_LIMIT = 32;

function reportRepeat(
  findings: Finding[],
  replyIndex: number,
  id: string,
  place: Place,
  earlier: Place,
  what: string,
  scope: string,
): void {
  findings.push(
    error(
      'schema',
      replyPointer(replyIndex, ...place),
      `${what} id ${excerpt(id)} is used again; it was first used at ${replyPointer(replyIndex, ...earlier)}; ids must be unique within the ${scope}`,
      `Give each ${what} its own id, so a tap says which one was chosen.`,
    ),
  );
}

/** The ids of a message's buttons, or of a list's rows, with where each stands. */
interface IdList {
  count: number;
  idAt(index: number): string;
  placeOf(index: number): Place;
}

/** Reports every id that repeats an earlier one, up to MAX_FINDINGS of them: a flood is capped anyway. */
function repeats(ids: IdList, replyIndex: number, what: string, scope: string, findings: Finding[]): void {
  const stopAt = findings.length + MAX_FINDINGS;
  if (ids.count <= PAIRWISE_LIMIT) {
    for (let i = 1; i < ids.count; i++) {
      const id = ids.idAt(i);
      for (let j = 0; j < i; j++) {
        if (ids.idAt(j) === id) {
          reportRepeat(findings, replyIndex, id, ids.placeOf(i), ids.placeOf(j), what, scope);
          break;
        }
      }
    }
    return;
  }
  const first = new Map<string, number>();
  for (let i = 0; i < ids.count && findings.length < stopAt; i++) {
    const id = ids.idAt(i);
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, i);
    else reportRepeat(findings, replyIndex, id, ids.placeOf(i), ids.placeOf(earlier), what, scope);
  }
}

/** True when no two of the few ids repeat: checked pair by pair, without building anything. */
function fewDistinct(ids: readonly string[]): boolean {
  for (let i = 1; i < ids.length; i++) {
    const id = ids[i];
    for (let j = 0; j < i; j++) if (ids[j] === id) return false;
  }
  return true;
}

/** True when the message's few button ids are surely distinct; false sends them to `repeats`. */
function buttonIdsDistinct(buttons: readonly Button[]): boolean {
  if (buttons.length > PAIRWISE_LIMIT) return false;
  for (let i = 1; i < buttons.length; i++) {
    const id = buttonId(buttons[i]!);
    for (let j = 0; j < i; j++) if (buttonId(buttons[j]!) === id) return false;
  }
  return true;
}

/** The row ids of a list of at most PAIRWISE_LIMIT rows, or undefined for a longer one. */
function fewRowIds(sections: readonly ListSection[]): string[] | undefined {
  const ids: string[] = [];
  for (const section of sections) {
    if (ids.length + section.rows.length > PAIRWISE_LIMIT) return undefined;
    for (const row of section.rows) ids.push(row.id);
  }
  return ids;
}

/** Button ids unique within a message, row ids unique within a list: rules JSON Schema cannot say. */
export function uniqueIdFindings(reply: MessageReply, replyIndex: number, findings: Finding[]): void {
  const { buttons, list } = reply;
  if (buttons !== undefined && buttons.length > 1 && !buttonIdsDistinct(buttons)) {
    const ids: IdList = {
      count: buttons.length,
      idAt: (i) => buttonId(buttons[i]!),
      placeOf: (i) => (typeof buttons[i] === 'string' ? ['buttons', i] : ['buttons', i, 'id']),
    };
    repeats(ids, replyIndex, 'button', 'message', findings);
  }
  if (list === undefined) return;
  const sections = list.sections;
  const few = fewRowIds(sections);
  if (few !== undefined && fewDistinct(few)) return;
  const places = sections.flatMap((section, s) => section.rows.map((row, r) => ({ id: row.id, s, r })));
  const ids: IdList = {
    count: places.length,
    idAt: (i) => places[i]!.id,
    placeOf: (i) => ['list', 'sections', places[i]!.s, 'rows', places[i]!.r, 'id'],
  };
  repeats(ids, replyIndex, 'row', 'list', findings);
}
