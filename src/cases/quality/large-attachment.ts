/**
 * quality/large-attachment: the largest photo a platform delivers is answered. On every channel
 * whose platform takes images (its `image` rule is not "no"; a custom channel without limits is
 * played too, since nothing says it takes none), one message carrying a JPEG of exactly the
 * contract's `x-large-attachment-bytes` (5 MiB), made at run time from the photo: the photo with
 * comment (COM) segments after its start marker, so it stays a valid JPEG that shows the same
 * picture. The body is under the contract's `x-max-request-bytes` (7 MB). Anything but status 200
 * with a valid answer is an error; a refusal is rule `large-attachment`, with the common servers'
 * default body limits in its hint.
 */
import { error } from '../../core/findings.js';
import type { Attachment } from '../../core/request.js';
import type { HttpOutcome } from '../../http/client.js';
import { photoBytes } from '../photo-file.js';
import type { QualityCase } from '../case.js';
import { withCaseRule } from './case-rule.js';
import { HOSTING, refusingServerWords, usualLimits } from '../../validate/request-size-hints.js';
import { answeringStack } from '../../validate/answering-stack.js';

const SOI = Buffer.from([0xff, 0xd8]);
/** A COM segment: FF FE, then a 2-byte length that counts itself, then at most 65,533 bytes. */
const COM_MARKER = Buffer.from([0xff, 0xfe]);
const MAX_SEGMENT = 2 + 2 + 65_533;
const PADDING_TEXT = Buffer.from('check-endpoint quality/large-attachment: padding to the largest photo a platform delivers. ');

/** One COM segment of `size` bytes in all (4 to 65,537). */
function commentSegment(size: number): Buffer {
  const segment = Buffer.alloc(size);
  COM_MARKER.copy(segment, 0);
  segment.writeUInt16BE(size - 2, 2);
  for (let at = 4; at < size; at += PADDING_TEXT.length) PADDING_TEXT.copy(segment, at, 0, Math.min(PADDING_TEXT.length, size - at));
  return segment;
}

/**
 * A valid JPEG of exactly `bytes` bytes: `jpeg` with COM segments inserted after its SOI marker,
 * their sizes spread evenly so that none is over 65,537 or under 4 bytes.
 */
export function paddedJpeg(jpeg: Buffer, bytes: number): Buffer {
  if (!jpeg.subarray(0, 2).equals(SOI)) throw new Error('not a JPEG: no SOI marker');
  const padding = bytes - jpeg.length;
  if (padding === 0) return jpeg;
  const count = Math.ceil(padding / MAX_SEGMENT);
  if (padding < 0 || padding < 4 * count) throw new Error(`a JPEG of ${jpeg.length} bytes cannot be padded to ${bytes}`);
  const base = Math.floor(padding / count);
  const segments = Array.from({ length: count }, (_, index) => commentSegment(index < padding % count ? base + 1 : base));
  return Buffer.concat([SOI, ...segments, jpeg.subarray(2)], bytes);
}

/** The contract's large photo as an attachment, made once per run's process and shared by every channel. */
let made: { bytes: number; attachment: Attachment } | undefined;

function largePhoto(bytes: number): Attachment {
  if (made?.bytes !== bytes) {
    made = {
      bytes,
      attachment: { kind: 'image', mime: 'image/jpeg', name: 'large-photo.jpg', data: paddedJpeg(photoBytes(), bytes).toString('base64') },
    };
  }
  return made.attachment;
}

const mebibytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB`;
const grouped = (bytes: number): string => bytes.toLocaleString('en-US');

/** The hint of a refusal: the contract's limit, the setting of the stack that refused it (or the usual ones), and the hosts' caps. */
export function largeAttachmentHint(bodyBytes: number, maxRequestBytes: number | undefined, outcome?: HttpOutcome): string {
  const limit =
    maxRequestBytes === undefined
      ? 'the largest photo a platform delivers'
      : `${grouped(maxRequestBytes)} bytes (the contract's x-max-request-bytes)`;
  // The server the refusal names (hapi's 413 quoting its payload.maxBytes, say) and its setting come first.
  const accepted = maxRequestBytes ?? bodyBytes;
  const named = outcome?.kind === 'answer' ? refusingServerWords(answeringStack(outcome), accepted) : undefined;
  return (
    (named ? `${named} ` : '') +
    `The body was ${grouped(bodyBytes)} bytes: accept request bodies up to ${limit}; WhatsApp delivers images up to 5 MB, sent inline as base64. ` +
    `${named ? '' : `${usualLimits(accepted)} `}${HOSTING}`
  );
}

export const largeAttachment: QualityCase<'quality/large-attachment'> = {
  id: 'quality/large-attachment',
  description:
    'A message carrying a 5 MiB JPEG (the largest image WhatsApp delivers), a body under 7 MB, is answered with status 200 and a valid answer.',
  scope: 'channel',
  group: 'quality',
  order: 70,
  doc: {
    runs: 'every channel whose platform takes images (not SMS; a custom channel unless its `--limits` file says `image: no`)',
    sends:
      "one message carrying a 5 MiB JPEG (`x-large-attachment-bytes`: the photo padded with JPEG comment segments, made at run time, never shipped) in a body of about 6,990,800 bytes, under the contract's 7,000,000 (`x-max-request-bytes`), as WhatsApp delivers its largest images",
    finding:
      "anything but `200` with a valid answer is an error (`large-attachment`), its hint naming the body's size and the defaults that refuse it: `express.json()` 100 kB, Fastify `bodyLimit` 1 MiB, koa `jsonLimit` 1 MB, Next.js `sizeLimit` 1 MB, nginx `client_max_body_size` 1 MB, Django `DATA_UPLOAD_MAX_MEMORY_SIZE` 2.5 MB, and the hosts' fixed 4.5 MB (Vercel) and 6 MB (AWS Lambda)",
  },
  playsOn: (platform) => platform?.image?.support !== 'no',
  // Four 7 MB bodies in flight at once would take the checker's memory past its 150 MiB.
  oneChannelAtATime: true,
  rules: [{ id: 'large-attachment' }],
  async run(context) {
    const { largeAttachmentBytes, maxRequestBytes } = context.contract;
    if (largeAttachmentBytes === undefined) {
      return {
        findings: [
          error(
            'large-attachment',
            '',
            'expected the contract to give x-large-attachment-bytes (the size of the image to send); the contract loaded gives none, so nothing was sent',
            'Add x-large-attachment-bytes (and x-max-request-bytes) to the POST operation of the OpenAPI document, as spec/agent-endpoint.openapi.yaml does.',
          ),
        ],
      };
    }
    const conversation = context.openConversation();
    const attachment = largePhoto(largeAttachmentBytes);
    const sent = `a message carrying a ${mebibytes(largeAttachmentBytes)} JPEG`;
    await context.exchange({
      conversation,
      message: { text: '', attachments: [attachment] },
      expectsReply: false,
      judge: {
        refine: (judged) =>
          withCaseRule(
            judged,
            context.settings.timeoutSeconds,
            'large-attachment',
            sent,
            largeAttachmentHint(judged.sentBytes, maxRequestBytes, judged.outcome),
          ),
      },
    });
  },
};
