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

export function isSchema(value: unknown): value is Schema {
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

export function anchorOf(schema: unknown): Anchor | undefined {
  return isSchema(schema) && isSchema(schema[ANCHOR_KEYWORD]) ? (schema[ANCHOR_KEYWORD] as unknown as Anchor) : undefined;
}
