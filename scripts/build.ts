/**
 * Build: validates and extracts the bundled contract from spec/ (so the common path needs no
 * OpenAPI parser at run time), bundles the command and the library with esbuild, and writes the
 * library's type declarations.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { type BuildOptions, build } from 'esbuild';
import { createAjv } from '../src/contract/ajv.js';
import { extractContract } from '../src/contract/extract-contract.js';
import { BUILD_KEY_FILE, buildKey, builtWithKey, writeBuildKey } from './build-key.js';
import { escapeNonAscii } from './escape-non-ascii.js';
import { STANDALONE_VALIDATORS, type StandaloneKind, standaloneDeclarations, standaloneResponseValidator } from './standalone-validator.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The line dist/cli.cjs ends with, which bin/check-endpoint.cjs looks for (bin/bundle-end.cjs, the one place it is written). */
const BUNDLE_END = String(createRequire(import.meta.url)('../bin/bundle-end.cjs'));
const specFile = join(root, 'spec/agent-endpoint.openapi.yaml');

/**
 * The small attachments the cases send: a file of fixtures/, its media type, and the generated
 * module it is embedded in. The photo (218 KB) is not embedded: the photo case reads
 * fixtures/photo.jpg, shipped in the package, when it plays (src/cases/photo-file.ts).
 */
const ATTACHMENTS = [
  { file: 'voice-note.ogg', mime: 'audio/ogg', generated: 'voice-note' },
  { file: 'menu.pdf', mime: 'application/pdf', generated: 'document' },
  { file: 'video.mp4', mime: 'video/mp4', generated: 'video' },
] as const;

/** The contract as spec/ holds it now, written to src/generated/ with its compiled answer validators and its platforms' names. */
async function writeContract(): Promise<string[]> {
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
  const channels = Object.keys(contract.platforms);
  writeFileSync(join(root, 'src/generated/platform-names.ts'), platformNamesModule(channels));
  return channels;
}

/** src/generated/platform-names.ts: the contract's platforms as a list and a type, for help texts and the HTML preview's looks. */
function platformNamesModule(channels: readonly string[]): string {
  return [
    "/** Written by scripts/build.ts from spec/agent-endpoint.openapi.yaml's x-platforms: the contract's platforms, in its order. */",
    `export const PLATFORM_NAMES = ${JSON.stringify(channels)} as const;`,
    'export type PlatformName = (typeof PLATFORM_NAMES)[number];',
    '',
  ].join('\n');
}

async function writeBundledSpec(): Promise<void> {
  // The files the cases send (fixtures/), embedded so the command needs no file beside it.
  mkdirSync(join(root, 'src/generated'), { recursive: true });
  for (const { file, mime, generated } of ATTACHMENTS) {
    const attachment = { name: file, mime, data: readFileSync(join(root, 'fixtures', file)).toString('base64') };
    writeFileSync(join(root, `src/generated/${generated}.json`), `${JSON.stringify(attachment)}\n`);
  }
  const channels = await writeContract();
  // src/cases/case-modules.ts, from the case files of src/cases/quality/ and extended/ (committed;
  // test/spec-ids.test.ts holds it current). Written before anything loads the registry, which reads it.
  const { CASE_MODULES_FILE, writeCaseModules } = await import('./case-modules.js');
  if (await writeCaseModules(root)) process.stdout.write(`wrote ${CASE_MODULES_FILE}\n`);
  // The ids spec/'s JSON Schemas spell out, from the case registry and the contract (committed; test/spec-ids.test.ts
  // holds them current). Loaded now: the registry reads what was just generated.
  const { writeSpecIds } = await import('./spec-ids.js');
  const changed = writeSpecIds(root, channels);
  for (const file of changed) process.stdout.write(`wrote ${file}\n`);
  // request.schema.json is part of the contract: a channel added to it is bundled too.
  if (changed.includes('spec/request.schema.json')) await writeContract();
  // spec/config.schema.json, from the option table: its help words name the contract's platforms (test/config-file.test.ts holds it current).
  const { configSchema } = await import('../src/cli/config-schema.js');
  const config = `${JSON.stringify(configSchema(), null, 2)}\n`;
  if (readFileSync(join(root, 'spec/config.schema.json'), 'utf8') !== config) {
    writeFileSync(join(root, 'spec/config.schema.json'), config);
    process.stdout.write('wrote spec/config.schema.json\n');
  }
  // docs/report-formats.md's table, from the report formats' registry (committed; test/report-formats.test.ts holds it current).
  const { DOC_FILE, writeReportFormatsDoc } = await import('./report-formats-doc.js');
  if (writeReportFormatsDoc(root)) process.stdout.write(`wrote ${DOC_FILE}\n`);
  // docs/checks.md's tables of the extended and quality cases, from each case's `doc` (committed; test/checks-doc.test.ts holds them current).
  const { CHECKS_DOC_FILE, writeChecksDoc } = await import('./checks-doc.js');
  if (writeChecksDoc(root)) process.stdout.write(`wrote ${CHECKS_DOC_FILE}\n`);
  // docs/platforms.md's table of limits, from the contract's x-platforms (committed; test/platforms-doc.test.ts holds it current).
  const platformsDoc = await import('./platforms-doc.js');
  if (platformsDoc.writePlatformsDoc(root)) process.stdout.write(`wrote ${platformsDoc.DOC_FILE}\n`);
}

