import voiceNote from '../../generated/voice-note.json' with { type: 'json' };
import { attachmentOnly } from '../attachment-only.js';

/** `voice-note`: the person sends only a voice note (a real short Ogg Opus file, text ""). */
export const voiceNoteCase = {
  ...attachmentOnly(
    'voice-note',
    'A message that is only a voice note (text "", one audio attachment, audio/ogg Opus) is answered.',
    'extended',
    () => ({
      kind: 'audio',
      mime: voiceNote.mime,
      name: voiceNote.name,
      data: voiceNote.data,
    }),
  ),
  order: 10,
};
