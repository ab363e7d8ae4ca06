import menu from '../../generated/document.json' with { type: 'json' };
import type { ExtendedCase } from '../case.js';

/** `document`: the person sends a one-page PDF with a few words. */
export const documentCase: ExtendedCase<'document'> = {
  id: 'document',
  description: 'A message with a document attachment (a real one-page PDF, application/pdf) and text is answered.',
  scope: 'channel',
  group: 'extended',
  order: 20,
  doc: {
    does: 'sends "here is the menu for the party" with one `document` attachment (`application/pdf`, a one-page PDF, [`fixtures/menu.pdf`](../fixtures/menu.pdf))',
  },
  async run(context) {
    const conversation = context.openConversation();
    const attachment = { kind: 'document' as const, mime: menu.mime, name: menu.name, data: menu.data };
    await context.exchange({
      conversation,
      message: { text: 'here is the menu for the party', attachments: [attachment] },
      expectsReply: true,
    });
  },
};
