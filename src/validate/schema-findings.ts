import type { ErrorObject } from 'ajv';
import { type Finding, MAX_FINDINGS, error, excerpt, jsonType, pointer } from '../findings.js';
import { closestName } from './did-you-mean.js';

type Schema = Record<string, unknown>;

/**
 * The nearest enclosing schema with an `x-message`: its id, its message, and how many instance
 * levels lie between it and this subschema. `prepareForValidation` writes it into every subschema as
 * `x-anchor`, so an error's own schema says which finding it belongs to, also in validators
 * compiled to standalone code (which carry copies of the schema objects, not the originals).
 */
export interface Anchor {
  id: string;
  message: string;
  depth: number;
}

export const ANCHOR_KEYWORD = 'x-anchor';

const SAME_INSTANCE_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']);

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keywords for people only: dropped from the copy that is compiled (they would only add weight). */
const DOCUMENTATION_KEYWORDS = ['title', 'description', 'examples', '$comment'];

/**
 * A copy of the schema ready to compile: every subschema inside one with an `x-message` carries
 * its anchor, and documentation keywords are dropped. Errors inside an anchored subschema
 * collapse into one finding worded by its `x-message`, instead of one per branch of an `anyOf`.
 */
export function prepareForValidation(root: Schema): Schema {
  const copy = structuredClone(root);
  let nextId = 1;
  const seen = new Set<Schema>();
  const visit = (schema: Schema, inherited: Anchor | undefined): void => {
    if (seen.has(schema)) return;
    seen.add(schema);
    for (const keyword of DOCUMENTATION_KEYWORDS) delete schema[keyword];
    const own = typeof schema['x-message'] === 'string' ? { id: `a${nextId++}`, message: schema['x-message'], depth: 0 } : inherited;
    if (own) schema[ANCHOR_KEYWORD] = own;
    const step = (child: unknown, deeper: boolean): void => {
      if (isSchema(child)) visit(child, own && { ...own, depth: own.depth + (deeper ? 1 : 0) });
    };
    for (const [keyword, value] of Object.entries(schema)) {
      if (keyword === '$defs') {
        // Definitions are reached through references: they start without an anchor.
        if (isSchema(value)) for (const child of Object.values(value)) if (isSchema(child)) visit(child, undefined);
      } else if (keyword === 'properties' || keyword === 'patternProperties' || keyword === 'dependentSchemas') {
        if (isSchema(value)) for (const child of Object.values(value)) step(child, keyword !== 'dependentSchemas');
      } else if (keyword === 'items' || keyword === 'additionalProperties' || keyword === 'contains') {
        step(value, true);
      } else if (keyword === 'prefixItems') {
        if (Array.isArray(value)) for (const child of value) step(child, true);
      } else if (SAME_INSTANCE_KEYWORDS.has(keyword)) {
        if (Array.isArray(value)) for (const child of value) step(child, false);
        else step(value, false);
      }
    }
  };
  visit(copy, undefined);
  return copy;
}

function anchorOf(schema: unknown): Anchor | undefined {
  return isSchema(schema) && isSchema(schema[ANCHOR_KEYWORD]) ? (schema[ANCHOR_KEYWORD] as unknown as Anchor) : undefined;
}

function parentPointer(path: string, levels: number): string {
  const segments = path.split('/');
  return segments.slice(0, Math.max(1, segments.length - levels)).join('/');
}

function valueAt(document: unknown, path: string): unknown {
  if (path === '') return document;
  return path
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined),
      document,
    );
}

function knownTypes(parent: Schema): string[] {
  const branches = Array.isArray(parent.oneOf) ? parent.oneOf : [];
  return branches.flatMap((branch: unknown) => {
    const type = isSchema(branch) && isSchema(branch.properties) ? branch.properties.type : undefined;
    return isSchema(type) && typeof type.const === 'string' ? [type.const] : [];
  });
}

const guesses = new Map<string, string | undefined>();

/** closestName, remembered: the same typo comes back in every answer of a broken agent. */
function guessName(word: string, known: readonly string[]): string | undefined {
  const key = `${word}\u0000${known.join('\u0000')}`;
  if (guesses.has(key)) return guesses.get(key);
  const guess = closestName(word, known);
  if (guesses.size < 1024 && word.length <= 64) guesses.set(key, guess);
  return guess;
}

