/**
 * A request as the JSON body sent. A large attachment's base64 (the 5 MiB image: 7 MB) is spliced
 * into the JSON around it instead of going through JSON.stringify, which copies a long string into
 * its output in parts and then flattens them, leaving twice the body behind until a full garbage
 * collection. Measured with four 7 MB bodies alone: peak memory 87 MiB through JSON.stringify, 69
 * MiB spliced; the checker's `--quality --extended --channel all` against the reference agent went
 * from 148 to 129 MiB (maxRSS, medians of 3), under its 150 MiB budget. Spliced, the body is built
 * as bytes (the data written once into one buffer), not as a string the client then copies into
 * bytes: that run with every report file went from 143, 160 and 148-166 MiB to 123, 128 and 125
 * MiB on Node 20, 22 and 24.
 */
import type { AgentRequest } from '../core/request.js';

/** Data at least this long is spliced in: the photo's 290 KB too (bench figure (f)'s 100 photo turns: maxRSS 99-112 MiB through JSON.stringify, 95-98 spliced). */
const SPLICED_DATA = 64 * 1024;
/** Base64 needs no escaping in JSON: only these characters are spliced in as they are. */
const BASE64_ONLY = /^[A-Za-z0-9+/=]*$/;
const PLACEHOLDER = 'chk-attachment-data';

/** `JSON.stringify(request)`, the same text (as UTF-8 bytes where a large attachment's data is spliced in), made with one copy of that data. */
export function requestBody(request: AgentRequest): string | Buffer {
  const attachments = request.message.attachments;
  const large = attachments?.findIndex((attachment) => attachment.data.length >= SPLICED_DATA && BASE64_ONLY.test(attachment.data)) ?? -1;
  if (large < 0 || !attachments) return JSON.stringify(request);
  const data = attachments[large]!.data;
  const withPlaceholder = attachments.map((attachment, index) => (index === large ? { ...attachment, data: PLACEHOLDER } : attachment));
  const text = JSON.stringify({ ...request, message: { ...request.message, attachments: withPlaceholder } });
  const quoted = `"${PLACEHOLDER}"`;
  const at = text.indexOf(quoted);
  // The placeholder written elsewhere too (a person's text, say): no splicing.
  if (at !== text.lastIndexOf(quoted)) return JSON.stringify(request);
  // One buffer of the whole body, the data written into it: no 7 MB string is built and then copied into bytes.
  const head = Buffer.from(`${text.slice(0, at)}"`, 'utf8');
  const tail = Buffer.from(`"${text.slice(at + quoted.length)}`, 'utf8');
  const body = Buffer.allocUnsafe(head.length + data.length + tail.length);
  head.copy(body, 0);
  body.write(data, head.length, 'latin1');
  tail.copy(body, head.length + data.length);
  return body;
}
