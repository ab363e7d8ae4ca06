import type { ValidateFunction } from 'ajv';
import { precompiledResponseCheck } from '../generated/check-response.js';
import { precompiledResponseValidator } from '../generated/validate-response.js';
import { prepareForValidation } from '../validate/schema-findings.js';
import { FIRST_ERROR_OPTIONS, createAjv } from './ajv.js';
import type { Contract, JsonSchema } from './contract.js';
import { ContractError } from './contract-error.js';
import { bundledContract } from './load-contract.js';

/** A contract's answer validators: `check` answers valid or not at the least cost; `explain` gives every error. */
export interface AnswerValidators {
  check: ValidateFunction;
  explain: ValidateFunction;
}

const compiled = new WeakMap<Contract, AnswerValidators>();

/** Compiles another contract's answer schema; one that does not compile is a ContractError (exit 2). */
function compileAnswerSchema(schema: JsonSchema, source: string, options: Record<string, unknown>): ValidateFunction {
  try {
    return createAjv(options).compile(schema);
  } catch (cause) {
    const why =
      cause instanceof RangeError
        ? 'it refers to itself ($ref cycles), which the checker does not support'
        : (cause as Error).message;
    throw new ContractError(`${source}: the answer schema does not compile: ${why}`, { cause });
  }
}

let lastContract: Contract | undefined;
let lastValidators: AnswerValidators | undefined;

/**
 * The answer validators of a contract: for the bundled contract, the ones compiled at build time
 * (standalone code, no schema compiler loaded); for another, compiled on first use.
 */
export function answerValidators(contract: Contract): AnswerValidators {
  // Most callers check many answers against one contract: remember the last without a lookup.
  if (contract === lastContract && lastValidators) return lastValidators;
  let validators = compiled.get(contract);
  if (!validators) {
    if (contract === bundledContract()) {
      validators = { check: precompiledResponseCheck, explain: precompiledResponseValidator };
    } else {
      const schema = prepareForValidation(contract.responseSchema);
      validators = {
        check: compileAnswerSchema(schema, contract.source, FIRST_ERROR_OPTIONS),
        explain: compileAnswerSchema(schema, contract.source, {}),
      };
    }
    compiled.set(contract, validators);
  }
  lastContract = contract;
  lastValidators = validators;
  return validators;
}
