/**
 * Build: validates and extracts the bundled contract from spec/ (so the common path needs no
 * OpenAPI parser at run time), bundles the command and the library with esbuild, and writes the
 * library's type declarations.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { type BuildOptions, build } from 'esbuild';
import { createAjv } from '../src/spec/ajv.js';
import { extractContract } from '../src/spec/extract-contract.js';
import { STANDALONE_VALIDATORS, type StandaloneKind, standaloneDeclarations, standaloneResponseValidator } from './standalone-validator.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const specFile = join(root, 'spec/agent-endpoint.openapi.yaml');

async function writeBundledSpec(): Promise<void> {
  const platformLimitsSchema = JSON.parse(readFileSync(join(root, 'spec/platform-limits.schema.json'), 'utf8'));
  const document = await SwaggerParser.validate(specFile);
  const contract = extractContract(document, 'bundled', createAjv().compile(platformLimitsSchema));
  const target = join(root, 'src/generated/bundled-spec.json');
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, `${JSON.stringify({ contract, platformLimitsSchema })}\n`);
  // The answer validator, compiled now so the command never compiles it.
  for (const kind of Object.keys(STANDALONE_VALIDATORS) as StandaloneKind[]) {
    const { file } = STANDALONE_VALIDATORS[kind];
    writeFileSync(join(root, `src/generated/${file}.js`), standaloneResponseValidator(contract, kind));
    writeFileSync(join(root, `src/generated/${file}.d.ts`), standaloneDeclarations(kind));
  }
  // The photo the `photo` case sends, embedded so the command needs no file beside it.
  const photo = { name: 'photo.jpg', mime: 'image/jpeg', data: readFileSync(join(root, 'fixtures/photo.jpg')).toString('base64') };
  writeFileSync(join(root, 'src/generated/photo.json'), `${JSON.stringify(photo)}\n`);
}

async function bundle(): Promise<void> {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: false,
    legalComments: 'none',
    // Bundled CommonJS dependencies (ajv) call require(); give the ES module one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // Loaded only when --spec names another contract file.
    external: ['@apidevtools/swagger-parser'],
    logLevel: 'warning',
    // NO_MINIFY=1 keeps the names readable, for a CPU profile. No keepNames: it wraps every
    // function made at run time (each closure) in a call that names it, which costs on hot paths.
    minify: process.env.NO_MINIFY !== '1',
  };
  // One build, split: the command's common path loads only what it needs; yargs, the other
  // commands and the reporters come in chunks loaded when used.
  await build({
    ...common,
    entryPoints: { cli: join(root, 'src/cli.ts'), index: join(root, 'src/index.ts') },
    outdir: join(root, 'dist'),
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  });
}

function declarations(): void {
  execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
}

await writeBundledSpec();
// `build.ts spec` only regenerates the bundled contract (what the tests of src/ need).
if (process.argv[2] !== 'spec') {
  await bundle();
  declarations();
}
