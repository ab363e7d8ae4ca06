import type { ValidateFunction } from 'ajv';
import { precompiledResponseValidator } from '../generated/validate-response.js';
import { prepareForValidation } from '../validate/schema-findings.js';
import { createAjv } from './ajv.js';
import type { Contract, JsonSchema } from './contract.js';
import { ContractError } from './contract-error.js';
import { bundledContract } from './load-contract.js';

const responseValidators = new WeakMap<Contract, ValidateFunction>();

/** Compiles another contract's answer schema; one that does not compile is a ContractError (exit 2). */
function compileAnswerSchema(schema: JsonSchema, source: string): ValidateFunction {
  try {
    return createAjv().compile(schema);
  } catch (cause) {
    throw new ContractError(`${source}: the answer schema does not compile: ${(cause as Error).message}`, { cause });
  }
}

let lastContract: Contract | undefined;
let lastValidator: ValidateFunction | undefined;

/**
 * The answer validator of a contract: for the bundled contract, the one compiled at build time
 * (standalone code, no schema compiler loaded); for another, compiled on first use.
 */
export function responseValidator(contract: Contract): ValidateFunction {
  // Most callers check many answers against one contract: remember the last without a lookup.
  if (contract === lastContract && lastValidator) return lastValidator;
  let validate = responseValidators.get(contract);
  if (!validate) {
    validate =
      contract === bundledContract()
        ? (precompiledResponseValidator as ValidateFunction)
        : compileAnswerSchema(prepareForValidation(contract.responseSchema), contract.source);
    responseValidators.set(contract, validate);
  }
  lastContract = contract;
  lastValidator = validate;
  return validate;
}
