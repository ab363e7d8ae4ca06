/**
 * The human output of `check-endpoint URL`, byte for byte, against test/golden/*.txt: a passing
 * run and failing runs (test/golden-runs.ts says which, and what is normalised). After an
 * intended change to the output, `npm run golden:update` writes the files again; review the diff.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, test } from 'node:test';
import { GOLDEN_RUNS, UPDATE_COMMAND, goldenFile, normalise, runGolden } from './golden-runs.js';
import { ROOT } from './helpers.js';

/** Where two outputs part: the first line that differs, as expected and as printed. */
function firstDifference(expected: string, actual: string): string {
  const want = expected.split('\n');
  const got = actual.split('\n');
  const line = want.findIndex((text, index) => text !== got[index]);
  const at = line === -1 ? want.length : line;
  return `line ${at + 1}:\n  expected: ${JSON.stringify(want[at] ?? '(end of output)')}\n  printed:  ${JSON.stringify(got[at] ?? '(end of output)')}`;
}

describe('the human output, against test/golden/', () => {
  for (const run of GOLDEN_RUNS) {
    test(`${run.name}: ${run.description}`, { skip: run.missing ?? false }, async () => {
      const file = relative(ROOT, goldenFile(run));
      assert.ok(existsSync(goldenFile(run)), `${file} is missing: run ${UPDATE_COMMAND}`);
      const { code, output, stderr } = await runGolden(run);
      assert.equal(code, run.exitCode, `expected exit ${run.exitCode}, got ${code}; stderr: ${stderr}`);
      assert.equal(stderr, '', 'the human output goes to stdout; nothing on stderr but the line saying the run was recorded');
      const expected = readFileSync(goldenFile(run), 'utf8');
      if (output !== expected) {
        assert.fail(
          `the output differs from ${file} at ${firstDifference(expected, output)}\n` +
            `If the change is intended, run ${UPDATE_COMMAND} and review the diff of test/golden/.`,
        );
      }
    });
  }

  test('the normalisation replaces only the port, the run id and the case durations', () => {
    const printed = [
      'check-endpoint 0.1.0 · contract 1.0 (bundled) · http://127.0.0.1:43443/agent',
      'PASS  typed         whatsapp    1 turn        6 ms',
      'FAIL  double-text   whatsapp    2 turns   12345 ms    1 warning',
      `          reproduce: curl 'http://127.0.0.1:9/agent' --data-raw '{"conversationId":"whatsapp:chk_4efd7540.typed.1","text":"in 40 ms"}'`,
    ].join('\n');
    assert.equal(
      normalise(printed),
      [
        'check-endpoint 0.1.0 · contract 1.0 (bundled) · http://127.0.0.1:PORT/agent',
        'PASS  typed         whatsapp    1 turn      NNN ms',
        'FAIL  double-text   whatsapp    2 turns     NNN ms    1 warning',
        `          reproduce: curl 'http://127.0.0.1:PORT/agent' --data-raw '{"conversationId":"whatsapp:chk_xxxxxxxx.typed.1","text":"in 40 ms"}'`,
      ].join('\n'),
    );
  });
});
