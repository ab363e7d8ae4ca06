import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isSingleEmoji } from '../platforms/emoji.js';

/** Annotation keywords of the spec's schemas that carry no validation meaning. */
export const ANNOTATION_KEYWORDS = ['x-message'] as const;

/**
 * A JSON Schema 2020-12 validator set up as the contract's schemas need: every error collected
 * (one finding per problem, not just the first), errors that carry their schema objects (to find
 * each error's `x-message`), reply variants picked by `discriminator`, and the `emoji` format.
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    discriminator: true,
    strict: true,
    strictRequired: false,
    strictTypes: false,
  });
  addFormats.default(ajv);
  ajv.addFormat('emoji', { type: 'string', validate: isSingleEmoji });
  ajv.addVocabulary([...ANNOTATION_KEYWORDS]);
  return ajv;
}