function describeError(err: ErrorObject, answer: unknown): Finding | undefined {
  const path = err.instancePath;
  const parent = (err.parentSchema ?? {}) as Schema;
  const data = err.data;
  const params = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'if':
      // "must match then/else": the branch's own errors say what is wrong.
      return undefined;
    case 'discriminator': {
      const types = knownTypes(parent);
      const value = valueAt(answer, pointer(path, 'type'));
      if (params.error === 'mapping') {
        const guess = guessName(String(value), types);
        return error(
          'schema',
          pointer(path, 'type'),
          `unknown reply type ${excerpt(value)}; expected one of ${types.join(', ')}`,
          guess ? `did you mean "${guess}"?` : null,
        );
      }
      return error(
        'schema',
        pointer(path, 'type'),
        value === undefined
          ? `a reply needs a "type": one of ${types.join(', ')}; this one has none`
          : `a reply's "type" must be a string, one of ${types.join(', ')}; got ${typed(value)}`,
        'Give every reply a "type" of "message", "reaction" or "template".',
      );
    }
    case 'additionalProperties': {
      const property = String(params.additionalProperty);
      const allowed = isSchema(parent.properties) ? Object.keys(parent.properties) : [];
      const guess = guessName(property, allowed);
      return error(
        'schema',
        pointer(path, property),
        `unknown property ${excerpt(property)}${allowed.length ? `; allowed here: ${allowed.join(', ')}` : ''}`,
        guess ? `did you mean "${guess}"?` : 'Remove it: the answer schema allows no other properties.',
      );
    }
    case 'required': {
      const property = String(params.missingProperty);
      return error('schema', path, `missing required property "${property}"`, `Add "${property}".`);
    }
    case 'type':
      return error('schema', path, `expected ${article(String(params.type))}, got ${typed(data)}`);
    case 'minLength':
      return params.limit === 1
        ? error('schema', path, 'expected a non-empty string, got ""')
        : error('schema', path, `expected at least ${String(params.limit)} characters, got ${excerpt(data)}`);
    case 'maxLength':
      return error('schema', path, `expected at most ${String(params.limit)} characters, got ${Array.from(String(data)).length}`);
    case 'minItems':
      return error('schema', path, `expected at least ${String(params.limit)} item(s), got ${(data as unknown[]).length}`);
    case 'maxItems':
      return error('schema', path, `expected at most ${String(params.limit)} item(s), got ${(data as unknown[]).length}`);
    case 'const':
      return error('schema', path, `expected ${excerpt(params.allowedValue)}, got ${excerpt(data)}`);
    case 'enum':
      return error(
        'schema',
        path,
        `expected one of ${(params.allowedValues as unknown[]).map((v) => excerpt(v)).join(', ')}, got ${excerpt(data)}`,
      );
    case 'pattern':
      return error('schema', path, `expected a string matching ${String(params.pattern)}, got ${excerpt(data)}`);
    case 'format':
      return params.format === 'emoji'
        ? error(
            'schema',
            path,
            `expected exactly one emoji, got ${excerpt(data)}`,
            'Send a single emoji such as "👍"; skin tones and joined sequences count as one.',
          )
        : error('schema', path, `expected a valid ${String(params.format)}, got ${excerpt(data)}`);
    default:
      return error('schema', path, `${err.message ?? 'is invalid'}, got ${excerpt(data)}`);
  }
}

function describeReceived(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const named = keys.slice(0, 10).map((key) => (/^[A-Za-z0-9_]{1,40}$/.test(key) ? key : excerpt(key, 40)));
    return keys.length ? `an object with ${named.join(', ')}${keys.length > 10 ? `, … (${keys.length} keys)` : ''}` : 'an empty object';
  }
  return excerpt(value);
}

