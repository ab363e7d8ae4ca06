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
