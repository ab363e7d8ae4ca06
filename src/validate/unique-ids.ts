import type { MessageReply } from '../answer.js';
import { buttonId } from '../answer.js';
import { type Finding, error, pointer } from '../findings.js';

function duplicates(ids: { id: string; path: string }[], what: string, scope: string): Finding[] {
  const first = new Map<string, string>();
  const findings: Finding[] = [];
  for (const { id, path } of ids) {
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, path);
    else
      findings.push(
        error(
          'schema',
          path,
          `${what} id "${id}" is used again; it was first used at ${earlier}; ids must be unique within the ${scope}`,
          `Give each ${what} its own id, so a tap says which one was chosen.`,
        ),
      );
  }
  return findings;
}

/** Button ids unique within a message, row ids unique within a list: rules JSON Schema cannot say. */
export function uniqueIdFindings(reply: MessageReply, replyPath: string): Finding[] {
  const buttons = (reply.buttons ?? []).map((button, index) => ({
    id: buttonId(button),
    path: typeof button === 'string' ? pointer(replyPath, 'buttons', index) : pointer(replyPath, 'buttons', index, 'id'),
  }));
  const rows = (reply.list?.sections ?? []).flatMap((section, s) =>
    section.rows.map((row, r) => ({ id: row.id, path: pointer(replyPath, 'list', 'sections', s, 'rows', r, 'id') })),
  );
  return [...duplicates(buttons, 'button', 'message'), ...duplicates(rows, 'row', 'list')];
}
