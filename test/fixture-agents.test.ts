import assert from 'node:assert/strict';
import { servedDuring } from './served-during.js';
import { describe, test } from 'node:test';
import { checkEndpoint } from '../src/index.js';
import { BROKEN_AGENTS, type FixtureAgent, VALID_AGENTS } from '../fixtures/agents/catalogue.js';
import { barrier } from '../fixtures/agents/barrier.js';
// For its side effect: a proxy set on the machine does not carry the suite's loopback requests.
import './helpers.js';
import { CHANNELS, FIXED_CASE_IDS } from './contract-ids.js';
import { EXTENDED_CASE_IDS } from '../src/cases/registry.js';

function withAgent(agent: FixtureAgent): { url: () => string } {
  return servedDuring(() => agent.handler);
}

describe('valid fixture agents pass every case on every channel', () => {
  for (const agent of VALID_AGENTS) {
    describe(agent.name, () => {
      const served = withAgent(agent);
      test('passes', async () => {
        const report = await checkEndpoint(served.url(), { channels: ['all'] });
        assert.equal(
          report.outcome,
          'passed',
          JSON.stringify(
            report.cases.flatMap((c) => c.findings),
            null,
            2,
          ),
        );
        assert.equal(report.exitCode, 0);
        assert.equal(report.counts.cases, CHANNELS.length * FIXED_CASE_IDS.length);
        assert.equal(report.counts.passed, CHANNELS.length * FIXED_CASE_IDS.length);
        assert.equal(report.counts.errors, 0);
        if (agent.name === 'reference' || agent.name === 'plain-text') assert.equal(report.counts.warnings, 0);
      });
      test('passes the extended cases too, on every channel', async () => {
        const report = await checkEndpoint(served.url(), { channels: ['all'], extended: true });
        assert.equal(report.outcome, 'passed', JSON.stringify(report.cases.flatMap((c) => c.findings)));
        assert.equal(report.counts.cases, CHANNELS.length * (FIXED_CASE_IDS.length + EXTENDED_CASE_IDS.length));
        assert.equal(report.counts.errors, 0);
        if (agent.name === 'reference' || agent.name === 'plain-text') assert.equal(report.counts.warnings, 0);
      });
    });
  }

  describe('silent', () => {
    const served = withAgent(VALID_AGENTS.find((agent) => agent.name === 'silent')!);
    test('warns, with rule silent, exactly on the typed messages that deserve a reply', async () => {
      const report = await checkEndpoint(served.url(), { channels: ['whatsapp'] });
      const warned = report.cases.flatMap((c) => c.findings.map((f) => `${c.id}/${f.turn}:${f.rule}:${f.severity}`)).sort();
      assert.deepEqual(warned, [
        'button-tap/0:silent:warning',
        'double-text/0:silent:warning',
        'double-text/1:silent:warning',
        'typed/0:silent:warning',
      ]);
      assert.equal(report.exitCode, 0);
    });
    test('fails under strict', async () => {
      const report = await checkEndpoint(served.url(), { channels: ['whatsapp'], strict: true });
      assert.equal(report.exitCode, 1);
      assert.deepEqual(
        report.cases
          .filter((c) => !c.passed)
          .map((c) => c.id)
          .sort(),
        ['button-tap', 'double-text', 'typed'],
      );
    });
  });
});

describe('each broken fixture agent fails exactly its case and rule, and nothing else', () => {
  for (const agent of BROKEN_AGENTS) {
    const { channel, case: caseId, rule } = agent.breaks!;
    describe(agent.name, () => {
      const served = withAgent(agent);
      test(`fails ${channel}/${caseId} with rule ${rule}`, async () => {
        // With the extended cases too: a defect shows in its own case only, whichever group that is.
        const report = await checkEndpoint(served.url(), { channels: [channel], extended: true, ...agent.checkOptions });
        assert.equal(report.exitCode, 1);
        assert.deepEqual(
          report.cases.filter((c) => !c.passed).map((c) => `${c.channel}/${c.id}`),
          [`${channel}/${caseId}`],
        );
        const found = new Set(report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}/${c.id}:${f.rule}`)));
        assert.deepEqual([...found], [`${channel}/${caseId}:${rule}`]);
        const failed = report.cases.find((c) => !c.passed)!;
        for (const finding of failed.findings) {
          assert.ok(finding.message.length > 10, 'a finding says what was expected and what came');
          assert.equal(typeof finding.path, 'string');
          assert.ok(finding.path === '' || finding.path.startsWith('/'), `a JSON pointer: ${finding.path}`);
        }
      });
    });
  }
});

describe('the barrier the overlapping fixture agents wait at', () => {
  test('a full group goes on together; a wait with no group ends by the fallback, is counted, and leaves the group', async () => {
    const pair = barrier(2, 50);
    const counts = () => ({ released: pair.released, fellBack: pair.fellBack });
    await Promise.all([pair.arrive(), pair.arrive()]);
    assert.deepEqual(counts(), { released: 2, fellBack: 0 });
    await pair.arrive();
    assert.deepEqual(counts(), { released: 2, fellBack: 1 });
    await Promise.all([pair.arrive(), pair.arrive()]);
    assert.deepEqual(counts(), { released: 4, fellBack: 1 }, 'the next two form a group of their own');
  });
});
