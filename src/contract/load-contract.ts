import { promises as fs } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import bundledSpec from '../generated/bundled-spec.json' with { type: 'json' };
import { createAjv } from './ajv.js';
import type { Contract, JsonSchema, PlatformRules } from './contract.js';
import { ContractError } from './contract-error.js';
import { describeSchemaErrors, extractContract } from './extract-contract.js';
import { commandWords } from '../core/command-words.js';

/**
 * The contract shipped with the tool: `spec/` as validated, dereferenced and extracted at build
 * time (`scripts/build.ts`), so the common path needs no OpenAPI parser. A test checks that it
 * equals a run-time load of `spec/`.
 */
export function bundledContract(): Contract {
  return bundledSpec.contract as unknown as Contract;
}

/** The JSON Schema of one platform's rules (`spec/platform-limits.schema.json`). */
export function platformLimitsSchema(): JsonSchema {
  return bundledSpec.platformLimitsSchema as JsonSchema;
}

let platformRulesValidator: ValidateFunction | undefined;

export function validatePlatformRules(): ValidateFunction {
  platformRulesValidator ??= createAjv().compile(platformLimitsSchema());
  return platformRulesValidator;
}

/**
 * Loads a contract from an OpenAPI 3.1 document: swagger-parser validates it and dereferences its
 * `$ref`s (the schema files beside it), then the checker takes its schemas, timeout and platforms.
 * Any problem throws a ContractError that names the file and carries the parser's own message.
 */
export async function loadContractFile(specFile: string): Promise<Contract> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  let document: unknown;
  try {
    document = await SwaggerParser.validate(specFile);
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new ContractError(`${specFile}: ${message.trim()}`, { cause });
  }
  return extractContract(document, specFile, validatePlatformRules());
}

/** The bundled contract, or the one in `specFile` when given. */
export async function loadContract(specFile?: string): Promise<Contract> {
  return specFile === undefined ? bundledContract() : loadContractFile(specFile);
}

/** Reads a `--limits FILE`: one platform's rules as JSON, in the shape of an `x-platforms` entry. */
export async function loadLimitsFile(file: string): Promise<PlatformRules> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (cause) {
    throw new ContractError(`${file}: cannot read the limits file (${(cause as NodeJS.ErrnoException).code ?? cause})`);
  }
  let rules: unknown;
  try {
    rules = JSON.parse(text);
  } catch (cause) {
    throw new ContractError(`${file}: the limits file is not JSON (${(cause as Error).message})`);
  }
  const validate = validatePlatformRules();
  if (!validate(rules)) {
    throw new ContractError(
      `${file}: not a platform limits file (its schema: ${commandWords('spec limits')}): ${describeSchemaErrors('limits', validate.errors)}`,
    );
  }
  return rules as PlatformRules;
}
