/** Writes docs/cli.md from the command and option tables (src/cli/cli-reference.ts); the build runs it, test/docs.test.ts checks it is current. */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliReference } from '../src/cli/cli-reference.js';

export const CLI_DOCS = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs/cli.md');

export function writeCliDocs(): void {
  writeFileSync(CLI_DOCS, cliReference());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeCliDocs();
  process.stdout.write('wrote docs/cli.md\n');
}