/** A received value with its JSON type: `an integer 42`, `a string "x"`, or just `null`. */
function typed(value: unknown): string {
  return value === null ? 'null' : `${jsonType(value)} ${excerpt(value)}`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * Turns ajv's errors into findings a person can act on: one per real problem, with the received
 * value, the JSON pointer and a hint (a "did you mean" for a misspelt property or reply type).
 */
export function schemaFindings(errors: readonly ErrorObject[], answer: unknown): Finding[] {
  // One finding per anchor and instance: key is the anchor's schema, then the anchored instance.
  const anchored = new Map<string, Map<string, { anchor: Anchor; path: string }>>();
  const findings: Finding[] = [];
  const missingTypeAt = new Set(
    errors.filter((e) => e.keyword === 'discriminator' && (e.params as Record<string, unknown>).error === 'tag').map((e) => e.instancePath),
  );
  // A misspelt required property is one problem: the unknown property's "did you mean" names it.
  // (Only the first few unknown properties are looked at: a flood of them is no typo.)
  const misspeltAt = new Set(
    errors
      .filter((e) => e.keyword === 'additionalProperties')
      .slice(0, MAX_FINDINGS)
      .flatMap((e) => {
        if (!isSchema(e.parentSchema) || !isSchema(e.parentSchema.properties)) return [];
        const guess = guessName(String((e.params as Record<string, unknown>).additionalProperty), Object.keys(e.parentSchema.properties));
        return guess ? [pointer(e.instancePath, guess)] : [];
      }),
  );
  const isMisspelt = (err: ErrorObject): boolean =>
    err.keyword === 'required' &&
    misspeltAt.has(pointer(err.instancePath, String((err.params as Record<string, unknown>).missingProperty)));
  const silencedAnchors = new Set<string>();
  let undescribed = 0;
  for (const err of errors) {
    const anchor = anchorOf(err.parentSchema);
    if (anchor && isMisspelt(err)) silencedAnchors.add(parentPointer(err.instancePath, anchor.depth));
    if (isMisspelt(err)) continue;
    if (anchor) {
      const anchorPath = parentPointer(err.instancePath, anchor.depth);
      const byInstance = anchored.get(anchor.id) ?? new Map<string, { anchor: Anchor; path: string }>();
      anchored.set(anchor.id, byInstance);
      const known = byInstance.get(anchorPath);
      // The deepest pointer names the exact place (the empty text rather than the whole message).
      if (!known || err.instancePath.length > known.path.length) byInstance.set(anchorPath, { anchor, path: err.instancePath });
      continue;
    }
    if (
      err.keyword === 'required' &&
      (err.params as Record<string, unknown>).missingProperty === 'type' &&
      missingTypeAt.has(err.instancePath)
    ) {
      continue; // said once, by the discriminator's finding
    }
    // A flood of errors (300,000 unknown keys in one reply) is capped later: describe no more than that.
    if (findings.length > MAX_FINDINGS) {
      undescribed++;
      continue;
    }
    const finding = describeError(err, answer);
    if (finding) findings.push(finding);
  }
  if (undescribed > 0) {
    findings.push(error('schema', '', `${undescribed} more schema errors are left out`, 'Fix the ones shown and check again.'));
  }
  // Where several anchors point at one place (an empty text breaks two rules), the last, most
  // specific one speaks for it.
  const byPath = new Map<string, Anchor>();
  for (const byInstance of anchored.values()) {
    for (const [anchorPath, { anchor, path }] of byInstance) if (!silencedAnchors.has(anchorPath)) byPath.set(path, anchor);
  }
  for (const [path, anchor] of byPath) {
    findings.push(error('schema', path, `${anchor.message.replace(/\.$/, '')}; got ${describeReceived(valueAt(answer, path))}`));
  }
  return sortByPointer(findings);
}

/** Orders pointer segments as the document reads: segment by segment, numbers as numbers. */
function compareSegments(left: readonly string[], right: readonly string[]): number {
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i]!;
    const y = right[i]!;
    if (x === y) continue;
    const nx = Number(x);
    const ny = Number(y);
    if (x !== '' && y !== '' && Number.isInteger(nx) && Number.isInteger(ny)) return nx - ny;
    return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

/** Findings in document order, stable; each pointer is split once, not at every comparison. */
export function sortByPointer<T extends { path: string }>(findings: T[]): T[] {
  if (findings.length < 2) return findings;
  return findings
    .map((finding, order) => ({ finding, order, segments: finding.path.split('/') }))
    .sort((a, b) => compareSegments(a.segments, b.segments) || a.order - b.order)
    .map((entry) => entry.finding);
}
