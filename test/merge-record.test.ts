/**
 * The record after a partial run (src/report/merge-record.ts): its counts and its verdict are the
 * ones a run of every recorded case would have (src/run/verdict.ts), a case kept unplayed included.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CaseStatus } from '../src/core/report.js';
import { LAST_RUN_FORMAT_VERSION, type LastRun, type LastRunCase } from '../src/report/last-run-shape.js';
import { mergeRecords } from '../src/report/merge-record.js';

function recordedCase(name: string, status: CaseStatus): LastRunCase {
  const failed = status === 'failed';
  return {
    case: name,
    channel: 'whatsapp',
    status,
    label: status === 'passed' ? 'passing' : status === 'not-run' ? 'not-run' : 'failing',
    expected: false,
    runs: 1,
    passedRuns: status === 'passed' ? 1 : 0,
    turns: status === 'not-run' ? 0 : 1,
    rules: failed ? ['schema'] : [],
    findings: failed ? [{ rule: 'schema', severity: 'error', path: '/replies', message: 'expected an array', hint: null, turn: 0 }] : [],
  };
}

function record(finishedAt: string, cases: LastRunCase[], outcome: LastRun['outcome'], exitCode: LastRun['exitCode']): LastRun {
  return {
    version: LAST_RUN_FORMAT_VERSION,
    tool: { name: 'check-endpoint', version: '0.1.0' },
    target: 'http://127.0.0.1:8080/agent',
    finishedAt,
    outcome,
    exitCode,
    error: null,
    stopped: null,
    runs: 1,
    channels: [{ name: 'whatsapp', title: 'WhatsApp', limits: 'spec' }],
    counts: { cases: cases.length, passed: 0, failed: 0, notRun: 0, errors: 0, warnings: 0 },
    cases,
  };
}

test('a partial run that fixed its case: the merged record passes when every kept case passed, and fails while one kept was never played', () => {
  const now = record('2026-12-07T12:00:00.000Z', [recordedCase('typed', 'passed')], 'passed', 0);
  const keptPassing = mergeRecords(
    record('2026-12-07T11:00:00.000Z', [recordedCase('typed', 'failed'), recordedCase('button-tap', 'passed')], 'failed', 1),
    now,
  );
  assert.deepEqual([keptPassing.outcome, keptPassing.exitCode], ['passed', 0]);
  assert.deepEqual(keptPassing.counts, { cases: 2, passed: 2, failed: 0, notRun: 0, errors: 0, warnings: 0 });

  const keptUnplayed = mergeRecords(
    record('2026-12-07T11:00:00.000Z', [recordedCase('typed', 'failed'), recordedCase('button-tap', 'not-run')], 'failed', 1),
    now,
  );
  assert.deepEqual([keptUnplayed.outcome, keptUnplayed.exitCode], ['failed', 1], 'button-tap was never played: nothing says it passes');
  assert.deepEqual(keptUnplayed.counts, { cases: 2, passed: 1, failed: 0, notRun: 1, errors: 0, warnings: 0 });
  assert.equal(keptUnplayed.cases.find((kept) => kept.case === 'button-tap')?.playedAt, '2026-12-07T11:00:00.000Z');
});

test('a partial run that still fails: the merged record fails, counting the kept findings', () => {
  const merged = mergeRecords(
    record('2026-12-07T11:00:00.000Z', [recordedCase('typed', 'failed'), recordedCase('button-tap', 'failed')], 'failed', 1),
    record('2026-12-07T12:00:00.000Z', [recordedCase('typed', 'passed')], 'passed', 0),
  );
  assert.deepEqual([merged.outcome, merged.exitCode], ['failed', 1]);
  assert.deepEqual(merged.counts, { cases: 2, passed: 1, failed: 1, notRun: 0, errors: 1, warnings: 0 });
});
