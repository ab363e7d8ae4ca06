import { createRequire } from 'node:module';
import type { Ajv2020 as Ajv2020Class } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import { isSingleEmoji } from '../platforms/emoji.js';

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

/** The `emoji` format of the response schema: exactly one RGI emoji grapheme. */
export const EMOJI_FORMAT = { type: 'string', validate: isSingleEmoji } as const;

// ajv's compiler is loaded only when a schema must be compiled at run time (another --spec, a
// --limits file): the bundled contract's answer validator is compiled at build time.
const load = createRequire(import.meta.url);

/** A JSON Schema 2020-12 validator set up as the contract's schemas need, with the `emoji` format. */
export function createAjv(options: Record<string, unknown> = {}): Ajv {
  const { Ajv2020 } = load('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = load('ajv-formats') as FormatsPlugin;
  const ajv = new Ajv2020({ ...AJV_OPTIONS, ...options });
  addFormats(ajv);
  ajv.addFormat('emoji', EMOJI_FORMAT);
  ajv.addVocabulary([...ANNOTATION_KEYWORDS]);
  return ajv;
}
