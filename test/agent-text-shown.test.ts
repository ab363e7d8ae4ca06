/**
 * Agent text is shown, never obeyed: a right-to-left override (U+202E), a zero-width space
 * (U+200B) and the other invisible or control characters an agent writes reach the terminal, the
 * annotations and the step summary as escapes (`\u202e`), while the JSON report keeps the exact
 * value. Emoji that are drawn as one sign with a joiner, a variation selector or tags stay as they are.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { printable } from '../src/report/text.js';
import { type RawServer, startRawServer, writeAnswer } from './raw-http-server.js';
import { runCli } from './helpers.js';

describe('printable', () => {
  test('bidi controls, zero-width and other default-ignorable characters become escapes', () => {
    assert.equal(printable('pay \u202Eexe.txt'), 'pay \\u202eexe.txt');
    assert.equal(printable('zero\u200Bwidth'), 'zero\\u200bwidth');
    assert.equal(printable('a\u2066b\u2069 \u200E\u200F \u061C'), 'a\\u2066b\\u2069 \\u200e\\u200f \\u061c');
    assert.equal(printable('\uFEFFsoft\u00ADhyphen'), '\\ufeffsoft\\u00adhyphen');
    assert.equal(printable('tag\u{E0041}'), 'tag\\u{e0041}');
    assert.equal(printable('\u200Dalone'), '\\u200dalone');
    assert.equal(printable('line\nbreak \u001b[31mred'), 'line\\u000abreak \\u001b[31mred');
  });
  test('emoji drawn as one sign are kept: a joiner between pictographs, a variation selector, a flag’s tags', () => {
    for (const emoji of ['👩\u200D💻', '❤\uFE0F', '👍🏽', '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}', 'café 😊'])
      assert.equal(printable(emoji), emoji);
  });
});

describe('an agent whose reply holds U+202E and U+200B', () => {
  const TEXT = 'Your order: **latte** \u202Eexe.gpj\u202C and\u200Bmore';
  const INVISIBLE = /[\u202E\u202C\u200B]/u;
  let server: RawServer;
  let dir = '';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agent-text-'));
    server = await startRawServer((request, socket) => {
      const answer = { replies: [{ type: 'message', text: TEXT }] };
      writeAnswer(socket, request, request.method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(JSON.stringify(answer)));
    });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the terminal, the annotations and the step summary show escapes; the JSON report keeps the text', async () => {
    const summary = join(dir, 'summary.md');
    const args = [server.url, '--channel', 'sms', '--case', 'typed'];
    const result = await runCli(args, {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, FLOW_FRAMEWORK_AGENT_TOKEN: undefined },
      cwd: dir,
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const printed = result.stdout + result.stderr;
    // SMS shows **latte** as typed (a warning): the finding's reply excerpt holds the override and the zero-width space, escaped.
    assert.match(printed, /\\u202eexe\.gpj\\u202c and\\u200bmore/);
    assert.doesNotMatch(printed, INVISIBLE);
    assert.ok(
      printed.split('\n').some((line) => line.startsWith('::')),
      printed,
    );
    const written = readFileSync(summary, 'utf8');
    assert.doesNotMatch(written, INVISIBLE);

    const json = await runCli([...args, '--json'], { env: { FLOW_FRAMEWORK_AGENT_TOKEN: undefined }, cwd: dir });
    const report = JSON.parse(json.stdout) as { cases: { turns: { answer: { replies: { text: string }[] } }[] }[] };
    assert.equal(report.cases[0]!.turns[0]!.answer.replies[0]!.text, TEXT);
  });
});
