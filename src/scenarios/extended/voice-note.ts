import voiceNote from '../../generated/voice-note.json' with { type: 'json' };
import type { Scenario } from '../scenario.js';

/** `voice-note`: the person sends only a voice note (a real short Ogg Opus file, text ""). */
export const voiceNoteCase: Scenario<'voice-note'> = {
  id: 'voice-note',
  description: 'A message that is only a voice note (text "", one audio attachment, audio/ogg Opus) is answered.',
  scope: 'channel',
  group: 'extended',
  async run(context) {
    const conversation = context.openConversation();
    const attachment = { kind: 'audio' as const, mime: voiceNote.mime, name: voiceNote.name, data: voiceNote.data };
    await context.exchange({ conversation, message: { text: '', attachments: [attachment] }, expectsReply: false });
  },
};
