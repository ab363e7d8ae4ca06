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
  await refuseUnboundedYaml(specFile);
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

/** A contract file is a few hundred kilobytes; past this it is refused, not parsed. */
const MAX_SPEC_BYTES = 16 * 1024 * 1024;

/**
 * Refuses a spec file swagger-parser would not read within bounds: one too large, or a YAML one
 * whose aliases expand without bound (the "billion laughs" shape), which its YAML reader would
 * build in full. Checked with our own bounded reader (formats/yaml-value.ts) before it is handed over.
 */
async function refuseUnboundedYaml(specFile: string): Promise<void> {
  let size: number;
  try {
    size = (await fs.stat(specFile)).size;
  } catch {
    return; // swagger-parser says why it cannot be read, in its words.
  }
  if (size > MAX_SPEC_BYTES)
    throw new ContractError(
      `${specFile}: the file has ${size.toLocaleString('en')} bytes; a contract is at most 16 MiB: is this the right file?`,
    );
  const text = await fs.readFile(specFile, 'utf8');
  const [{ LineCounter, parseDocument }, { MAX_ALIAS_COUNT, boundedYamlValue }] = await Promise.all([
    import('yaml'),
    import('../formats/yaml-value.js'),
  ]);
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines });
  if (document.errors.length > 0) return; // not YAML it can read: swagger-parser says why
  const built = boundedYamlValue(document, lines);
  if (built.ok) return;
  throw new ContractError(
    built.aliases
      ? `${specFile}:${built.line}: its aliases (*name) stand for more than ${MAX_ALIAS_COUNT} copies of what they name (the "billion laughs" shape), so it is not read; write the values out`
      : `${specFile}:${built.line}: the YAML could not be built (${built.reason})`,
  );
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
