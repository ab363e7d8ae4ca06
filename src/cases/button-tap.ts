import { buttonId, buttonLabel } from '../core/answer.js';
import type { PersonMessage } from '../core/request.js';
import type { PastTurn, Case } from './case.js';

/** A made-up choice for an agent that offered no button or list row to tap. */
export const MADE_UP_CHOICE = { id: 'chk_option_1', title: 'Option 1' } as const;

/**
 * The tap on the agent's first button or list row, quoting the message that offered it; a
 * made-up choice when the answer offered none (quoting its first message, if any).
 */
export function tapOn(offered: PastTurn | undefined): PersonMessage {
  const replies = offered?.replies ?? [];
  const index = replies.findIndex((reply) => reply.type === 'message' && (reply.buttons?.length || reply.list?.sections[0]?.rows[0]));
  const quoted = index >= 0 ? index : replies.findIndex((reply) => reply.type === 'message');
  const offer = replies[index];
  let choice: { id: string; title: string } = { ...MADE_UP_CHOICE };
  if (offer?.type === 'message' && offer.buttons?.[0] !== undefined) {
    choice = { id: buttonId(offer.buttons[0]), title: buttonLabel(offer.buttons[0]) };
  } else if (offer?.type === 'message' && offer.list?.sections[0]?.rows[0]) {
    const row = offer.list.sections[0].rows[0];
    choice = { id: row.id, title: row.title };
  }
  const quotedReply = replies[quoted];
  const agentMessageId = offered?.agentMessageIds[quoted];
  const replyTo =
    quotedReply?.type === 'message' && agentMessageId !== undefined
      ? { replyTo: { messageId: agentMessageId, from: 'agent' as const, text: quotedReply.text ?? '' } }
      : {};
  return { text: '', choice, ...replyTo };
}

/** `button-tap`: the person sends a message, then taps the agent's first button or list row, quoting it. */
export const buttonTap: Case<'button-tap'> = {
  id: 'button-tap',
  description: "A tap on the agent's own button or list row, quoting the agent's message, is answered.",
  scope: 'channel',
  group: 'contract',
  async run(context) {
    const conversation = context.openConversation();
    await context.exchange({ conversation, message: { text: 'can i book a table for tonight?' }, expectsReply: true });
    await context.exchange({ conversation, message: tapOn(conversation.past[0]), expectsReply: false });
  },
};
