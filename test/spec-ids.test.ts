/**
 * The ids spec/'s JSON Schemas spell out are their sources' ids: the case registry's case ids, the
 * common checks' and the cases' rule ids, the contract's platforms (`npm run build`, or
 * `node --import tsx scripts/write-spec-ids.ts`, writes them). Help and the HTML preview read the
 * platforms from the contract too. The registry's quality and extended cases are the case files'
 * (src/cases/case-modules.ts, which `npm run build` writes from them).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { knownChannels } from '../src/contract/contract.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { PLATFORM_NAMES } from '../src/generated/platform-names.js';
import { OPTIONS } from '../src/cli/options.js';
import { COMMANDS } from '../src/cli/commands.js';
import type { Case } from '../src/cases/case.js';
import { ALL_CASE_IDS, ALL_RULE_IDS, EXTENDED_CASES, QUALITY_CASES } from '../src/cases/registry.js';
import { CASE_MODULES_FILE, caseModulesSource } from '../scripts/case-modules.js';
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

describe('the case files the registry lists (src/cases/case-modules.ts)', () => {
  test(`${CASE_MODULES_FILE} lists every case file of src/cases/quality/ and src/cases/extended/ (npm run build writes it)`, async () => {
    const written = readFileSync(join(ROOT, CASE_MODULES_FILE), 'utf8');
    assert.equal(written, await caseModulesSource(join(ROOT, 'src/cases')), `${CASE_MODULES_FILE} is not current: run npm run build`);
  });

  test('the registry plays the quality and the extended cases in the order each declares', () => {
    for (const cases of [QUALITY_CASES, EXTENDED_CASES] as readonly (readonly Case[])[]) {
      const orders = cases.map((testCase) => testCase.order);
      assert.ok(
        orders.every((order, index) => typeof order === 'number' && (index === 0 || order > orders[index - 1]!)),
        JSON.stringify(cases.map(({ id, order }) => ({ id, order }))),
      );
    }
  });

  describe('a case file is found by what it exports', () => {
    const made: string[] = [];
    after(() => {
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    });
    /** A src/cases/ of its own, with these files in quality/ (extended/ empty). */
    function casesDir(files: Record<string, string>): string {
      const dir = mkdtempSync(join(tmpdir(), 'case-modules-'));
      made.push(dir);
      writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
      mkdirSync(join(dir, 'extended'));
      mkdirSync(join(dir, 'quality'));
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'quality', name), text);
      return dir;
    }
    const aCase = (name: string, id: string, fields: string) =>
      `export const ${name} = { id: '${id}', description: 'A case.', scope: 'channel', ${fields}, async run() {} };\n`;

    test('a module exporting a case is listed, in file-name order; a helper module, and an object with an id but no run, are not', async () => {
      const source = await caseModulesSource(
        casesDir({
          'b-second.ts': aCase('secondCase', 'quality/b', "group: 'quality', order: 10"),
          'a-first.ts': `export const HINT = 'h';\n${aCase('firstCase', 'quality/a', "group: 'quality', order: 20")}`,
          'helper.ts':
            "export function helper(): number { return 1; }\nexport const TABLE = { id: 'not-a-case', description: 'no run' };\n",
        }),
      );
      assert.match(source, /import \{ firstCase \} from ['"]\.\/quality\/a-first\.js['"]/);
      assert.match(source, /import \{ secondCase \} from ['"]\.\/quality\/b-second\.js['"]/);
      assert.match(source, /export const QUALITY_CASE_MODULES = \[firstCase, secondCase\] as const;/);
      assert.match(source, /export const EXTENDED_CASE_MODULES = \[\] as const;/);
      assert.doesNotMatch(source, /helper|TABLE|HINT/);
    });

    test('a case without its order, of another group, or with an order another case has, is refused, naming the file', async () => {
      await assert.rejects(
        caseModulesSource(casesDir({ 'x.ts': aCase('x', 'quality/x', "group: 'quality'") })),
        /quality\/x\.ts: the case quality\/x declares no order/,
      );
      await assert.rejects(
        caseModulesSource(casesDir({ 'x.ts': aCase('x', 'quality/x', "group: 'extended', order: 1") })),
        /quality\/x\.ts: the case quality\/x is of group "extended"; a case in src\/cases\/quality\/ has group 'quality'/,
      );
      await assert.rejects(
        caseModulesSource(
          casesDir({
            'x.ts': aCase('x', 'quality/x', "group: 'quality', order: 5"),
            'y.ts': aCase('y', 'quality/y', "group: 'quality', order: 5"),
          }),
        ),
        /quality\/y\.ts: the case quality\/y has order 5, as quality\/x has/,
      );
    });
  });
});
