import video from '../../generated/video.json' with { type: 'json' };
import { attachmentOnly } from '../attachment-only.js';
import type { ExtendedCase } from '../case.js';

/** `video`: the person sends only a short video (a real tiny MP4, text ""). */
export const videoCase = {
  ...attachmentOnly(
    'video',
    'A message that is only a short video (text "", one video attachment, video/mp4) is answered.',
    'extended',
    () => ({
      kind: 'video',
      mime: video.mime,
      name: video.name,
      data: video.data,
    }),
  ),
  order: 30,
  doc: {
    does: 'sends only a short video: `text` is `""`, one `video` attachment (`video/mp4`, [`fixtures/video.mp4`](../fixtures/video.mp4))',
  },
} satisfies ExtendedCase<'video'>;
