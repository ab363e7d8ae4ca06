import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { STANDALONE_VALIDATORS, type StandaloneKind, standaloneResponseValidator } from '../scripts/standalone-validator.js';
import { bundledContract, loadContractFile } from '../src/spec/load-contract.js';
import { validateAnswer } from '../src/validate/validate-answer.js';
import { ROOT } from './helpers.js';

describe('what the build compiles matches spec/ exactly', () => {
  test('the precompiled answer validators are the ones spec/ compiles to today', async () => {
    const contract = await loadContractFile(join(ROOT, 'spec/agent-endpoint.openapi.yaml'));
    for (const kind of Object.keys(STANDALONE_VALIDATORS) as StandaloneKind[]) {
      const file = `src/generated/${STANDALONE_VALIDATORS[kind].file}.js`;
      assert.equal(
        readFileSync(join(ROOT, file), 'utf8'),
        standaloneResponseValidator(contract, kind),
        `${file} is stale: run npm run build`,
      );
    }
  });

  test('the quick check and the explaining validator agree on every sample answer', async () => {
    const { answerValidators } = await import('../src/spec/compile-contract.js');
    const { check, explain } = answerValidators(bundledContract());
    const folder = join(ROOT, 'fixtures/answers');
    for (const file of readdirSync(folder).filter((name) => name !== 'manifest.json')) {
      const answer = JSON.parse(readFileSync(join(folder, file), 'utf8'));
      assert.equal(check(answer), explain(answer), file);
    }
  });

  test('the precompiled validator and one compiled at run time from spec/ give the same findings on every sample answer', async () => {
    const fromFile = await loadContractFile(join(ROOT, 'spec/agent-endpoint.openapi.yaml'));
    const folder = join(ROOT, 'fixtures/answers');
    const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as {
      file: string;
      channel: string;
      personMessageIds?: string[];
    }[];
    assert.ok(manifest.length >= 25);
    for (const entry of manifest) {
      const answer = JSON.parse(readFileSync(join(folder, entry.file), 'utf8'));
      const options = { channel: entry.channel, ...(entry.personMessageIds ? { personMessageIds: entry.personMessageIds } : {}) };
      assert.deepEqual(
        validateAnswer(answer, { ...options, contract: fromFile }),
        validateAnswer(answer, { ...options, contract: bundledContract() }),
        entry.file,
      );
    }
    assert.ok(readdirSync(folder).length > manifest.length - 1);
  });
});
