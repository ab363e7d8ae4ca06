/**
 * The GitHub Action's two committed files: action.yml (from the inputs and outputs of
 * src/action/inputs.ts) and action/index.mjs (src/action/main.ts bundled with every dependency:
 * the runner runs it from its copy of this repository, which has no node_modules and no build).
 * `npm run build:action` writes them; test/action.test.ts fails when the committed ones are not
 * what this writes.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Plugin, build } from 'esbuild';
import { ACTION_BUNDLE } from '../src/core/command-name.js';
import { ACTION_INPUTS, ACTION_OUTPUTS } from '../src/action/inputs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The Node the runners run a `node24` action on (GitHub retired node20 from its runners on 16 September 2026). */
const ACTION_RUNTIME = 'node24';

/** ajv and ajv-formats bundled in, in place of the module that loads them from node_modules. */
const bundledAjv: Plugin = {
  name: 'bundled-ajv-modules',
  setup(plugin) {
    plugin.onResolve({ filter: /\/ajv-modules\.js$/ }, (args) =>
      args.importer.endsWith(join('src', 'contract', 'ajv.ts')) ? { path: join(root, 'src/action/bundled-ajv-modules.ts') } : undefined,
    );
  },
};

/** A YAML double-quoted scalar: JSON's string syntax is a subset of it. */
function quoted(text: string): string {
  return JSON.stringify(text);
}

export function actionYaml(): string {
  const description = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { description: string }).description;
  const lines = [
    '# Written by scripts/build-action.ts from src/action/inputs.ts (npm run build:action): edit that, not this.',
    'name: check-endpoint',
    `description: ${quoted(description)}`,
    'branding:',
    '  icon: check-circle',
    '  color: green',
    'inputs:',
    ...ACTION_INPUTS.flatMap((input) => [
      `  ${input.name}:`,
      `    description: ${quoted(input.description)}`,
      `    required: ${input.required === true}`,
      ...(input.default !== undefined ? [`    default: ${quoted(input.default)}`] : []),
    ]),
    'outputs:',
    ...ACTION_OUTPUTS.flatMap((output) => [`  ${output.name}:`, `    description: ${quoted(output.description)}`]),
    'runs:',
    `  using: ${ACTION_RUNTIME}`,
    `  main: ${ACTION_BUNDLE}`,
    '',
  ];
  return lines.join('\n');
}

/** action/index.mjs as the build writes it (in memory). */
export async function actionBundle(): Promise<string> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'src/action/main.ts')],
    bundle: true,
    write: false,
    outfile: join(root, ACTION_BUNDLE),
    platform: 'node',
    target: 'node24',
    format: 'esm',
    // Bundled CommonJS dependencies (ajv, swagger-parser) call require(); give the ES module one.
    banner: {
      js: [
        '// The GitHub Action, bundled by scripts/build-action.ts from src/action/main.ts (npm run build:action): edit that, not this.',
        "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      ].join('\n'),
    },
    // The licences of what is bundled in, kept at the end of the file.
    legalComments: 'eof',
    charset: 'ascii',
    minify: true,
    sourcemap: false,
    logLevel: 'warning',
    plugins: [bundledAjv],
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild wrote no action bundle');
  return output.text;
}

/** Every file the action needs, as the build writes it. */
export async function actionFiles(): Promise<{ file: string; content: string }[]> {
  return [
    { file: 'action.yml', content: actionYaml() },
    { file: ACTION_BUNDLE, content: await actionBundle() },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { file, content } of await actionFiles()) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), content);
    process.stdout.write(`wrote ${file} (${Math.round(Buffer.byteLength(content) / 1000)} KB)\n`);
  }
}
