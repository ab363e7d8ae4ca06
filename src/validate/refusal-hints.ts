/**
 * The hint for an agent that refused a request, where its answer names the cause: a body over the
 * server's size limit (any 413, Django's 400), or a field its request model refuses though the
 * contract sends it (FastAPI/pydantic's `detail` naming `message.text`, "" on a photo or a tap).
 * A strict decoder's refusal of a field it does not know (Go's `json: unknown field "sentAt"`) names the
 * fix in the words of the stack that answered. Undefined when the answer names no such cause: the
 * status's own hint applies.
 */
import type { HttpAnswer } from '../http/client.js';
import type { AnsweringStack } from './answering-stack.js';
import { smallJson } from './error-body.js';
import { requestSizeHint } from './request-size-hints.js';
import { type RefusedField, ginRefusedFields, refusedFields } from './validation-detail.js';
import { fixSentence } from './stack-fixes.js';

export function refusalHint(
  answer: HttpAnswer,
  requestBytes: number,
  acceptedBytes: number,
  stack: AnsweringStack | undefined,
): string | undefined {
  const size = requestSizeHint(answer, requestBytes, acceptedBytes, stack);
  if (size) return size;
  if (answer.status !== 400 && answer.status !== 422) return undefined;
  const text = answer.body.subarray(0, 64 * 1024).toString('utf8');
  if (UNKNOWN_FIELD_REFUSAL.test(text)) {
    return `The agent refused a field it does not know: ignore request fields you do not know, as the contract adds fields over time. ${fixSentence('unknown-fields', stack)}`;
  }
  const fields = refusedFields(smallJson(answer.body)) ?? ginRefusedFields(text);
  return fields ? emptyFieldHint(fields, stack) : undefined;
}

/**
 * What strict decoders answer to a field they do not know: Go's DisallowUnknownFields, Jackson's
 * FAIL_ON_UNKNOWN_PROPERTIES, pydantic's extra="forbid" (2 and 1), ajv's additionalProperties: false.
 */
const UNKNOWN_FIELD_REFUSAL =
  /json: unknown field "|Unrecognized field "[^"\n]{0,80}" \(class|"extra_forbidden"|Extra inputs are not permitted|extra fields not permitted|must NOT have additional properties/;

/** The request fields the contract sends as "" in some messages, and when. */
const SOMETIMES_EMPTY: readonly { field: readonly string[]; when: string }[] = [
  { field: ['message', 'text'], when: 'the person sends only a photo, a voice note or a video, or taps a button' },
];

/** The hint for refused fields the contract fills with "", in the words of the stack that answered: undefined when none of them is one. */
export function emptyFieldHint(fields: readonly RefusedField[], stack?: AnsweringStack): string | undefined {
  for (const { field, when } of SOMETIMES_EMPTY) {
    if (!fields.some((refused) => refused.field.length === field.length && field.every((part, index) => refused.field[index] === part)))
      continue;
    return `The contract sends ${field.join('.')} as "" when ${when}: accept the empty string. ${fixSentence('empty-text', stack)}`;
  }
  return undefined;
}
