/**
 * The hint for an agent that refused a request, where its answer names the cause: a body over the
 * server's size limit (any 413, Django's 400), or a field its request model refuses though the
 * contract sends it (FastAPI/pydantic's `detail` naming `message.text`, "" on a photo or a tap).
 * Undefined when the answer names no such cause: the status's own hint applies.
 */
import type { HttpAnswer } from '../http/client.js';
import { smallJson } from './error-body.js';
import { requestSizeHint } from './request-size-hints.js';
import { emptyFieldHint, refusedFields } from './validation-detail.js';

export function refusalHint(answer: HttpAnswer, requestBytes: number, acceptedBytes: number): string | undefined {
  const size = requestSizeHint(answer, requestBytes, acceptedBytes);
  if (size) return size;
  if (answer.status !== 400 && answer.status !== 422) return undefined;
  const fields = refusedFields(smallJson(answer.body));
  return fields ? emptyFieldHint(fields) : undefined;
}
