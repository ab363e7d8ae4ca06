/**
 * Replies the schema step did not validate are never measured: a reply past the flood of broken
 * replies that are explained is "not checked", not "assumed valid". Through the library, the
 * `validate` command and a live check of an agent that answers so.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import type { AgentRequest, Finding } from '../src/index.js';
import { MAX_FINDINGS, bundledContract, checkEndpoint, validateAnswer } from '../src/index.js';
import { answer, limit, message, rulesOf } from './answer-helpers.js';
import { runCli } from './helpers.js';

const broken = (count: number) => Array.from({ length: count }, () => ({ type: 'nope' }));

/** The two answers that once crashed the checker or made up a finding: 50 broken replies, then one broken in a way the platform checks would trip on. */
const HOSTILE: Record<string, unknown> = {
  'a list without sections': answer(...broken(50), message({ text: 'x', list: {} })),
  'a text that is a number': answer(...broken(50), message({ text: 7 })),
};

const FLOOD = 'more than 49 replies do not match the schema; the first 49 are described, the rest were not checked';

/** The rules of the findings, and of those a left-out line counts (`2 more findings (schema, platform) are left out`). */
function rulesOfFindings(findings: readonly Pick<Finding, 'rule' | 'message'>[]): string[] {
  const counted = findings.flatMap(
    (finding) => /^\d+ more findings \(([^)]*)\) are left out/.exec(finding.message)?.[1]?.split(', ') ?? [],
  );
  return [...new Set([...findings.map((finding) => finding.rule), ...counted])];
}

describe('replies past the flood of broken replies are not checked', () => {
  for (const [what, body] of Object.entries(HOSTILE)) {
    test(`50 broken replies and then ${what}: schema findings only, the flood closed by a line that says the last reply was not checked`, () => {
      const findings = validateAnswer(body, { channel: 'whatsapp' });
      assert.equal(findings.length, MAX_FINDINGS);
      assert.deepEqual(rulesOfFindings(findings), ['schema']);
      const flood = findings.filter((finding) => finding.path === '/replies');
      assert.deepEqual(
        flood.map((finding) => [finding.message, finding.hint]),
        [[FLOOD, 'The replies after /replies/49 were not checked at all. Fix the ones shown and check again.']],
      );
      assert.ok(!findings.some((finding) => finding.path.startsWith('/replies/50')), 'nothing is said of the reply that was not checked');
    });
  }

  const max = limit(rulesOf('whatsapp').text?.maxLength, 'WhatsApp text limit');
  const tooLong = message({ text: 'a'.repeat(max + 1) });

  test('49 broken replies: the reply after them is still checked, and measured', () => {
    const findings = validateAnswer(answer(...broken(49), tooLong), { channel: 'whatsapp' });
    assert.ok(findings.some((finding) => finding.rule === 'platform' && finding.path === '/replies/49/text'));
    assert.ok(!findings.some((finding) => finding.path === '/replies'), 'no flood: every broken reply is described');
  });

  test('50 broken replies: the reply after them is not checked, and the closing line names where checking stopped', () => {
    const findings = validateAnswer(answer(...broken(50), tooLong), { channel: 'whatsapp' });
    assert.deepEqual(rulesOfFindings(findings), ['schema']);
    assert.equal(
      findings.find((finding) => finding.path === '/replies')?.hint,
      'The replies after /replies/49 were not checked at all. Fix the ones shown and check again.',
    );
  });

  test('the 50th broken reply as the last one: the closing line names no unchecked replies', () => {
    const findings = validateAnswer(answer(...broken(50)), { channel: 'whatsapp' });
    assert.equal(findings.find((finding) => finding.path === '/replies')?.hint, 'Fix the ones shown and check again.');
  });

  test('a valid reply before the flood is measured', () => {
    const findings = validateAnswer(answer(tooLong, ...broken(60)), { channel: 'whatsapp' });
    assert.ok(findings.some((finding) => finding.rule === 'platform' && finding.path === '/replies/0/text'));
  });

  test('a broken reply whose errors are left out of the description is still not measured', () => {
    // The first reply's 60 unknown properties fill the findings: the second reply's errors are not described.
    const crowded: Record<string, unknown> = { type: 'message', text: 'x' };
    for (let index = 0; index < 60; index++) crowded[`extra${index}`] = 1;
    for (const last of [message({ text: 'x', list: {} }), message({ text: 7 })]) {
      const findings = validateAnswer(answer(crowded, last), { channel: 'whatsapp' });
      // The note that counts what was left out takes no rule of its own, and counts schema findings only.
      assert.deepEqual(rulesOfFindings(findings), ['schema', 'left-out']);
      assert.deepEqual(Object.keys(findings.at(-1)!.leftOut ?? {}), ['schema']);
      assert.ok(!findings.some((finding) => finding.path.startsWith('/replies/1')), JSON.stringify(findings.slice(-2)));
    }
  });
});

describe('check-endpoint validate on those answers', () => {
  let tmp = '';
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-unchecked-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  for (const [what, body] of Object.entries(HOSTILE)) {
    test(`50 broken replies and then ${what}: exit 1 with schema findings, no internal error, no platform finding`, async () => {
      const file = join(tmp, 'answer.json');
      writeFileSync(file, JSON.stringify(body));
      const result = await runCli(['validate', file, '--channel', 'whatsapp', '--json']);
      assert.equal(result.code, 1, result.stderr);
      assert.doesNotMatch(result.stderr, /internal error/);
      const report = JSON.parse(result.stdout) as { results: { channel: string; valid: boolean; findings: Finding[] }[] };
      assert.deepEqual(
        report.results.map((entry) => [entry.channel, entry.valid, rulesOfFindings(entry.findings)]),
        [['whatsapp', false, ['schema']]],
      );
      assert.ok(report.results[0]!.findings.some((finding) => finding.message === FLOOD));
    });
  }
});

describe('a live check of an agent that answers so', () => {
  const contract = bundledContract();
  for (const [what, body] of Object.entries(HOSTILE)) {
    describe(`50 broken replies and then ${what}, in answer to the typed question`, () => {
      let agent: RunningAgent | undefined;
      before(async () => {
        agent = await serveAgent((request: AgentRequest) =>
          request.message.text.toLowerCase().includes('open today') ? body : referenceAnswer(request, contract.platforms[request.channel]),
        );
      });
      after(() => agent?.close());

      test('that case fails with schema findings; every other case passes', async () => {
        const report = await checkEndpoint(agent!.url, { channels: ['whatsapp'] });
        assert.equal(report.exitCode, 1);
        assert.deepEqual(
          report.cases.filter((entry) => !entry.passed).map((entry) => `${entry.channel}/${entry.id}`),
          ['whatsapp/typed'],
        );
        const typed = report.cases.find((entry) => entry.id === 'typed')!;
        assert.deepEqual(rulesOfFindings(typed.findings), ['schema']);
        assert.ok(typed.findings.some((finding) => finding.message === FLOOD));
        assert.ok(report.cases.filter((entry) => entry.id !== 'typed').every((entry) => entry.passed && entry.findings.length === 0));
      });
    });
  }
});
