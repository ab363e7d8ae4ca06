/**
 * The config file's JSON Schema (spec/config.schema.json), written from the option table: each
 * flag of the check a property under its camelCase key, of the flag's type, described as help
 * describes it. test/config-file.test.ts holds the shipped file to this, so the two cannot drift;
 * `node --import tsx scripts/write-config-schema.ts` writes it again.
 */
import { flagDescription } from './help.js';
import { CASES_KEY, CONFIG_FILE, CONFIG_FLAGS, configKey } from './config.js';
import { type OptionName, optionSpec } from './options.js';

type JsonSchema = Record<string, unknown>;

function propertyOf(name: OptionName): JsonSchema {
  const spec = optionSpec(name);
  const description = `--${name}: ${flagDescription(name, 'check')}`;
  if (spec.type === 'boolean') return { description, type: 'boolean' };
  if (spec.type === 'number') return { description, type: 'number' };
  const one: JsonSchema = spec.choices ? { type: 'string', enum: [...spec.choices] } : { type: 'string' };
  if (spec.list) return { description, anyOf: [one, { type: 'array', items: one }] };
  if (spec.negatable) return { description, anyOf: [one, { const: false }] };
  return { description, ...one };
}

export function configSchema(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://check-endpoint.dev/spec/1.0/config.schema.json',
    title: 'check-endpoint config file',
    description: `${CONFIG_FILE} in the current folder (or the file --config names): the check's URL and flags, its keys the long flags' names in camelCase. A flag given on the command line wins over the file (a list flag given replaces the file's list). It holds no secret: the token and secret headers are named by their variables (tokenEnv, headerEnv). Relative paths are read from the current folder. For completion in editors, write this schema into the repository with "check-endpoint spec config --out check-endpoint-spec" and point "$schema" at ./check-endpoint-spec/config.schema.json.`,
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: {
        description:
          'This schema, for editors, as check-endpoint spec config --out check-endpoint-spec writes it: ./check-endpoint-spec/config.schema.json',
        type: 'string',
      },
      url: { description: "The agent's URL (http or https); a URL given on the command line wins.", type: 'string', minLength: 1 },
      ...Object.fromEntries(CONFIG_FLAGS.map((name) => [configKey(name), propertyOf(name)])),
      [CASES_KEY]: {
        description:
          'The cases\' own settings, by case id and setting name: { "quality/latency": { "budgetMs": 2000 } }; each value as the case declares it (as --case-setting ID.NAME=VALUE sets one).',
        type: 'object',
        additionalProperties: { type: 'object' },
      },
    },
  };
}
