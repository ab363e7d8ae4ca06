import { attachmentOnly } from './attachment-only.js';
import { photoAttachment } from './photo-file.js';

/** `photo`: the person sends only a photo (a real phone-sized JPEG, text ""), read when the case plays. */
export const photoCase = attachmentOnly(
  'photo',
  'A message that is only a photo (text "", one image attachment: a 1280×960 JPEG of 218 KB, as a phone sends it) is answered.',
  'contract',
  photoAttachment,
);
