import video from '../../generated/video.json' with { type: 'json' };
import type { Scenario } from '../scenario.js';

/** `video`: the person sends only a short video (a real tiny MP4, text ""). */
export const videoCase: Scenario<'video'> = {
  id: 'video',
  description: 'A message that is only a short video (text "", one video attachment, video/mp4) is answered.',
  scope: 'channel',
  group: 'extended',
  async run(context) {
    const conversation = context.openConversation();
    const attachment = { kind: 'video' as const, mime: video.mime, name: video.name, data: video.data };
    await context.exchange({ conversation, message: { text: '', attachments: [attachment] }, expectsReply: false });
  },
};
