import { type Finding, error, excerpt, replyPointer } from '../core/findings.js';

/**
 * An id a reply names (`replyTo`, a reaction's `messageId`) must be one of the person's messages
 * in this conversation: a handful of ids, looked through one by one.
 */
export function referenceFindings(
  field: 'replyTo' | 'messageId',
  id: string,
  replyIndex: number,
  personMessageIds: readonly string[],
  findings: Finding[],
): void {
  if (personMessageIds.includes(id)) return;
  findings.push(
    error(
      'reference',
      replyPointer(replyIndex, field),
      `"${field}" names ${excerpt(id)}, which is not one of the person's messages in this conversation (expected one of ${knownIds(personMessageIds)})`,
      "Use a messageId from this conversation's requests; the agent's own message ids and other conversations' ids do not count.",
    ),
  );
}

/** The ids a reference may name, for the message: the first few, each shortened. */
function knownIds(ids: readonly string[]): string {
  if (ids.length === 0) return 'none yet';
  const shown = ids.slice(0, KNOWN_IDS_SHOWN).map((id) => excerpt(id));
  return ids.length > KNOWN_IDS_SHOWN ? `${shown.join(', ')}, … (${ids.length} ids)` : shown.join(', ');
}

const KNOWN_IDS_SHOWN = 10;
