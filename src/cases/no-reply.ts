import type { Case } from './case.js';

/** `no-reply`: the person sends a message that may need no answer. */
export const noReply: Case<'no-reply'> = {
  id: 'no-reply',
  description: 'A message that needs no answer gets a valid answer; [] passes.',
  scope: 'channel',
  group: 'contract',
  async run(context) {
    const conversation = context.openConversation();
    await context.exchange({ conversation, message: { text: 'ok thanks 👍' }, expectsReply: false });
  },
};
