import type { MessageReply } from '../core/answer.js';
import { buttonId } from '../core/answer.js';
import { type Finding, MAX_FINDINGS, error, excerpt, replyPointer } from '../core/findings.js';

/** An id and where it stands, as pointer segments under the reply. */
interface PlacedId {
  id: string;
  place: (string | number)[];
}

/**
 * Every id that repeats an earlier one, pointing at its first use. At most MAX_FINDINGS of them:
 * a flood (140,000 buttons of one id) is capped anyway.
 */
function repeatedIds(ids: readonly PlacedId[], replyIndex: number, what: string, scope: string, findings: Finding[]): void {
  const firstUse = new Map<string, PlacedId['place']>();
  let repeats = 0;
  for (const { id, place } of ids) {
    const earlier = firstUse.get(id);
    if (earlier === undefined) {
      firstUse.set(id, place);
      continue;
    }
    findings.push(
      error(
        'schema',
        replyPointer(replyIndex, ...place),
        `${what} id ${excerpt(id)} is used again; it was first used at ${replyPointer(replyIndex, ...earlier)}; ids must be unique within the ${scope}`,
        `Give each ${what} its own id, so a tap says which one was chosen.`,
      ),
    );
    if (++repeats === MAX_FINDINGS) return;
  }
}

/** Button ids unique within a message, row ids unique within a list: rules JSON Schema cannot say. */
export function uniqueIdFindings(reply: MessageReply, replyIndex: number, findings: Finding[]): void {
  const { buttons, list } = reply;
  if (buttons !== undefined) {
    const ids = buttons.map((button, b) => ({
      id: buttonId(button),
      // A label-only button is its own id.
      place: typeof button === 'string' ? ['buttons', b] : ['buttons', b, 'id'],
    }));
    repeatedIds(ids, replyIndex, 'button', 'message', findings);
  }
  if (list !== undefined) {
    const ids: PlacedId[] = [];
    list.sections.forEach((section, s) =>
      section.rows.forEach((row, r) => ids.push({ id: row.id, place: ['list', 'sections', s, 'rows', r, 'id'] })),
    );
    repeatedIds(ids, replyIndex, 'row', 'list', findings);
  }
}
