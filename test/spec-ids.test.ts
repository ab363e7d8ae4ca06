/**
 * The ids spec/'s JSON Schemas spell out are their sources' ids: the case registry's case ids, the
 * common checks' and the cases' rule ids, the contract's platforms (`npm run build`, or
 * `node --import tsx scripts/write-spec-ids.ts`, writes them). Help and the HTML preview read the
 * platforms from the contract too.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { knownChannels } from '../src/contract/contract.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { PLATFORM_NAMES } from '../src/generated/platform-names.js';
import { OPTIONS } from '../src/cli/options.js';
import { COMMANDS } from '../src/cli/commands.js';
import { ALL_CASE_IDS, ALL_RULE_IDS } from '../src/cases/registry.js';
import { specIdLists, valueAt } from '../scripts/spec-ids.js';
import { ROOT } from './helpers.js';

const CHANNELS = knownChannels(bundledContract());

describe('the ids in spec/', () => {
  for (const { file, at, ids } of specIdLists()) {
    test(`${file} /${at.join('/')} is its source's list (npm run build writes it)`, () => {
      assert.deepEqual(valueAt(JSON.parse(readFileSync(join(ROOT, file), 'utf8')), at), ids);
    });
  }

  test('the lists name every case, every rule and every platform', () => {
    const lists = specIdLists();
    const all = (file: string, id: string): boolean => lists.some((list) => list.file === file && list.ids.includes(id));
    for (const id of ALL_CASE_IDS) assert.ok(all('spec/report.schema.json', id), id);
    for (const id of ALL_RULE_IDS) {
      assert.ok(all('spec/report.schema.json', id), id);
      assert.ok(all('spec/last-run.schema.json', id), id);
    }
    for (const channel of CHANNELS) assert.ok(all('spec/request.schema.json', channel), channel);
  });

  test('every rule a built-in finding can name is in the contract', () => {
    for (const id of ALL_RULE_IDS) assert.ok(Object.hasOwn(bundledContract().rules, id), `${id} has no x-rules entry`);
  });
});

describe("the contract's platforms where the code names them", () => {
  test("src/generated/platform-names.ts is the contract's x-platforms, in order (npm run build writes it)", () => {
    assert.deepEqual(PLATFORM_NAMES, CHANNELS);
  });

  test('help names every platform for --channel and for limits', () => {
    const words = `${CHANNELS.join(', ')}, all, or a custom`;
    assert.ok(OPTIONS.channel.description.includes(words), OPTIONS.channel.description);
    assert.ok(OPTIONS.channel.descriptionOn.validate.includes(words), OPTIONS.channel.descriptionOn.validate);
    assert.ok(COMMANDS.limits.positional?.description.includes(words), COMMANDS.limits.positional?.description);
  });
});
