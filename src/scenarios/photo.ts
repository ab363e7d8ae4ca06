import photo from '../generated/photo.json' with { type: 'json' };
import { attachmentOnly } from './attachment-only.js';

/** `photo`: the person sends only a photo (a real small JPEG, text ""). */
export const photoCase = attachmentOnly(
  'photo',
  'A message that is only a photo (text "", one image attachment) is answered.',
  'contract',
  {
    kind: 'image',
    mime: photo.mime,
    name: photo.name,
    data: photo.data,
  },
);
