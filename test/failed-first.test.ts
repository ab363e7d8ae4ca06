/**
 * --failed-first (pytest's --ff), which every --watch run uses: every case is played, those the
 * last run left to play again first; the report keeps its own order. Against a real agent that
 * breaks the photo case and notes the order the conversations come in (one at a time:
 * --concurrency 1).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundledContract } from '../src/contract/load-contract.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { runCli } from './helpers.js';

const { platforms } = bundledContract();

describe('--failed-first', () => {
  const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-failed-first-'));
  /** Each conversation's case, in the order its first turn came. */
  let arrived: string[] = [];
  let agent: RunningAgent;

  before(async () => {
    agent = await serveAgent((request) => {
      const testCase = request.conversationId.split('.')[1]!;
      if (!arrived.includes(testCase)) arrived.push(testCase);
      const answer = referenceAnswer(request, Object.hasOwn(platforms, request.channel) ? platforms[request.channel] : undefined);
      return testCase === 'photo' ? { replies: [{ type: 'message', text: 'Nice photo!', image: null }] } : answer;
    });
  });
  after(async () => {
    await agent.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('with no run recorded: the usual order, and it says so', async () => {
    arrived = [];
    const run = await runCli([agent.url, '--concurrency', '1', '--failed-first'], { cwd: folder });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /^--failed-first: no run is recorded in this folder yet: playing in the usual order$/m);
    assert.deepEqual(arrived, ['typed', 'double-text', 'photo', 'button-tap', 'no-reply']);
  });

  test('after a run where photo failed: photo first, then the rest; the case lines in the report order', async () => {
    arrived = [];
    const run = await runCli([agent.url, '--concurrency', '1', '--failed-first'], { cwd: folder });
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      /^--failed-first: playing first the 1 of 5 cases that did not pass in the last run \(.+, \.check-endpoint\/last-run\.json\): whatsapp\/photo$/m,
    );
    assert.deepEqual(arrived, ['photo', 'typed', 'double-text', 'button-tap', 'no-reply']);
    const caseLines = run.stdout.split('\n').filter((line) => /^(PASS|FAIL) /.test(line));
    assert.deepEqual(
      caseLines.map((line) => line.split(/\s+/)[1]),
      ['typed', 'double-text', 'photo', 'button-tap', 'no-reply'],
    );
  });

  test('a run narrower than the last: only what it plays goes first, and what it does not play is named as not in this run', async () => {
    const both = await runCli([agent.url, '--channel', 'whatsapp', '--channel', 'sms'], { cwd: folder });
    assert.equal(both.code, 1, both.stderr);
    arrived = [];
    const narrower = await runCli([agent.url, '--concurrency', '1', '--failed-first', '--channel', 'whatsapp'], { cwd: folder });
    assert.equal(narrower.code, 1, narrower.stderr);
    assert.match(
      narrower.stdout,
      /^--failed-first: playing first the 1 of 10 cases that did not pass in the last run \(.+\): whatsapp\/photo \(not in this run: sms\/photo\)$/m,
    );
    assert.equal(arrived[0], 'photo');
    // That run's record keeps the whole run (the narrower run merged into it): photo failed on both channels. A run of typed alone plays none of it.
    const typedOnly = await runCli([agent.url, '--failed-first', '--case', 'typed'], { cwd: folder });
    assert.equal(typedOnly.code, 0, typedOnly.stderr);
    assert.match(
      typedOnly.stdout,
      /^--failed-first: none of the 2 of 10 cases that did not pass in the last run \(.+\) is in this run \(not in this run: whatsapp\/photo, sms\/photo\): playing in the usual order$/m,
    );
  });

  test('after a run where every case passed: the usual order, and it says so', async () => {
    // A folder of its own: in this one, the record keeps the failed photo cases of the runs above.
    const clean = mkdtempSync(join(tmpdir(), 'check-endpoint-failed-first-passed-'));
    after(() => rmSync(clean, { recursive: true, force: true }));
    const passed = await runCli([agent.url, '--skip-case', 'photo'], { cwd: clean });
    assert.equal(passed.code, 0, passed.stdout);
    arrived = [];
    const run = await runCli([agent.url, '--concurrency', '1', '--failed-first', '--skip-case', 'photo'], { cwd: clean });
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stdout, /^--failed-first: every case of the last run \(.+\) passed: playing in the usual order$/m);
    assert.deepEqual(arrived, ['typed', 'double-text', 'button-tap', 'no-reply']);
  });

  test('with --failed, which plays only those: exit 2, saying to give one of them', async () => {
    const run = await runCli([agent.url, '--failed', '--failed-first'], { cwd: folder });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--failed-first plays every case, --failed only those that did not pass: give one of them/);
  });
});
