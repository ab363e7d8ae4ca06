/**
 * What reports keep of a request: the body as sent, except that an attachment's data over 1 KB of
 * base64 is replaced by its decoded size and SHA-256 digest. A run sends the photo (290 KB of
 * base64) on every channel, and quality/large-attachment 7 MB: kept inline, they would fill the
 * JSON and HTML reports and the memory of a long --runs run.
 */
import type { AgentRequest, Attachment, RecordedAttachment, RecordedRequest } from '../core/request.js';

/** Base64 characters an attachment's data may have and still be recorded inline. */
export const MAX_INLINE_ATTACHMENT_DATA = 1024;

interface DataDigest {
  dataBytes: number;
  dataSha256: string;
}

/**
 * The digests of the data recorded lately, newest last: a run sends the same few files again and
 * again (the photo on every channel, --explore's seven files in turn), and digesting the photo again
 * costs about 1 ms. With only the newest kept, --explore's alternating files missed nearly every
 * time: 1,000 explore turns spent 25 ms of a Node 24 profile in recordedRequest, 17 with these kept
 * (most of the rest is loading node:crypto, once). The data kept as keys is bounded
 * (KEPT_DATA_CHARACTERS): the newest entry always stays, older ones go first.
 */
const digests = new Map<string, DataDigest>();
const KEPT_DATA_CHARACTERS = 16 * 1024 * 1024;
let keptCharacters = 0;

function digestOf(data: string): DataDigest {
  const known = digests.get(data);
  if (known) return known;
  const bytes = Buffer.from(data, 'base64');
  // Loaded when a large attachment is first recorded, not at start-up (src/core/problems.ts says why).
  const { createHash } = process.getBuiltinModule('node:crypto');
  const digest = { dataBytes: bytes.length, dataSha256: createHash('sha256').update(bytes).digest('hex') };
  digests.set(data, digest);
  keptCharacters += data.length;
  for (const oldest of digests.keys()) {
    if (keptCharacters <= KEPT_DATA_CHARACTERS || oldest === data) break;
    digests.delete(oldest);
    keptCharacters -= oldest.length;
  }
  return digest;
}

function recordedAttachment(attachment: Attachment): RecordedAttachment {
  if (attachment.data.length <= MAX_INLINE_ATTACHMENT_DATA) return attachment;
  const { data, ...rest } = attachment;
  return { ...rest, ...digestOf(data) };
}

/** True when the request as recorded left out attachment data (its body as sent is larger than the record). */
export function leftOutData(request: RecordedRequest): boolean {
  return request.message.attachments?.some((attachment) => !('data' in attachment)) ?? false;
}

/** The request as reports keep it. */
export function recordedRequest(request: AgentRequest): RecordedRequest {
  const { attachments } = request.message;
  if (!attachments?.some((attachment) => attachment.data.length > MAX_INLINE_ATTACHMENT_DATA)) return request;
  return { ...request, message: { ...request.message, attachments: attachments.map(recordedAttachment) } };
}
