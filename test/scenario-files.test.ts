/**
 * Team scenario files (tests/scenarios/*.yaml) checked before anything is sent: each invalid
 * fixture file has exactly the problem it was written with, at its line and column, with a fix;
 * every valid one has none; the contract's bounds hold at the limit and fail one over; keys this
 * checker does not read are listed, never errors; `{{now …}}` renders from the scenario's clock.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkScenario } from '../src/scenario-files/check-scenario.js';
import { nowTemplates, renderNowTemplates } from '../src/scenario-files/now-template.js';
import { parseScenarioFile } from '../src/scenario-files/parse-scenario-file.js';
import { MAX_SCENARIO_FILE_BYTES, ScenarioFolderError, readScenarioFolder } from '../src/scenario-files/read-scenario-files.js';
import { MAX_AFTER_MS, MAX_HISTORY_ITEMS, MAX_HISTORY_ITEM_CHARACTERS } from '../src/scenario-files/scenario-file.js';
import { uncheckedKeys } from '../src/scenario-files/scenario-set.js';
import { bundledContract } from '../src/index.js';
import { ROOT } from './helpers.js';

const CHANNELS = Object.keys(bundledContract().platforms);
const FIXTURES = join(ROOT, 'fixtures/scenarios');

function check(text: string, expectedId = 'a-scenario') {
  return parseScenarioFile(text, { file: `${expectedId}.yaml`, expectedId, channels: CHANNELS });
}

describe('the fixture scenario files', () => {
  test('every valid file has no problem, and its opening as written', () => {
    const folder = readScenarioFolder(join(FIXTURES, 'valid'), CHANNELS);
    assert.deepEqual(
      folder.checked.map((entry) => [entry.scenario?.id, entry.problems]),
      [
        ['latte-correction', []],
        ['menu-buttons', []],
        ['table-for-tomorrow', []],
      ],
    );
    const latte = folder.checked[0]!.scenario!;
    assert.deepEqual(latte.channels, ['whatsapp']);
    assert.deepEqual(latte.opening, [
      { say: 'can i get a large latte', afterMs: undefined },
      { say: 'oat milk actually', afterMs: 1200 },
    ]);
    assert.equal(folder.checked[2]!.scenario!.historyItems, 2);
    // `tags` is no key this checker reads: listed once, with where it stands, never an error.
    assert.deepEqual(uncheckedKeys(folder.checked), [
      { key: '/tags', places: [{ file: join(FIXTURES, 'valid/table-for-tomorrow.yaml'), pointer: '/tags', line: 18, column: 1 }] },
    ]);
  });

  const expected: Record<string, { pointer: string; line: number; column: number; says: RegExp; fix: RegExp }> = {
    'bad-after-ms': {
      pointer: '/opening/1/after_ms',
      line: 6,
      column: 15,
      says: /whole number of milliseconds.*got the text "1\.5s"/,
      fix: /after_ms: 1200/,
    },
    'duplicate-key': { pointer: '', line: 5, column: 1, says: /"channels" is given again/, fix: /Remove one/ },
    'history-item-too-long': {
      pointer: '/history/0/person',
      line: 6,
      column: 13,
      says: /at most 4,000 characters.*got 4,001/,
      fix: /Shorten/,
    },
    'history-too-long': { pointer: '/history/200', line: 206, column: 5, says: /at most 200 history items; got 201/, fix: /last 200/ },
    'id-not-file-name': {
      pointer: '/id',
      line: 1,
      column: 5,
      says: /file's name, "id-not-file-name"; got "latte-correction"/,
      fix: /Rename the file to latte-correction\.yaml/,
    },
    'missing-id': { pointer: '', line: 1, column: 1, says: /expected an `id`/, fix: /id: missing-id/ },
    'not-yaml': { pointer: '', line: 6, column: 1, says: /expected YAML; Missing closing "quote/, fix: /Fix the YAML/ },
    'now-without-clock': {
      pointer: '/opening/0/say',
      line: 4,
      column: 10,
      says: /\{\{now \+ 1d \| date\}\} needs the scenario's clock/,
      fix: /now: /,
    },
    'opening-not-say': { pointer: '/opening/1', line: 5, column: 5, says: /expected a `say` item.*no say \(keys: text\)/, fix: /- say:/ },
    'unknown-channel': {
      pointer: '/channels/0',
      line: 2,
      column: 12,
      says: /one of the channels .*got the text "whatsap"/,
      fix: /Did you mean "whatsapp"\?/,
    },
  };

  test('every invalid file has exactly its one problem, at its line and column, with a fix', () => {
    const folder = readScenarioFolder(join(FIXTURES, 'invalid'), CHANNELS);
    assert.deepEqual(
      folder.checked.map((entry) => entry.file.replace(/^.*\//, '').replace('.yaml', '')),
      Object.keys(expected),
    );
    for (const entry of folder.checked) {
      const name = entry.file.replace(/^.*\//, '').replace('.yaml', '');
      const want = expected[name]!;
      assert.equal(entry.scenario, undefined, name);
      assert.equal(entry.problems.length, 1, `${name}: ${JSON.stringify(entry.problems)}`);
      const [problem] = entry.problems;
      assert.deepEqual([problem!.pointer, problem!.line, problem!.column], [want.pointer, want.line, want.column], name);
      assert.match(problem!.message, want.says, name);
      assert.match(problem!.fix, want.fix, name);
    }
  });
});

describe('the contract’s bounds', () => {
  const withHistory = (items: number, characters = 10): string =>
    `id: a-scenario\nopening:\n  - say: hi\nhistory:\n${Array.from({ length: items }, (_, index) => `  - ${index % 2 ? 'agent' : 'person'}: "${'x'.repeat(characters)}"`).join('\n')}\n`;

  test(`history: ${MAX_HISTORY_ITEMS} items pass, ${MAX_HISTORY_ITEMS + 1} fail; an empty list fails`, () => {
    assert.deepEqual(check(withHistory(MAX_HISTORY_ITEMS)).problems, []);
    assert.equal(check(withHistory(MAX_HISTORY_ITEMS + 1)).problems.length, 1);
    assert.match(check('id: a-scenario\nhistory: []\n').problems[0]!.message, /1 to 200/);
  });

  test(`a history item: ${MAX_HISTORY_ITEM_CHARACTERS} characters pass, one more fails (characters, not bytes)`, () => {
    assert.deepEqual(check(withHistory(1, MAX_HISTORY_ITEM_CHARACTERS)).problems, []);
    assert.equal(check(withHistory(1, MAX_HISTORY_ITEM_CHARACTERS + 1)).problems.length, 1);
    const emoji = `id: a-scenario\nhistory:\n  - person: "${'☕'.repeat(MAX_HISTORY_ITEM_CHARACTERS)}"\n`;
    assert.deepEqual(check(emoji).problems, []);
  });

  test('after_ms: 0 and whole numbers pass; -1, 1.5, text and null fail', () => {
    for (const gap of ['0', '1200'])
      assert.deepEqual(check(`id: a-scenario\nopening:\n  - say: a\n  - say: b\n    after_ms: ${gap}\n`).problems, [], gap);
    for (const gap of ['-1', '1.5', '"1200"', 'null']) {
      assert.equal(check(`id: a-scenario\nopening:\n  - say: a\n  - say: b\n    after_ms: ${gap}\n`).problems.length, 1, gap);
    }
  });

  test(`after_ms: ${MAX_AFTER_MS} (10 minutes) passes; one more fails, naming the bound`, () => {
    const gap = (ms: number) => check(`id: a-scenario\nopening:\n  - say: a\n  - say: b\n    after_ms: ${ms}\n`).problems;
    assert.deepEqual(gap(MAX_AFTER_MS), []);
    assert.match(gap(MAX_AFTER_MS + 1)[0]!.message, /0 to 600000 \(10 minutes\); got number 600001/);
    assert.match(gap(1_000_000_000_000)[0]!.message, /0 to 600000/);
  });

  test('a key one typo from a key it reads is a problem with a did-you-mean, never "not checked here"', () => {
    const checked = check('id: a-scenario\nopenning:\n  - say: hi\nchanels: [sms]\n');
    assert.deepEqual(
      checked.problems.map((problem) => [problem.pointer, problem.line, problem.fix]),
      [
        ['/openning', 2, 'Did you mean "opening"?'],
        ['/chanels', 4, 'Did you mean "channels"?'],
      ],
    );
    assert.deepEqual(checked.unchecked, []);
    const gap = check('id: a-scenario\nopening:\n  - say: a\n  - say: b\n    afer_ms: 1200\n');
    assert.deepEqual(
      gap.problems.map((problem) => [problem.pointer, problem.fix]),
      [['/opening/1/afer_ms', 'Did you mean "after_ms"?']],
    );
  });

  test("aliases that expand without bound (billion laughs) are the file's problem, at the first alias; a few aliases are read", () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [index, name] of ['b', 'c', 'd', 'e', 'f'].entries())
      levels.push(`${name}: &${name} [${Array.from({ length: 9 }, () => `*${'abcde'[index]}`).join(', ')}]`);
    const bomb = check(`id: a-scenario\n${levels.join('\n')}\nopening:\n  - say: hi\n`);
    assert.deepEqual(
      bomb.problems.map((problem) => [problem.line, problem.column]),
      [[3, 8]],
    );
    assert.equal(bomb.scenario, undefined);
    const few = check('id: a-scenario\nopening:\n  - say: &hi hello\n  - say: *hi\n');
    assert.deepEqual(few.problems, []);
    assert.deepEqual(
      few.scenario!.opening.map((message) => message.say),
      ['hello', 'hello'],
    );
  });

  test('every problem of a file is told, none stops the others', () => {
    const checked = check('id: Not-The-Name\nchannels: [smss, whatsapp, whatsapp]\nopening: hi\ntimezone: Mars/Olympus\nnow: tomorrow\n');
    assert.deepEqual(
      checked.problems.map((problem) => problem.pointer),
      ['/id', '/channels/0', '/channels/2', '/opening', '/now', '/timezone'],
    );
    assert.match(checked.problems[1]!.fix, /Did you mean "sms"\?/);
  });

  test('a scenario with no channels plays on the run’s; no opening plays nothing; Flow’s own keys are not listed as unknown', () => {
    const checked = check('id: a-scenario\nperson: {persona: Sam}\nworld: busy\nexpect: {judge: [x]}\nrestart: crash\n');
    assert.deepEqual(checked.problems, []);
    assert.deepEqual(checked.unchecked, []);
    assert.equal(checked.scenario!.channels, undefined);
    assert.deepEqual(checked.scenario!.opening, []);
  });

  test('unknown keys inside an opening item are listed, not errors', () => {
    const checked = check('id: a-scenario\nopening:\n  - say: hi\n    image: photo.jpg\n');
    assert.deepEqual(checked.problems, []);
    assert.deepEqual(
      uncheckedKeys([checked]).map((entry) => entry.key),
      ['/opening/*/image'],
    );
  });

  test('an object given to the library is checked alike, with no line', () => {
    const checked = checkScenario(
      { id: 'x', channels: ['whatsapp'], opening: [{ say: 'hi', after_ms: -3 }] },
      { file: 'scenarios[0]', expectedId: undefined, locate: () => ({ line: 0, column: 0 }), channels: CHANNELS },
    );
    assert.deepEqual(
      checked.problems.map((problem) => [problem.file, problem.pointer, problem.line]),
      [['scenarios[0]', '/opening/0/after_ms', 0]],
    );
  });
});

