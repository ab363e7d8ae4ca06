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
 * The last data digested: every photo turn of a run sends the same string, and digesting it again
 * costs about 1 ms a turn (100 photo turns in bench figure (f)).
 */
let last: { data: string; digest: DataDigest } | undefined;

function digestOf(data: string): DataDigest {
  if (last?.data !== data) {
    const bytes = Buffer.from(data, 'base64');
    // Loaded when a large attachment is first recorded, not at start-up (src/core/problems.ts says why).
    const { createHash } = process.getBuiltinModule('node:crypto');
    last = { data, digest: { dataBytes: bytes.length, dataSha256: createHash('sha256').update(bytes).digest('hex') } };
  }
  return last.digest;
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
