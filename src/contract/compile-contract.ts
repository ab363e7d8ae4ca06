import type { ValidateFunction } from 'ajv';
import type { Answer } from '../core/answer.js';
import { precompiledResponseCheck } from '../generated/check-response.js';
import { precompiledResponseValidator } from '../generated/validate-response.js';
import { prepareForValidation } from './prepare-schema.js';
import { createAjv, quickCheckOptions } from './ajv.js';
import type { Contract, JsonSchema } from './contract.js';
import { ContractError } from './contract-error.js';
import { bundledContract } from './load-contract.js';

/** A contract's answer validators: `check` answers valid or not at the least cost; `explain` gives every error. */
export interface AnswerValidators {
  /** True when the value matches the contract's answer schema, which makes it an `Answer`; stops at the first error. */
  check: (value: unknown) => value is Answer;
  /** The same judgement with every error collected in `explain.errors`, to be explained. */
  explain: ValidateFunction;
  /**
   * True when the schema judges each reply alone (`replies` is an array of `items`, and nothing
   * else in the schema looks at the list): a broken reply can then be explained apart from the rest.
   */
  repliesApart: boolean;
}

/** Keywords of the answer object that say nothing about its `replies` list as a whole. */
const ENVELOPE_KEYWORDS = new Set([
  '$schema',
  '$id',
  'title',
  'description',
  '$comment',
  'examples',
  'x-message',
  'x-anchor',
  'type',
  'required',
  'additionalProperties',
  'properties',
  '$defs',
]);
const LIST_KEYWORDS = new Set(['title', 'description', '$comment', 'examples', 'x-message', 'x-anchor', 'type', 'items']);

/** See `AnswerValidators.repliesApart`. */
export function judgesRepliesApart(schema: JsonSchema): boolean {
  const properties = schema.properties as Record<string, unknown> | undefined;
  const replies = properties?.replies;
  if (typeof replies !== 'object' || replies === null) return false;
  const additional = schema.additionalProperties;
  return (
    Object.keys(schema).every((keyword) => ENVELOPE_KEYWORDS.has(keyword)) &&
    (additional === undefined || typeof additional === 'boolean') &&
    Object.keys(replies).every((keyword) => LIST_KEYWORDS.has(keyword))
  );
}

/** Each contract's validators, compiled once: compiling takes milliseconds, validating microseconds. */
const compiled = new WeakMap<Contract, AnswerValidators>();

/** Compiles another contract's answer schema; one that does not compile is a ContractError (exit 2). */
function compileAnswerSchema(schema: JsonSchema, source: string, options: Record<string, unknown>): ValidateFunction<Answer> {
  try {
    return createAjv(options).compile<Answer>(schema);
  } catch (cause) {
    const why =
      cause instanceof RangeError ? 'it refers to itself ($ref cycles), which the checker does not support' : (cause as Error).message;
    throw new ContractError(`${source}: the answer schema does not compile: ${why}`, { cause });
  }
}

/** The bundled answer schema's quick check, compiled at build time: an answer it accepts is an `Answer`. */
function isBundledAnswer(value: unknown): value is Answer {
  return precompiledResponseCheck(value);
}

/**
 * The answer validators of a contract: for the bundled contract, the ones compiled at build time
 * (standalone code, no schema compiler loaded); for another, compiled on first use.
 */
export function answerValidators(contract: Contract): AnswerValidators {
  let validators = compiled.get(contract);
  if (!validators) {
    if (contract === bundledContract()) {
      validators = {
        check: isBundledAnswer,
        explain: precompiledResponseValidator,
        repliesApart: judgesRepliesApart(contract.responseSchema),
      };
    } else {
      const schema = prepareForValidation(contract.responseSchema);
      validators = {
        check: compileAnswerSchema(schema, contract.source, quickCheckOptions(schema)),
        explain: compileAnswerSchema(schema, contract.source, {}),
        repliesApart: judgesRepliesApart(schema),
      };
    }
    compiled.set(contract, validators);
  }
  return validators;
}

/** Each contract's request validator, compiled once (on first use: the checker itself never needs one to run a check). */
const requestValidators = new WeakMap<Contract, ValidateFunction>();

/**
 * The contract's request validator (`spec/request.schema.json`, every error collected), as an agent
 * would check the requests it gets: the reference agent uses it, and quality/malformed checks each
 * request it breaks on purpose against it. One that does not compile is a ContractError.
 */
export function requestValidator(contract: Contract): ValidateFunction {
  let validate = requestValidators.get(contract);
  if (!validate) {
    try {
      validate = createAjv().compile(contract.requestSchema);
    } catch (cause) {
      throw new ContractError(`${contract.source}: the request schema does not compile: ${(cause as Error).message}`, { cause });
    }
    requestValidators.set(contract, validate);
  }
  return validate;
}

/** What is wrong with a request, one line per ajv error: `/messageId must NOT have more than 200 characters`. */
export function requestProblems(errors: ValidateFunction['errors']): string[] {
  return (errors ?? []).map((error) => {
    const where = error.instancePath === '' ? 'the request' : error.instancePath;
    const extra =
      error.keyword === 'enum'
        ? ` (${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')})`
        : error.keyword === 'additionalProperties'
          ? ` (${String(error.params.additionalProperty)})`
          : '';
    return `${where} ${error.message ?? 'is invalid'}${extra}`;
  });
}