describe('{{now …}}', () => {
  const now = new Date('2026-12-04T18:30:00Z');
  test('renders offsets and formats in the scenario’s timezone', () => {
    assert.equal(renderNowTemplates('{{now + 1d | date}}', now, 'Europe/Paris'), '2026-12-05');
    assert.equal(renderNowTemplates('{{ now | time }}', now, 'Europe/Paris'), '19:30');
    assert.equal(renderNowTemplates('{{now - 2h | datetime}}', now, 'America/New_York'), '2026-12-04 11:30');
    assert.equal(renderNowTemplates('{{now + 1w | weekday}}', now), 'Friday');
    assert.equal(renderNowTemplates('at {{now}}', now, 'Asia/Kolkata'), 'at 2026-12-05T00:00:00+05:30');
    assert.equal(renderNowTemplates('{{now + 30m}}', now), '2026-12-04T19:00:00+00:00');
  });
  test('a template it cannot read is named, not rendered', () => {
    assert.deepEqual(
      nowTemplates('{{now + 1 day}}').unreadable.map((span) => span.text),
      ['{{now + 1 day}}'],
    );
    const checked = check('id: a-scenario\nnow: 2026-12-04T18:30:00Z\nopening:\n  - say: "{{ now + tomorrow }}"\n');
    assert.match(checked.problems[0]!.message, /not a template this checker can render/);
  });
});

