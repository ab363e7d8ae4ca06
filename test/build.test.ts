import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runInThisContext } from 'node:vm';
import { escapeNonAscii } from '../scripts/escape-non-ascii.js';
import { STANDALONE_VALIDATORS, type StandaloneKind, standaloneResponseValidator } from '../scripts/standalone-validator.js';
import { bundledContract, loadContractFile } from '../src/contract/load-contract.js';
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
    const { answerValidators } = await import('../src/contract/compile-contract.js');
    const { check, explain } = answerValidators(bundledContract());
    const folder = join(ROOT, 'fixtures/answers');
    for (const file of readdirSync(folder).filter((name) => name !== 'manifest.json')) {
      const answer = JSON.parse(readFileSync(join(folder, file), 'utf8'));
      assert.equal(check(answer), explain(answer), file);
    }
  });

  test('the quick check counts code units only where that is exact: every length limit of the answer schema is "non-empty"', async () => {
    const { lengthsAreOnlyNonEmpty, quickCheckOptions } = await import('../src/contract/ajv.js');
    assert.equal(lengthsAreOnlyNonEmpty(bundledContract().responseSchema), true);
    assert.deepEqual(quickCheckOptions(bundledContract().responseSchema), {
      allErrors: false,
      verbose: false,
      unicode: false,
      logger: false,
    });
    // Any other length limit counts code points, as JSON Schema says.
    assert.equal(lengthsAreOnlyNonEmpty({ properties: { a: { type: 'string', minLength: 2 } } }), false);
    assert.equal(lengthsAreOnlyNonEmpty({ items: [{ maxLength: 10 }] }), false);
    assert.equal(lengthsAreOnlyNonEmpty({ $defs: { a: { minLength: 0 } }, properties: { b: { minLength: 1 } } }), true);
    assert.deepEqual(quickCheckOptions({ minLength: 2 }), { allErrors: false, verbose: false });
    // A run-time contract with such a limit gets a quick check that counts code points.
    const { createAjv } = await import('../src/contract/ajv.js');
    const twoCharacters = createAjv(quickCheckOptions({ type: 'string', minLength: 2 })).compile({ type: 'string', minLength: 2 });
    assert.equal(twoCharacters('😀'), false, 'one code point, two code units');
    assert.equal(twoCharacters('ab'), true);
  });

  test('the quick check and the explaining validator agree where code units and code points differ', async () => {
    const { answerValidators } = await import('../src/contract/compile-contract.js');
    const { check, explain } = answerValidators(bundledContract());
    const strings = ['', '😀', '\uD83D', '\uDE00', 'a', '\u00e9', 'e\u0301', '👍🏽'];
    for (const value of strings) {
      const answers = [
        { replies: [{ type: 'message', text: value }] },
        { replies: [{ type: 'message', text: 'Pick', buttons: [value] }] },
        { replies: [{ type: 'message', text: 'Pick', buttons: [{ id: value, label: value }] }] },
        {
          replies: [
            { type: 'message', text: 'Pick', list: { button: value, sections: [{ title: value, rows: [{ id: value, title: value }] }] } },
          ],
        },
        { replies: [{ type: 'message', image: { data: value, mime: 'image/png' } }] },
        { replies: [{ type: 'message', text: 'x', replyTo: value }] },
        { replies: [{ type: 'reaction', emoji: value, messageId: value }] },
      ];
      for (const answer of answers) assert.equal(check(answer), explain(answer), JSON.stringify(answer));
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
  });
});

describe('the built library', () => {
  test('its error classes keep the names they are thrown as (err.name, err.constructor.name, a stack trace)', async () => {
    const library: Record<string, unknown> = await import(join(ROOT, 'dist/index.js'));
    for (const name of ['OptionError', 'UsageError', 'ContractError']) {
      const errorClass = library[name];
      assert.equal(typeof errorClass, 'function', `dist/index.js exports ${name}`);
      assert.equal((errorClass as { name: string }).name, name);
    }
    const { OptionError } = library as { OptionError: new (field: string, message: (on: unknown) => string) => Error };
    const thrown = new OptionError('channel', () => 'channel: no such channel');
    assert.equal(thrown.name, 'OptionError');
    assert.equal(thrown.constructor.name, 'OptionError');
    assert.match(String(thrown.stack), /^OptionError: /);
  });
});

describe('the built JavaScript is ASCII (V8 keeps a source with one other character as a two-byte string)', () => {
  test('no byte of dist/cli.cjs or of the library is 0x80 or above', () => {
    assert.ok(existsSync(join(ROOT, 'dist/cli.cjs')), 'run npm run build first');
    const files = readdirSync(join(ROOT, 'dist'), { recursive: true, encoding: 'utf8' }).filter((file) => /\.c?js$/.test(file));
    assert.ok(files.includes('cli.cjs') && files.includes('index.js'));
    for (const file of files) {
      const bytes = readFileSync(join(ROOT, 'dist', file));
      const at = bytes.findIndex((byte) => byte >= 0x80);
      assert.equal(at, -1, `dist/${file} has a byte past ASCII at ${at}: ${bytes.subarray(Math.max(0, at - 40), at + 8).toString()}`);
    }
  });

  test('escapeNonAscii: each escape means what it replaced, in strings, templates and regular expressions', () => {
    // In a function of its own: runInThisContext's top-level const would stay declared.
    const source = [
      '(() => {',
      "const quoted = 'a · b \\• c';",
      'const template = `${quoted} … 📎`;',
      'const bullet = /^[-*+•]\\s/;',
      'const astral = /^[😀-🙏]$/u;',
      "return [quoted, template, bullet.test('• x'), astral.test('🙂'), astral.test('a')];",
      '})()',
    ].join('\n');
    const escaped = escapeNonAscii(source);
    assert.ok(/^[\0-\x7f]*$/.test(escaped), escaped);
    assert.ok(escaped.includes("'a \\u00B7 b \\u2022 c'"), 'an identity escape loses its backslash');
    assert.deepEqual(runInThisContext(escaped), runInThisContext(source));
    assert.deepEqual(runInThisContext(escaped), ['a · b • c', 'a · b • c … 📎', true, true, false]);
  });
});
