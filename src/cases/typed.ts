import type { Case } from './case.js';

/** `typed`: the person sends one typed message. */
export const typed: Case<'typed'> = {
  id: 'typed',
  description: 'A typed message is answered with status 200 and replies the channel shows.',
  scope: 'channel',
  group: 'contract',
  async run(context) {
    const conversation = context.openConversation();
    await context.exchange({ conversation, message: { text: 'hi, what time are you open today?' }, expectsReply: true });
  },
};
