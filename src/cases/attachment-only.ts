import type { Attachment } from '../core/request.js';
import type { Case, CaseGroup } from './case.js';

/**
 * A case in which the person sends only a file (text ""), which needs no reply: the photo, the voice
 * note, the video. The file is made when the case plays (the photo is read from disk then).
 */
export function attachmentOnly<Id extends string>(id: Id, description: string, group: CaseGroup, attachment: () => Attachment): Case<Id> {
  return {
    id,
    description,
    scope: 'channel',
    group,
    async run(context) {
      const conversation = context.openConversation();
      await context.exchange({ conversation, message: { text: '', attachments: [attachment()] }, expectsReply: false });
    },
  };
}
