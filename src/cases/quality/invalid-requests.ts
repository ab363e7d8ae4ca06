/**
 * Requests that each break exactly one constraint of the contract's request schema, generated from
 * the schema itself (a new contract version brings its own): for every required field, type,
 * length, pattern, enum (and const, anyOf/oneOf, item counts and number bounds), one request made
 * from a valid one by changing one value or leaving one field out. Each is kept only when the
 * contract's own request validator finds that constraint broken, and nothing else.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { excerpt } from '../../core/findings.js';
import type { JsonSchema } from '../../contract/contract.js';

type Segment = string | number;
type Json = unknown;

/** One request that breaks one constraint. */
export interface InvalidRequest {
  /** The JSON pointer of the value changed (or of the object a field is left out of). */
  pointer: string;
  /** The schema keyword broken: `required`, `type`, `maxLength`, … */
  keyword: string;
  /** What the request carries, as a noun phrase: `a messageId of 201 characters`. */
  what: string;
  /** What the contract allows instead: `the contract allows 200`. */
  allowed: string;
  /** The change, applied to a copy of a request. */
  apply(request: Json): Json;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `message.attachments[0].kind`, or `the request` for the whole body. */
export function fieldName(segments: readonly Segment[]): string {
  if (segments.length === 0) return 'the request';
  return segments.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('');
}

function pointerOf(segments: readonly Segment[]): string {
  return segments.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function valueAt(root: Json, segments: readonly Segment[]): Json {
  let node: Json = root;
  for (const segment of segments) node = isRecord(node) || Array.isArray(node) ? (node as Record<Segment, Json>)[segment] : undefined;
  return node;
}

/** A copy of `root` with the value at `segments` replaced, or left out when `value` is undefined. */
function withValue(root: Json, segments: readonly Segment[], value: Json | undefined): Json {
  if (segments.length === 0) return value;
  const copy = structuredClone(root) as Record<Segment, Json>;
  const parent = valueAt(copy, segments.slice(0, -1)) as Record<Segment, Json>;
  const last = segments[segments.length - 1]!;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}

/** A JSON type's name as people say it, for `type` messages. */
function typeName(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const SAMPLE_OF_TYPE: Record<string, Json> = {
  string: 'chk-wrong-type',
  number: 42.5,
  integer: 42,
  boolean: true,
  object: { chk: 'wrong-type' },
  array: ['chk-wrong-type'],
  null: null,
};

/** A value of none of the types the schema allows (an integer also satisfies `number`). */
function wrongType(types: readonly string[]): Json | undefined {
  const allows = (value: Json): boolean =>
    types.some((type) => {
      if (type === 'integer') return Number.isInteger(value);
      if (type === 'number') return typeof value === 'number';
      if (type === 'null') return value === null;
      if (type === 'array') return Array.isArray(value);
      if (type === 'object') return isRecord(value);
      return typeof value === type;
    });
  return [42, 'chk-wrong-type', true, null, { chk: 'wrong-type' }, ['chk-wrong-type']].find((value) => !allows(value));
}

function listOf(values: readonly Json[]): string {
  const shown = values.map((value) => excerpt(value, 40));
  return shown.length <= 1 ? (shown[0] ?? 'nothing') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

/** Strings that may break a pattern: the valid value with something added, and a few short ones. */
function patternCandidates(valid: Json): string[] {
  const base = typeof valid === 'string' ? valid : '';
  return [`${base}!`, `!${base}`, `${base} `, `${base}=`, '', ' ', '!', 'A', '*', 'x', `${base.toUpperCase()}!`, '\u00e9'];
}

/** What one branch of an anyOf or oneOf allows, in words. */
function describeBranch(branch: Json): string {
  if (!isRecord(branch)) return 'another form';
  if (Array.isArray(branch.enum)) return `one of ${listOf(branch.enum)}`;
  if ('const' in branch) return excerpt(branch.const, 40);
  if (typeof branch.pattern === 'string') return `a string matching ${branch.pattern}`;
  if (typeof branch.type === 'string') return typeName(SAMPLE_OF_TYPE[branch.type]);
  return 'another form';
}

/** One constraint at one place, with the values that may break it. */
interface Candidate {
  segments: Segment[];
  keyword: string;
  /** Where ajv reports the error: the value's pointer, or its object's for `required`. */
  errorSegments: Segment[];
  what: (value: Json) => string;
  allowed: string;
  /** The values to try, in order; undefined leaves the field out. */
  values: (Json | undefined)[];
}

/** Follows a local `$ref` (`#/$defs/x`); the contract's schemas come dereferenced, but a port may not. */
function resolve(node: Json, root: JsonSchema): Json {
  let current = node;
  for (let hops = 0; hops < 32 && isRecord(current) && typeof current.$ref === 'string' && current.$ref.startsWith('#/'); hops++) {
    const path = current.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = valueAt(root, path);
  }
  return current;
}

/** Every constraint the schema puts on `valid` (a valid request), place by place. */
function candidates(root: JsonSchema, valid: Json): Candidate[] {
  const found: Candidate[] = [];
  const visit = (node: Json, segments: Segment[]): void => {
    const schema = resolve(node, root);
    if (!isRecord(schema)) return;
    const value = valueAt(valid, segments);
    if (value === undefined) return;
    const name = fieldName(segments);
    const add = (
      keyword: string,
      what: Candidate['what'],
      allowed: string,
      values: (Json | undefined)[],
      errorSegments = segments,
    ): void => {
      found.push({ segments, keyword, errorSegments, what, allowed, values });
    };
    const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : [];
    if (types.length) {
      const wrong = wrongType(types);
      if (wrong !== undefined) {
        add(
          'type',
          (sent) => `${name === 'the request' ? 'a request body' : `a ${name}`} that is ${typeName(sent)}`,
          `the contract wants ${types.map((type) => typeName(SAMPLE_OF_TYPE[type])).join(' or ')}`,
          [wrong],
        );
      }
    }
    if (typeof value === 'string') {
      const chars = Array.from(value);
      if (typeof schema.minLength === 'number' && schema.minLength > 0) {
        const min = schema.minLength;
        add('minLength', (sent) => `a ${name} of ${Array.from(String(sent)).length} characters`, `the contract wants at least ${min}`, [
          chars.slice(0, min - 1).join('') || 'x'.repeat(min - 1),
        ]);
      }
      if (typeof schema.maxLength === 'number') {
        const max = schema.maxLength;
        add('maxLength', (sent) => `a ${name} of ${Array.from(String(sent)).length} characters`, `the contract allows ${max}`, [
          value + 'x'.repeat(Math.max(1, max + 1 - chars.length)),
        ]);
      }
      if (typeof schema.pattern === 'string') {
        add(
          'pattern',
          (sent) => `a ${name} of ${excerpt(sent, 40)}`,
          `the contract wants one matching ${schema.pattern}`,
          patternCandidates(value),
        );
      }
    }
    if (typeof value === 'number') {
      for (const [keyword, step] of [
        ['minimum', -1],
        ['exclusiveMinimum', 0],
        ['maximum', 1],
        ['exclusiveMaximum', 0],
      ] as const) {
        const bound = schema[keyword];
        if (typeof bound === 'number')
          add(keyword, (sent) => `a ${name} of ${String(sent)}`, `the contract's ${keyword} is ${bound}`, [bound + step]);
      }
    }
    if (Array.isArray(schema.enum)) {
      const listed = schema.enum;
      add(
        'enum',
        (sent) => `a ${name} of ${excerpt(sent, 40)}`,
        `the contract allows ${listOf(listed)}`,
        ['chk-not-listed', `${String(value)}x`, 42].filter((candidate) => !listed.includes(candidate)),
      );
    }
    if ('const' in schema) {
      const only = schema.const;
      add('const', (sent) => `a ${name} of ${excerpt(sent, 40)}`, `the contract allows only ${excerpt(only, 40)}`, [
        'chk-not-the-constant',
        42,
      ]);
    }
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = schema[keyword];
      if (!Array.isArray(branches)) continue;
      const values = branches.flatMap((branch) => {
        const resolved = resolve(branch, root);
        return isRecord(resolved) && typeof resolved.pattern === 'string' ? patternCandidates(value) : ['chk-none-of-them', 42];
      });
      add(
        keyword,
        (sent) => `a ${name} of ${excerpt(sent, 40)}`,
        `the contract allows ${branches.map((branch) => describeBranch(resolve(branch, root))).join(', or ')}`,
        [`${String(value).toUpperCase()}!`, ...values],
      );
    }
    if (Array.isArray(value)) {
      if (typeof schema.minItems === 'number' && schema.minItems > 0) {
        const min = schema.minItems;
        add('minItems', (sent) => `a ${name} of ${(sent as Json[]).length} items`, `the contract wants at least ${min}`, [
          value.slice(0, min - 1),
        ]);
      }
      if (typeof schema.maxItems === 'number' && value.length > 0) {
        const max = schema.maxItems;
        add('maxItems', (sent) => `a ${name} of ${(sent as Json[]).length} items`, `the contract allows ${max}`, [
          Array.from({ length: max + 1 }, () => value[0]),
        ]);
      }
      if (isRecord(schema.items) && value.length > 0) visit(schema.items, [...segments, 0]);
    }
    if (isRecord(value)) {
      if (Array.isArray(schema.required)) {
        for (const field of schema.required) {
          if (typeof field !== 'string' || !(field in value)) continue;
          const fieldSegments = [...segments, field];
          const parent = name === 'the request' ? 'a request' : `a ${name}`;
          found.push({
            segments: fieldSegments,
            keyword: 'required',
            errorSegments: segments,
            what: () => `${parent} with no ${field}`,
            allowed: 'the contract requires it',
            values: [undefined],
          });
        }
      }
      if (isRecord(schema.properties)) {
        for (const [field, child] of Object.entries(schema.properties)) visit(child, [...segments, field]);
      }
    }
  };
  visit(root, []);
  return found;
}

/** True when the errors are exactly the one constraint broken: its keyword at its place (an anyOf's branches count with it). */
function onlyThat(errors: readonly ErrorObject[], candidate: Candidate, field: string | undefined): boolean {
  const at = pointerOf(candidate.errorSegments);
  if (!errors.some((error) => error.keyword === candidate.keyword && error.instancePath === at)) return false;
  return errors.every((error) => {
    if (error.instancePath !== at) return false;
    if (candidate.keyword === 'required') return error.keyword === 'required' && error.params.missingProperty === field;
    if (candidate.keyword === 'anyOf' || candidate.keyword === 'oneOf') return true;
    return error.keyword === candidate.keyword;
  });
}

/** A value the schema allows, where one is easy to make (an example, a default, a constant, the first enum value, a plain value of its type), or undefined. */
function sampleValue(node: Json, root: JsonSchema, depth: number): Json | undefined {
  const schema = resolve(node, root);
  if (!isRecord(schema) || depth > 8) return undefined;
  if (Array.isArray(schema.examples) && schema.examples.length) return structuredClone(schema.examples[0]);
  if ('default' in schema) return structuredClone(schema.default);
  if ('const' in schema) return structuredClone(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return structuredClone(schema.enum[0]);
  const type = typeof schema.type === 'string' ? schema.type : Array.isArray(schema.type) ? schema.type[0] : undefined;
  if (type === 'string') return typeof schema.pattern === 'string' ? undefined : 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'array') {
    const item = sampleValue(schema.items, root, depth + 1);
    return item === undefined ? [] : [item];
  }
  if (type === 'object') return withOptionalFields(schema, {}, root, depth + 1);
  return undefined;
}

/** The value with every property its schema names but it lacks filled in where a sample is easy to make. */
function withOptionalFields(node: Json, value: Json, root: JsonSchema, depth: number): Json {
  const schema = resolve(node, root);
  if (!isRecord(schema) || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => withOptionalFields(schema.items, item, root, depth + 1));
  if (!isRecord(value) || !isRecord(schema.properties)) return value;
  const filled: Record<string, Json> = { ...value };
  for (const [field, child] of Object.entries(schema.properties)) {
    if (field in filled) filled[field] = withOptionalFields(child, filled[field], root, depth + 1);
    else {
      const sample = sampleValue(child, root, depth + 1);
      if (sample !== undefined) filled[field] = sample;
    }
  }
  return filled;
}

/**
 * The request the invalid ones are made from: `request` with the optional fields the schema names
 * and it lacks filled in (a later contract version's new field gets its own invalid requests too),
 * when the result is still valid; else `request` itself.
 */
export function fullRequest(schema: JsonSchema, request: Json, validate: ValidateFunction): Json {
  const filled = withOptionalFields(schema, request, schema, 0);
  return validate(filled) ? filled : request;
}

/**
 * The invalid requests for a schema, made from `valid` (a request the validator accepts), one for
 * each constraint that some change breaks alone. `validate` is the contract's request validator,
 * compiled with every error collected.
 */
export function invalidRequests(schema: JsonSchema, valid: Json, validate: ValidateFunction): InvalidRequest[] {
  if (!validate(valid)) throw new Error(`the request the invalid ones are made from is itself invalid: ${JSON.stringify(validate.errors)}`);
  const made: InvalidRequest[] = [];
  for (const candidate of candidates(schema, valid)) {
    const field = candidate.keyword === 'required' ? String(candidate.segments.at(-1)) : undefined;
    for (const value of candidate.values) {
      const broken = withValue(valid, candidate.segments, value);
      if (validate(broken) || !onlyThat(validate.errors ?? [], candidate, field)) continue;
      const { segments } = candidate;
      made.push({
        pointer: pointerOf(segments),
        keyword: candidate.keyword,
        what: candidate.what(value),
        allowed: candidate.allowed,
        apply: (request) => withValue(request, segments, value === undefined ? undefined : structuredClone(value)),
      });
      break;
    }
  }
  return made;
}
