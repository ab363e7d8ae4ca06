import type { Ajv2020 as Ajv2020Class } from 'ajv/dist/2020.js';
import { ajv2020Module, ajvFormatsPlugin } from './ajv-modules.js';
import { EMOJI_FORMAT, isUri } from '../formats/schema-formats.js';

/** Annotation keywords of the spec's schemas (and `x-anchor`, added in memory) that carry no validation meaning. */
export const ANNOTATION_KEYWORDS = ['x-message', 'x-anchor'] as const;

export type Ajv = Ajv2020Class;

/** The options the contract's schemas need; the build's standalone validators use the same ones. */
export const AJV_OPTIONS = {
  // Every error collected (one finding per problem, not just the first), with the schema objects
  // that raised them (to find each error's x-anchor), and reply variants picked by discriminator.
  allErrors: true,
  verbose: true,
  discriminator: true,
  strict: true,
  strictRequired: false,
  strictTypes: false,
} as const;

/**
 * For the quick yes-or-no check of an answer: stop at the first error, keep no schema objects.
 * Most answers are valid; only a failed one is validated again with every error, to be explained.
 */
export const FIRST_ERROR_OPTIONS = { allErrors: false, verbose: false } as const;

/**
 * True when every string length the schema limits is "at least 0 or 1" and nothing more: then
 * counting UTF-16 code units says the same as counting code points (a string is empty in both or
 * in neither), and a validator need not walk each string to count its code points.
 */
export function lengthsAreOnlyNonEmpty(schema: unknown): boolean {
  const seen = new Set<object>();
  const visit = (node: unknown): boolean => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return true;
    seen.add(node);
    if (!Array.isArray(node)) {
      const record = node as Record<string, unknown>;
      if ('maxLength' in record) return false;
      if ('minLength' in record && !(typeof record.minLength === 'number' && record.minLength <= 1)) return false;
    }
    return Object.values(node).every(visit);
  };
  return visit(schema);
}

/**
 * The quick check's options for a schema: first error only, and strings measured in UTF-16 code
 * units where that is exact (ajv otherwise walks every string to count its code points). ajv calls
 * `unicode` deprecated but honours it; its warning is left out (`logger: false`): the same schema
 * is compiled with every error as well, and any other warning comes from that compile.
 */
export function quickCheckOptions(schema: unknown): Record<string, unknown> {
  const codeUnits = lengthsAreOnlyNonEmpty(schema);
  return codeUnits ? { ...FIRST_ERROR_OPTIONS, unicode: false, logger: false } : { ...FIRST_ERROR_OPTIONS };
}

export { EMOJI_FORMAT } from '../formats/schema-formats.js';

/** A JSON Schema 2020-12 validator set up as the contract's schemas need, with the `emoji` format. */
export function createAjv(options: Record<string, unknown> = {}): Ajv {
  // Loaded only now: see ajv-modules.ts.
  const { Ajv2020 } = ajv2020Module();
  const addFormats = ajvFormatsPlugin();
  const ajv = new Ajv2020({ ...AJV_OPTIONS, ...options });
  addFormats(ajv);
  // The same `uri`, answered sooner for plain http(s) URLs (see formats/schema-formats.ts).
  ajv.addFormat('uri', isUri);
  ajv.addFormat('emoji', EMOJI_FORMAT);
  ajv.addVocabulary([...ANNOTATION_KEYWORDS]);
  return ajv;
}
