/**
 * The choices an answer offers a person: each button and list row of its message replies, with the
 * reply that offers it. Answers that offer the same set of choices are one state of the agent's
 * menu (the crawl's unit), so a menu that loops back ends.
 */
import { type Reply, buttonId, buttonLabel } from '../../core/answer.js';

/** A button or list row an answer offers: its id and label, and the index of the reply holding it. */
export interface OfferedChoice {
  id: string;
  title: string;
  reply: number;
}

/** Every button and list row the replies offer, in order; none for replies that are not usable. */
export function offeredChoices(replies: readonly Reply[] | undefined): OfferedChoice[] {
  return (replies ?? []).flatMap((reply, index) => {
    if (reply.type !== 'message') return [];
    const buttons = (reply.buttons ?? []).map((button) => ({ id: buttonId(button), title: buttonLabel(button), reply: index }));
    const rows = (reply.list?.sections ?? []).flatMap((section) =>
      section.rows.map((row) => ({ id: row.id, title: row.title, reply: index })),
    );
    return [...buttons, ...rows].filter((choice) => typeof choice.id === 'string' && choice.id !== '');
  });
}

/** The state an answer leaves the menu in: its choices' ids, sorted, each once (`""` for none). */
export function menuState(choices: readonly OfferedChoice[]): string {
  return JSON.stringify([...new Set(choices.map((choice) => choice.id))].sort());
}
