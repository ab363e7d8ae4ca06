import voiceNote from '../../generated/voice-note.json' with { type: 'json' };
import { attachmentOnly } from '../attachment-only.js';
import type { ExtendedCase } from '../case.js';

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
  doc: {
    does: 'sends only a voice note: `text` is `""`, one `audio` attachment (`audio/ogg`, a real 1.5 s Opus file, [`fixtures/voice-note.ogg`](../fixtures/voice-note.ogg))',
  },
} satisfies ExtendedCase<'voice-note'>;
