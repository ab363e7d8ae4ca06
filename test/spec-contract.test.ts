/**
 * The contract files in spec/: swagger-parser accepts the OpenAPI document, the bundled contract
 * is what a run-time load of spec/ gives, and a broken spec or limits file is a ContractError
 * that names the file.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Contract } from '../src/index.js';
import { ContractError, bundledContract, loadContract, loadLimitsFile } from '../src/index.js';
import { loadContractFile } from '../src/contract/load-contract.js';

const specDir = fileURLToPath(new URL('../spec/', import.meta.url));
const specFile = join(specDir, 'agent-endpoint.openapi.yaml');

describe('spec/agent-endpoint.openapi.yaml', () => {
  let loaded: Contract;
  before(async () => {
    loaded = await loadContractFile(specFile);
  });

  it('swagger-parser accepts it, and the contract says where it came from', () => {
    assert.equal(loaded.source, specFile);
    assert.equal(loaded.version, '1.0');
    assert.equal(loaded.agentTimeoutSeconds, 60);
  });

  it('loads to the bundled contract, except for `source` (rebuild with `node --import tsx scripts/build.ts spec`)', () => {
    const bundled = bundledContract();
    assert.equal(bundled.source, 'bundled');
    assert.deepEqual({ ...loaded, source: 'bundled' }, bundled);
  });

  it('loadContract() without a file is the bundled contract', async () => {
    assert.equal(await loadContract(), bundledContract());
  });

  it("Telegram's reaction emoji are exactly the contract's 73, in its order", () => {
    // Copied from the contract: `❤` is U+2764 without U+FE0F; four are joined with U+200D.
    // prettier-ignore
    const contractList = [
      '❤', '👍', '👎', '🔥', '🥰', '👏', '😁', '🤔', '🤯', '😱', '🤬', '😢', '🎉', '🤩', '🤮', '💩', '🙏', '👌', '🕊', '🤡',
      '🥱', '🥴', '😍', '🐳', '❤\u200D🔥', '🌚', '🌭', '💯', '🤣', '⚡', '🍌', '🏆', '💔', '🤨', '😐', '🍓', '🍾', '💋', '🖕',
      '😈', '😴', '😭', '🤓', '👻', '👨\u200D💻', '👀', '🎃', '🙈', '😇', '😨', '🤝', '✍', '🤗', '🫡', '🎅', '🎄', '☃', '💅', '🤪',
      '🗿', '🆒', '💘', '🙉', '🦄', '😘', '💊', '🙊', '😎', '👾', '🤷\u200D♂', '🤷', '🤷\u200D♀', '😡',
    ];
    assert.equal(contractList.length, 73);
    assert.deepEqual(loaded.platforms.telegram?.reaction?.emoji, contractList);
    assert.equal(contractList.filter((emoji) => emoji.includes('\uFE0F')).length, 0, 'listed without U+FE0F');
  });
});

describe('a broken spec file', () => {
  let dir: string;
  const original = readFileSync(specFile, 'utf8');

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'check-endpoint-spec-'));
    // The OpenAPI document refers to the schemas beside it.
    for (const file of ['request.schema.json', 'response.schema.json']) copyFileSync(join(specDir, file), join(dir, file));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes a spec variant into the temp dir and expects a ContractError naming it. */
  async function rejects(name: string, text: string, mentions?: RegExp): Promise<void> {
    const file = join(dir, name);
    writeFileSync(file, text);
    await assert.rejects(loadContractFile(file), (error: unknown) => {
      assert.ok(error instanceof ContractError, `a ContractError, got ${String(error)}`);
      assert.ok(error.message.includes(file), `the message names the file: ${error.message}`);
      if (mentions) assert.match(error.message, mentions);
      return true;
    });
  }

  /** The spec with `from` replaced in one platform's entry of x-platforms, where it must be written once. */
  function replaceOnce(text: string, from: string, to: string, platform: string): string {
    const start = text.indexOf(`\n  ${platform}:\n`, text.indexOf('\nx-platforms:'));
    assert.ok(start > 0, `the spec has x-platforms.${platform}`);
    const next = text.slice(start + 1).search(/\n {2}[a-z][a-z0-9_-]*:\n/);
    const end = next < 0 ? text.length : start + 1 + next;
    const entry = text.slice(start, end);
    assert.equal(entry.split(from).length, 2, `x-platforms.${platform} has ${JSON.stringify(from)} once`);
    return text.slice(0, start) + entry.replace(from, to) + text.slice(end);
  }

  it('an unchanged copy loads (so the failures below come from the changes)', async () => {
    const file = join(dir, 'copy.yaml');
    writeFileSync(file, original);
    assert.deepEqual((await loadContractFile(file)).platforms, bundledContract().platforms);
  });

  /** Broken variants of the spec: what is wrong, the file it is written to, its text, and what the error must mention. */
  const BROKEN: { what: string; name: string; text: () => string; mentions?: RegExp }[] = [
    { what: 'invalid YAML', name: 'invalid.yaml', text: () => 'openapi: 3.1.0\ninfo: [unclosed\n  title: : x\n' },
    { what: 'not an OpenAPI document', name: 'not-openapi.yaml', text: () => 'hello: world\n' },
    {
      what: 'an OpenAPI document without x-platforms',
      name: 'no-platforms.yaml',
      text: () => original.slice(0, original.indexOf('\nx-platforms:') + 1),
      mentions: /x-platforms/,
    },
    {
      what: 'a negative limit',
      name: 'negative.yaml',
      text: () => replaceOnce(original, 'maxCount: 3,', 'maxCount: -3,', 'whatsapp'),
      mentions: /x-platforms\.whatsapp\.buttons\.maxCount/,
    },
    {
      what: 'a limit that is not a number',
      name: 'not-a-number.yaml',
      text: () => replaceOnce(original, 'maxCount: 3,', 'maxCount: three,', 'whatsapp'),
      mentions: /x-platforms\.whatsapp\.buttons\.maxCount/,
    },
    {
      what: 'an unknown limit (a typo)',
      name: 'typo.yaml',
      text: () => replaceOnce(original, 'maxCount: 3,', 'maxCont: 3,', 'whatsapp'),
      mentions: /maxCont/,
    },
    {
      what: 'an unknown support value',
      name: 'support.yaml',
      text: () => replaceOnce(original, 'replyTo: { support: ignored }', 'replyTo: { support: maybe }', 'sms'),
      mentions: /x-platforms\.sms\.replyTo\.support/,
    },
  ];
  for (const { what, name, text, mentions } of BROKEN) {
    it(what, async () => {
      await rejects(name, text(), mentions);
    });
  }

  it('a missing file', async () => {
    await assert.rejects(loadContractFile(join(dir, 'missing.yaml')), (error: unknown) => {
      assert.ok(error instanceof ContractError);
      assert.ok(error.message.includes(join(dir, 'missing.yaml')));
      return true;
    });
  });
});

