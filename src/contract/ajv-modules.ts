/**
 * ajv's compiler and its formats, loaded on first use: only a schema compiled at run time (another
 * --spec, a --limits file) needs them; the bundled contract's answer validator is compiled at build
 * time. Loaded from the package's node_modules (the command's and the library's bundles leave them
 * out); the GitHub Action, which has no node_modules, bundles them in this module's place
 * (src/action/bundled-ajv-modules.ts, put here by scripts/build-action.ts).
 */
import { createRequire } from 'node:module';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';

const load = createRequire(import.meta.url);

/** ajv's JSON Schema 2020-12 module. */
export function ajv2020Module(): typeof Ajv2020Module {
  return load('ajv/dist/2020.js') as typeof Ajv2020Module;
}

/** ajv-formats' plugin. */
export function ajvFormatsPlugin(): FormatsPlugin {
  return load('ajv-formats') as FormatsPlugin;
}
