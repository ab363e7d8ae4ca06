import type { ValidateFunction } from 'ajv';
import { indexAnchors } from '../validate/schema-findings.js';
import { createAjv } from './ajv.js';
import type { Contract, JsonSchema } from './contract.js';
import { ContractError } from './contract-error.js';

/** A contract with its schemas compiled: what validation needs, built once per contract. */
export interface CompiledContract {
  contract: Contract;
  validateResponse: ValidateFunction;
  validateRequest: ValidateFunction;
  anchors: ReturnType<typeof indexAnchors>;
}

const compiled = new WeakMap<Contract, CompiledContract>();

function compileSchema(ajv: ReturnType<typeof createAjv>, schema: JsonSchema, what: string, source: string): ValidateFunction {
  try {
    return ajv.compile(schema);
  } catch (cause) {
    throw new ContractError(`${source}: the ${what} schema does not compile: ${(cause as Error).message}`, { cause });
  }
}

export function compileContract(contract: Contract): CompiledContract {
  let result = compiled.get(contract);
  if (!result) {
    const ajv = createAjv();
    result = {
      contract,
      validateResponse: compileSchema(ajv, contract.responseSchema, 'answer', contract.source),
      validateRequest: compileSchema(ajv, contract.requestSchema, 'request', contract.source),
      anchors: indexAnchors(contract.responseSchema),
    };
    compiled.set(contract, result);
  }
  return result;
}
