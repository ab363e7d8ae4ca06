import type { ValidateFunction } from 'ajv';
import { precompiledResponseValidator } from '../generated/validate-response.js';
import { prepareForValidation } from '../validate/schema-findings.js';
import { createAjv } from './ajv.js';
import type { Contract, JsonSchema } from './contract.js';
import { ContractError } from './contract-error.js';
import { bundledContract } from './load-contract.js';

const responseValidators = new WeakMap<Contract, ValidateFunction>();
const requestValidators = new WeakMap<Contract, ValidateFunction>();

function compile(schema: JsonSchema, what: string, source: string): ValidateFunction {
  try {
    return createAjv().compile(schema);
  } catch (cause) {
    throw new ContractError(`${source}: the ${what} schema does not compile: ${(cause as Error).message}`, { cause });
  }
}

/**
 * The answer validator of a contract: for the bundled contract, the one compiled at build time
 * (standalone code, no schema compiler loaded); for another, compiled on first use.
 */
let lastContract: Contract | undefined;
let lastValidator: ValidateFunction | undefined;

export function responseValidator(contract: Contract): ValidateFunction {
  // Most callers check many answers against one contract: remember the last without a lookup.
  if (contract === lastContract && lastValidator) return lastValidator;
  let validate = responseValidators.get(contract);
  if (!validate) {
    validate =
      contract === bundledContract()
        ? (precompiledResponseValidator as ValidateFunction)
        : compile(prepareForValidation(contract.responseSchema), 'answer', contract.source);
    responseValidators.set(contract, validate);
  }
  lastContract = contract;
  lastValidator = validate;
  return validate;
}

/** The request validator of a contract, compiled on first use. */
export function requestValidator(contract: Contract): ValidateFunction {
  let validate = requestValidators.get(contract);
  if (!validate) {
    validate = compile(contract.requestSchema, 'request', contract.source);
    requestValidators.set(contract, validate);
  }
  return validate;
}
