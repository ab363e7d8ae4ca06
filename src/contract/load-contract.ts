import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import bundledSpec from '../generated/bundled-spec.json' with { type: 'json' };
import { createAjv } from './ajv.js';
import type { Contract, JsonSchema, PlatformRules } from './contract.js';
import { ContractError } from './contract-error.js';
import { describeSchemaErrors, extractContract } from './extract-contract.js';
import { FileReadError, readBoundedBytes, readBoundedText } from '../core/bounded-file.js';
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
  // Its files (the spec, and each its $refs name) are read as every file is: regular, bounded. The
  // parser words a refusal as `Error reading file "…"`: ours, which says why, is the one thrown.
  let refused: unknown;
  const read = ({ url }: { url: string }): Buffer => {
    try {
      return readSpecFile(pathOfRef(url));
    } catch (cause) {
      refused ??= cause;
      throw cause;
    }
  };
  try {
    document = await SwaggerParser.validate(specFile, { resolve: { file: { read } } });
  } catch (cause) {
    if (refused instanceof ContractError) throw refused;
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new ContractError(`${specFile}: ${message.trim()}`, { cause });
  }
  return extractContract(document, specFile, validatePlatformRules());
}

/** A contract file is a few hundred kilobytes; past this it is refused, not parsed. */
const MAX_SPEC_BYTES = 16 * 1024 * 1024;
/** A limits file is a few hundred bytes. */
const MAX_LIMITS_BYTES = 1024 * 1024;

/** A file of the contract (the spec, or one its `$ref`s name): a regular file of at most 16 MiB, or a ContractError naming it. */
function readSpecFile(file: string): Buffer {
  try {
    return readBoundedBytes(file, MAX_SPEC_BYTES);
  } catch (cause) {
    if (cause instanceof FileReadError) throw new ContractError(`${file}: cannot read the contract file: ${cause.message}`);
    throw cause;
  }
}

/** The path a `$ref`'s resolved URL names, as swagger-parser's own file reader takes it: a file:// URL, or a path with %-escapes. */
function pathOfRef(url: string): string {
  if (/^file:\/\//i.test(url)) return fileURLToPath(url);
  return decodeURIComponent(url.replace(/%(?![0-9A-Fa-f]{2})/g, '%25')).replace(/\/$/, '');
}

/**
 * Refuses a spec file swagger-parser would not read within bounds: one too large, or a YAML one
 * whose aliases expand without bound (the "billion laughs" shape), which its YAML reader would
 * build in full. Checked with our own bounded reader (formats/yaml-value.ts) before it is handed over.
 */
async function refuseUnboundedYaml(specFile: string): Promise<void> {
  const text = readSpecFile(specFile).toString('utf8');
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
    text = readBoundedText(file, MAX_LIMITS_BYTES);
  } catch (cause) {
    if (!(cause instanceof FileReadError)) throw cause;
    throw new ContractError(`${file}: cannot read the limits file: ${cause.message}`);
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
