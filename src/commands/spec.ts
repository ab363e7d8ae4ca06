/**
 * `check-endpoint spec [NAME] [--out DIR]`: the contract's files as this package ships them
 * (spec/), for any repository, a Python agent's included: one printed on stdout, or written into a
 * folder, so a validator, an editor's `$schema` or a port of the checker can read them without
 * node_modules. Each JSON Schema has a stable `$id` (https://check-endpoint.dev/spec/1.0/NAME), an
 * identifier that nothing fetches: the files refer to one another by relative `$ref`s, which
 * resolve against the `$id`s and against the files' names in DIR alike, so the written folder
 * works offline as it is.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../core/command-name.js';
import { UsageError } from '../core/usage-error.js';
import { closestName } from '../validate/did-you-mean.js';
import type { Output } from './output.js';
import { writeFileAtomic } from './write-file-atomic.js';
import { makeFolder } from './make-folder.js';

export interface SpecCommandArgs {
  /** The file asked for, by its short name; every file when left out. */
  name?: string;
  /** The folder to write into; stdout when left out. */
  out?: string;
}

/** The contract's files, by the short name the command takes, with what each is. */
export const SPEC_FILES = {
  openapi: {
    file: 'agent-endpoint.openapi.yaml',
    about: 'the contract: the endpoint, its limits (x-platforms) and its rules (x-rules), OpenAPI 3.1',
  },
  request: { file: 'request.schema.json', about: 'what the check sends: one person message (JSON Schema 2020-12)' },
  response: { file: 'response.schema.json', about: 'what the agent answers: { "replies": [...] }' },
  limits: { file: 'platform-limits.schema.json', about: "a platform's display limits, the shape of a --limits file" },
  config: { file: 'config.schema.json', about: "check-endpoint.config.json's keys, for an editor's $schema" },
  report: { file: 'report.schema.json', about: 'the --json report, and the JSON of validate and limits' },
  'last-run': { file: 'last-run.schema.json', about: 'the record of the last run, .check-endpoint/last-run.json' },
} as const;

export type SpecName = keyof typeof SPEC_FILES;

export const SPEC_NAMES = Object.keys(SPEC_FILES) as readonly string[];

function isSpecName(name: string): name is SpecName {
  return Object.hasOwn(SPEC_FILES, name);
}

/** The files a file's relative `$ref`s name (`"$ref": "platform-limits.schema.json"`, `$ref: "./request.schema.json"`). */
export function referencedFiles(text: string): string[] {
  const files = [...text.matchAll(/\$ref["']?\s*:\s*["'](?:\.\/)?([A-Za-z0-9._-]+\.(?:json|yaml))(?:#[^"']*)?["']/g)].map(
    (match) => match[1]!,
  );
  return [...new Set(files)];
}

async function readSpecFile(file: string): Promise<string> {
  return fs.readFile(join(packageRoot(), 'spec', file), 'utf8');
}

/** The file named, and every file it refers to, in that order: what --out writes for one name. */
async function withReferences(file: string): Promise<string[]> {
  const files = [file];
  for (let index = 0; index < files.length; index++) {
    for (const referenced of referencedFiles(await readSpecFile(files[index]!))) if (!files.includes(referenced)) files.push(referenced);
  }
  return files;
}

export async function runSpecCommand(args: SpecCommandArgs, output: Output): Promise<number> {
  if (args.name !== undefined && !isSpecName(args.name)) {
    const closest = closestName(args.name, SPEC_NAMES);
    throw new UsageError(
      `spec: there is no file "${args.name}"${closest === undefined ? '' : `; did you mean ${closest}?`} The files: ${SPEC_NAMES.join(', ')}`,
    );
  }
  const name = args.name;
  if (args.out === undefined) {
    if (name !== undefined) {
      process.stdout.write(await readSpecFile(SPEC_FILES[name].file));
      return 0;
    }
    output.line("The contract's files (name one to print it, or write them all with --out DIR):");
    for (const [short, { file, about }] of Object.entries(SPEC_FILES)) output.line(`  ${short.padEnd(9)} ${file.padEnd(28)} ${about}`);
    return 0;
  }
  const files = name === undefined ? Object.values(SPEC_FILES).map((entry) => entry.file) : await withReferences(SPEC_FILES[name].file);
  try {
    await makeFolder(args.out);
    for (const file of files) await writeFileAtomic(join(args.out, file), await readSpecFile(file));
  } catch (cause) {
    throw new UsageError(`spec: cannot write into ${args.out}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`);
  }
  for (const file of files) output.line(`wrote ${join(args.out, file)}`);
  return 0;
}
