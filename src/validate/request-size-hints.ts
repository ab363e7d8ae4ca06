/**
 * The hint for an agent that refused a request for its body's size: the setting that raises the
 * limit of the stack that refused it (told by its answer, answering-stack.ts), or the usual
 * settings in one line when the answer tells none, and the hosting limits that cannot be raised.
 * The contract has agents accept request bodies up to its figure (a 5 MB photo as base64, with the
 * JSON around it).
 */
import type { HttpAnswer } from '../http/client.js';
import type { Contract } from '../contract/contract.js';
import { bundledContract } from '../contract/load-contract.js';
import type { AnsweringStack } from './answering-stack.js';
import { fixSentence, stackFix, stackName } from './stack-fixes.js';

const MIB = 1024 * 1024;

/** A body over this may be refused for its size by a common server default (1 MB). */
export const COMMON_SMALLEST_LIMIT_BYTES = MIB;

/**
 * The largest request body the contract has agents accept (`x-max-request-bytes`); another --spec
 * that gives none is held to the bundled contract's figure.
 */
export function acceptedRequestBytes(contract: Contract): number {
  return contract.maxRequestBytes ?? bundledContract().maxRequestBytes ?? COMMON_SMALLEST_LIMIT_BYTES;
}

/** The limit as the servers' settings write it: whole mebibytes, at least the contract's figure. */
const megabytes = (bytes: number): number => Math.ceil(bytes / MIB);

/** `6.99 MB (6,990,726 bytes)`, `291 kB (290,812 bytes)`: sizes as the contract counts them (10^6 bytes a MB), to three figures. */
export function describeBytes(bytes: number): string {
  const figure = bytes < 1e6 ? `${Number((bytes / 1e3).toPrecision(3))} kB` : megabytesFigure(bytes);
  return `${figure} (${bytes.toLocaleString('en-US')} bytes)`;
}

/** `7 MB`: a limit in megabytes, as the contract writes it. */
function megabytesFigure(bytes: number): string {
  return `${Number((bytes / 1e6).toPrecision(3))} MB`;
}

/** The hosting limits below the contract's figure, which no setting raises. */
export const HOSTING =
  'Vercel Functions (4.5 MB) and AWS Lambda (6 MB, synchronous payloads) cap request bodies below that, and their caps cannot be raised: serve the endpoint from a host without one.';

/**
 * `hapi refused it (Payload content length greater than maximum allowed: 1048576): raise its limit with …`,
 * for an answer whose stack the answer told and that has a body-limit setting; undefined otherwise.
 */
export function refusingServerWords(stack: AnsweringStack | undefined, acceptedBytes: number): string | undefined {
  const setting = stackFix('body-limit', stack, { megabytes: megabytes(acceptedBytes) });
  return stack && setting ? `${stackName(stack.id)} refused it (${stack.sign}): raise its limit with ${setting}.` : undefined;
}

/** The usual settings that raise a body limit, in one line, for a refusal whose stack the answer does not tell. */
export function usualLimits(acceptedBytes: number): string {
  return fixSentence('body-limit', undefined, { megabytes: megabytes(acceptedBytes) });
}

/**
 * The hint for an answer that refused the request for its size, or undefined when the answer does
 * not look like that: any 413; a 400 from a server that names its size limit (Django), or to a
 * body over 1 MB.
 */
export function requestSizeHint(
  answer: HttpAnswer,
  requestBytes: number,
  acceptedBytes: number,
  stack: AnsweringStack | undefined,
): string | undefined {
  const saysSize = answer.status === 413 || SIZE_REFUSAL.test(stack?.sign ?? '');
  if (!saysSize && !(answer.status === 400 && requestBytes > COMMON_SMALLEST_LIMIT_BYTES)) return undefined;
  const size = `The request body was ${describeBytes(requestBytes)}; the contract has agents accept bodies up to ${megabytesFigure(acceptedBytes)} (a 5 MB photo as base64).`;
  const setting = stackFix('body-limit', stack, { megabytes: megabytes(acceptedBytes) });
  if (stack && setting) {
    // A 400 that does not say why may be any refusal: the size is only the likely one.
    const named = saysSize
      ? refusingServerWords(stack, acceptedBytes)
      : `If ${stackName(stack.id)} (${stack.sign}) refused it for its size, raise its limit with ${setting}.`;
    return `${size} ${named} ${HOSTING}`;
  }
  const refused = saysSize
    ? 'Raise the request body limit of the server that answered.'
    : 'If the agent refused it for its size, raise its limit.';
  return `${size} ${refused} ${usualLimits(acceptedBytes)} ${HOSTING}`;
}

/** A sign that names a size refusal itself, whatever the status (Django's and Go's answer 400). */
const SIZE_REFUSAL = /RequestDataTooBig|DATA_UPLOAD_MAX_MEMORY_SIZE|request body too large|Maximum request body size/;
