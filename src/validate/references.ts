import { type Reply, namedMessageId } from '../answer.js';
import { type Finding, error, excerpt, replyPointer } from '../findings.js';

/** Each id a reply names (`replyTo`, a reaction's `messageId`) must be one of the person's messages in this conversation. */
export function referenceFindings(reply: Reply, replyIndex: number, personMessageIds: ReadonlySet<string>, findings: Finding[]): void {
  const named = namedMessageId(reply);
  if (named === undefined || personMessageIds.has(named.id)) return;
  const { field, id } = named;
  findings.push(
    error(
      'reference',
      replyPointer(replyIndex, field),
      `"${field}" names ${excerpt(id)}, which is not one of the person's messages in this conversation (expected one of ${[...personMessageIds].map((known) => excerpt(known)).join(', ') || 'none yet'})`,
      "Use a messageId from this conversation's requests; the agent's own message ids and other conversations' ids do not count.",
    ),
  );
}
