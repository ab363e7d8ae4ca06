import type { Case } from './case.js';

/** `double-text`: the person sends two messages back to back, the second after the first's answer. */
export const doubleText: Case<'double-text'> = {
  id: 'double-text',
  description: 'Two messages in a row are each answered; the ids a reply names may be either message.',
  scope: 'channel',
  group: 'contract',
  async run(context) {
    const conversation = context.openConversation();
    await context.exchange({ conversation, message: { text: 'can i get a large latte' }, expectsReply: true });
    await context.exchange({ conversation, message: { text: 'oat milk actually' }, expectsReply: true });
  },
};