describe('reading a folder', () => {
  test('a missing folder, a file for a folder: a clear error', () => {
    assert.throws(
      () => readScenarioFolder(join(FIXTURES, 'nowhere'), CHANNELS),
      (error: unknown) => error instanceof ScenarioFolderError && /does not exist/.test(error.message),
    );
    assert.throws(() => readScenarioFolder(join(FIXTURES, 'valid/latte-correction.yaml'), CHANNELS), /is not a folder/);
  });

  test('a FIFO, a file over 1 MiB, a *.yml file: named, never read whole or waited on', () => {
    const folder = mkdtempSync(join(tmpdir(), 'scenarios-'));
    try {
      execFileSync('mkfifo', [join(folder, 'pipe.yaml')]);
      writeFileSync(join(folder, 'huge.yaml'), `id: huge\n#${'x'.repeat(MAX_SCENARIO_FILE_BYTES)}\n`);
      writeFileSync(join(folder, 'short.yml'), 'id: short\n');
      writeFileSync(join(folder, 'fine.yaml'), '\uFEFFid: fine\n');
      const read = readScenarioFolder(folder, CHANNELS);
      assert.deepEqual(
        read.checked.map((entry) => [entry.file.replace(/^.*\//, ''), entry.problems.map((problem) => problem.message)]),
        [
          ['fine.yaml', []],
          ['huge.yaml', [`expected a scenario file of at most 1 MiB; it has ${(MAX_SCENARIO_FILE_BYTES + 11).toLocaleString('en')} bytes`]],
          ['pipe.yaml', ['expected a regular file of at most 1 MiB; it is a named pipe (FIFO); give a regular file']],
        ],
      );
      assert.deepEqual(read.ignored, [join(folder, 'short.yml')]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
