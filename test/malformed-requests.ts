import { requestValidator } from '../src/contract/compile-contract.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { type InvalidRequest, fullRequest, invalidRequests } from '../src/cases/quality/invalid-requests.js';
import { FULL_MESSAGE } from '../src/cases/quality/malformed.js';

/**
 * The invalid requests quality/malformed makes from the bundled contract for a request on
 * `channel`, and the valid request they are made from (their wording does not depend on the ids).
 */
export function malformedRequests(channel: string): { base: Record<string, unknown>; invalid: InvalidRequest[] } {
  const contract = bundledContract();
  const validate = requestValidator(contract);
  const base = {
    conversationId: `${channel}:chk_00000000.quality-malformed.1`,
    messageId: `chk_00000000.${channel}.quality-malformed.p4`,
    channel,
    message: FULL_MESSAGE,
  };
  return { base, invalid: invalidRequests(contract.requestSchema, fullRequest(contract.requestSchema, base, validate), validate) };
}
