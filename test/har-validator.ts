import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createAjv } from '../src/contract/ajv.js';

/** A validator for HAR 1.2, from the har-schema package (JSON Schema draft-06). */
export function harValidator() {
  const require = createRequire(import.meta.url);
  const ajv = createAjv({ strict: false, validateFormats: false });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  const folder = join(dirname(require.resolve('har-schema/package.json')), 'lib');
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(join(folder, file), 'utf8')));
  }
  return ajv.getSchema('har.json#')!;
}