async function bundle(): Promise<void> {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    target: 'node20.19',
    sourcemap: false,
    legalComments: 'none',
    // ASCII only: non-ASCII text (the emoji data, the platforms' reaction lists, the report's
    // symbols) as \u escapes. One non-ASCII character makes V8 hold the whole source as a two-byte
    // string, twice the memory, scanned twice as slowly, on every start.
    charset: 'ascii',
    // Loaded only when --spec names another contract file, when a proxy applies to the target, (yaml) when --scenarios reads scenario files, or (chokidar, ignore) under --watch.
    external: ['@apidevtools/swagger-parser', 'https-proxy-agent', 'http-proxy-agent', 'yaml', 'chokidar', 'ignore'],
    logLevel: 'warning',
    // NO_MINIFY=1 keeps the names readable, for a CPU profile. No keepNames: it wraps every
    // function made at run time (each closure) in a call that names it, which costs on hot paths.
    minify: process.env.NO_MINIFY !== '1',
  };
  // The library (and its report writers, check-endpoint/report): ES modules, split so that what a
  // caller does not use (the quality cases, the HTML report) is loaded only when used, and what
  // both entries use is one shared chunk.
  await build({
    ...common,
    format: 'esm',
    // Bundled CommonJS dependencies (ajv) call require(); give the ES module one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    entryPoints: { index: join(root, 'src/index.ts'), report: join(root, 'src/reports.ts') },
    outdir: join(root, 'dist'),
    // Names as written: a caller's stack trace and `err.constructor.name` say OptionError, not `m`.
    ...(common.minify ? { minify: false, minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: false } : {}),
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  });
  // The command: one CommonJS file, which bin/check-endpoint.cjs compiles with a V8 code cache
  // (an ES module cannot use one on Node 20). Modules it imports on demand stay uninitialized
  // until then, and V8 compiles a function only when it first runs.
  await build({
    ...common,
    format: 'cjs',
    entryPoints: [join(root, 'src/cli.ts')],
    outfile: join(root, 'dist/cli.cjs'),
    // The file is one function expression, called by bin/check-endpoint.cjs as Node calls a
    // CommonJS module's wrapper: wrapped here, once, not by a copy of the whole source at each start.
    banner: { js: '(function (exports, require, module, __filename, __dirname, __cliUrl) {' },
    // Its last line is the mark bin/check-endpoint.cjs looks for: a bundle without it was cut short.
    footer: { js: `})\n${BUNDLE_END}` },
    // import() of a bundled module becomes a lazy initializer; of swagger-parser, a require().
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__cliUrl' },
  });
  // What esbuild's charset leaves outside ASCII (regular expressions, templates), escaped: every
  // file of dist/ is ASCII (test/build.test.ts holds it).
  for (const file of readdirSync(join(root, 'dist'), { recursive: true, encoding: 'utf8' })) {
    if (!/\.c?js$/.test(file)) continue;
    const path = join(root, 'dist', file);
    const code = readFileSync(path, 'utf8');
    const ascii = escapeNonAscii(code);
    if (ascii !== code) writeFileSync(path, ascii);
  }
  process.stdout.write(`dist/cli.cjs: ${Math.round(statSync(join(root, 'dist/cli.cjs')).size / 1000)} KB\n`);
}

/**
 * The command's V8 code cache (dist/cli.cache): written by the command itself at the end of a
 * check of every channel against the reference agent, so it holds every function a check compiles.
 */
async function writeCodeCache(): Promise<void> {
  const { serveAgent } = await import('../src/example-agent/serve-agent.js');
  const { referenceAnswer } = await import('../src/example-agent/reference-agent.js');
  const { bundledContract } = await import('../src/contract/load-contract.js');
  const { platforms } = bundledContract();
  const agent = await serveAgent((request) =>
    referenceAnswer(request, Object.hasOwn(platforms, request.channel) ? platforms[request.channel] : undefined),
  );
  try {
    // Not spawnSync: the agent answers from this process.
    const { stdout, stderr, status } = await new Promise<{ stdout: string; stderr: string; status: number | null }>((resolve, reject) => {
      const child = spawn(process.execPath, [join(root, 'bin/check-endpoint.cjs'), agent.url, '--channel', 'all', '--runs', '3'], {
        env: { ...process.env, CHECK_ENDPOINT_WRITE_CODE_CACHE: '1', NO_COLOR: '1' },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ stdout: out, stderr: err, status: code }));
    });
    if (status !== 0) throw new Error(`the check that writes the code cache exited ${status}:\n${stdout}${stderr}`);
  } finally {
    await agent.close();
  }
}

function declarations(): void {
  // --noCheck: the declarations only; the type check is `npm run typecheck`'s (npm test runs it). It
  // writes the same files in 60% of the time, and a git install's build is this one.
  execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(root, 'tsconfig.build.json'), '--noCheck'], { stdio: 'inherit' });
}

await writeBundledSpec();
// docs/cli.md, from the option table (test/docs.test.ts holds it current).
// Loaded once the generated modules exist: the option table it reads names the platforms (src/generated/platform-names.ts).
const { writeCliDocs } = await import('./write-cli-docs.js');
writeCliDocs();
// `build.ts spec` only regenerates the bundled contract (what the tests of src/ need).
if (process.argv[2] !== 'spec') {
  const key = buildKey(root);
  if (builtWithKey(root, key)) {
    process.stdout.write(`dist/ was built from these sources by this Node (${BUILD_KEY_FILE}): not built again\n`);
  } else {
    await bundle();
    await writeCodeCache();
    declarations();
    writeBuildKey(root, key);
  }
}
