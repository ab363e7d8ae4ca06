import type { ExtendedCase } from '../case.js';

const FIRST = 'table for 2 at 7';

/** `quote-own`: the person sends a message, then corrects it, quoting their own first message. */
export const quoteOwn: ExtendedCase<'quote-own'> = {
  id: 'quote-own',
  description: 'A message quoting the person\'s own earlier message (replyTo from "person") is answered.',
  scope: 'channel',
  group: 'extended',
  order: 40,
  doc: {
    does: 'sends "table for 2 at 7", then "actually make it 8" quoting their own first message (`replyTo` with `from: "person"`)',
  },
  async run(context) {
    const conversation = context.openConversation();
    await context.exchange({ conversation, message: { text: FIRST }, expectsReply: true });
    const quoted = { messageId: conversation.personMessageIds[0]!, from: 'person' as const, text: FIRST };
    await context.exchange({ conversation, message: { text: 'actually make it 8', replyTo: quoted }, expectsReply: true });
  },
};
