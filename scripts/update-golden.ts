/**
 * Writes test/golden/*.txt again from the built command's output (`npm run golden:update`, which
 * builds first). A run whose exit code is not the one expected, or that prints on stderr, is
 * refused: a golden file holds only output the test would accept. Review the diff before committing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { GOLDEN_DIR, GOLDEN_RUNS, goldenFile, runGolden } from '../test/golden-runs.js';
import { ROOT } from '../test/helpers.js';

mkdirSync(GOLDEN_DIR, { recursive: true });
let refused = 0;
for (const run of GOLDEN_RUNS) {
  const file = relative(ROOT, goldenFile(run));
  if (run.missing !== undefined) {
    refused++;
    process.stderr.write(`${file}: not written: its run ${run.missing}\n`);
    continue;
  }
  const { code, output, stderr } = await runGolden(run);
  if (code !== run.exitCode || stderr !== '') {
    refused++;
    process.stderr.write(`${file}: not written: expected exit ${run.exitCode} and nothing on stderr, got exit ${code}\n${stderr}`);
    continue;
  }
  writeFileSync(goldenFile(run), output);
  process.stdout.write(`wrote ${file} (${run.description})\n`);
}
process.exitCode = refused ? 1 : 0;