describe('a limits file (--limits)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'check-endpoint-limits-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it('in the shape of an x-platforms entry, loads as is', async () => {
    const rules = { title: 'Matrix', counting: 'codepoints', text: { maxLength: 100 }, buttons: { support: 'no' } };
    assert.deepEqual(await loadLimitsFile(write('matrix.json', JSON.stringify(rules))), rules);
  });

  it("any platform's entry from the contract is a valid limits file", async () => {
    for (const [channel, rules] of Object.entries(bundledContract().platforms)) {
      assert.deepEqual(await loadLimitsFile(write(`${channel}.json`, JSON.stringify(rules))), rules);
    }
  });

  for (const [what, text] of [
    ['not JSON', '{ title: Matrix'],
    ['without a title', JSON.stringify({ counting: 'codepoints' })],
    ['with an unknown counting', JSON.stringify({ title: 'Matrix', counting: 'graphemes' })],
    ['with a bad limit', JSON.stringify({ title: 'Matrix', counting: 'codepoints', text: { maxLength: 1.5 } })],
  ] as const) {
    it(`${what}: a ContractError naming the file`, async () => {
      const file = write('bad.json', text);
      await assert.rejects(loadLimitsFile(file), (error: unknown) => {
        assert.ok(error instanceof ContractError);
        assert.ok(error.message.includes(file), error.message);
        return true;
      });
    });
  }

  it('a missing file: a ContractError naming it', async () => {
    const file = join(dir, 'missing.json');
    await assert.rejects(loadLimitsFile(file), (error: unknown) => error instanceof ContractError && error.message.includes(file));
  });
});
