import photo from '../generated/photo.json' with { type: 'json' };
import type { Scenario } from './scenario.js';

/** `photo`: the person sends only a photo (a real small JPEG, text ""). */
export const photoCase: Scenario<'photo'> = {
  id: 'photo',
  description: 'A message that is only a photo (text "", one image attachment) is answered.',
  scope: 'channel',
  group: 'contract',
  async run(context) {
    const conversation = context.openConversation();
    const attachment = { kind: 'image' as const, mime: photo.mime, name: photo.name, data: photo.data };
    await context.exchange({ conversation, message: { text: '', attachments: [attachment] }, expectsReply: false });
  },
};
