import type { MessageReply } from '../answer.js';
import { buttonId } from '../answer.js';
import { type Finding, MAX_FINDINGS, error, excerpt, replyPointer } from '../findings.js';

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

/** True when no two of the few ids repeat: checked without building anything. */
function fewDistinct(count: number, idAt: (index: number) => string): boolean {
  for (let i = 1; i < count; i++) for (let j = 0; j < i; j++) if (idAt(i) === idAt(j)) return false;
  return true;
}

/** Button ids unique within a message, row ids unique within a list: rules JSON Schema cannot say. */
export function uniqueIdFindings(reply: MessageReply, replyIndex: number, findings: Finding[]): void {
  const buttons = reply.buttons;
  if (buttons && buttons.length > 1 && !(buttons.length <= PAIRWISE_LIMIT && fewDistinct(buttons.length, (i) => buttonId(buttons[i]!)))) {
    const ids: IdList = {
      count: buttons.length,
      idAt: (i) => buttonId(buttons[i]!),
      placeOf: (i) => (typeof buttons[i] === 'string' ? ['buttons', i] : ['buttons', i, 'id']),
    };
    repeats(ids, replyIndex, 'button', 'message', findings);
  }
  const sections = reply.list?.sections;
  if (!sections) return;
  if (sections.length === 1) {
    const rows = sections[0]!.rows;
    if (rows.length < 2 || (rows.length <= PAIRWISE_LIMIT && fewDistinct(rows.length, (i) => rows[i]!.id))) return;
  }
  const places = sections.flatMap((section, s) => section.rows.map((row, r) => ({ id: row.id, s, r })));
  const ids: IdList = {
    count: places.length,
    idAt: (i) => places[i]!.id,
    placeOf: (i) => ['list', 'sections', places[i]!.s, 'rows', places[i]!.r, 'id'],
  };
  repeats(ids, replyIndex, 'row', 'list', findings);
}
