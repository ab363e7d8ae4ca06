/**
 * src/contract/ajv-modules.ts as the GitHub Action's bundle has it: ajv and ajv-formats bundled in,
 * since the action runs from a checkout of this repository with no node_modules.
 * scripts/build-action.ts puts this module in that one's place; nothing else imports it.
 */
import * as Ajv2020Module from 'ajv/dist/2020.js';
import ajvFormats, { type FormatsPlugin } from 'ajv-formats';

/** ajv's JSON Schema 2020-12 module. */
export function ajv2020Module(): typeof Ajv2020Module {
  return Ajv2020Module;
}

/** ajv-formats' plugin. */
export function ajvFormatsPlugin(): FormatsPlugin {
  // A CommonJS module: its module.exports is the plugin, and so is its `default`.
  return ajvFormats.default;
}
