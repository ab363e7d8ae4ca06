/**
 * An agent as CI runs it: one that starts late (--wait), one that dies mid-run (one finding, the
 * rest not run), and a run interrupted by a signal (what finished is kept). Real agents on
 * 127.0.0.1; the library's checkEndpoint, as the command calls it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CaseReport, type Report, checkEndpoint } from '../src/index.js';
import { createAjv } from '../src/contract/ajv.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { ROOT, freePort } from './helpers.js';
import { renderJunit } from '../src/report/junit.js';
import { renderHtmlReport } from '../src/report/html.js';
import { FIXED_CASE_IDS } from './contract-ids.js';

const validateReport = createAjv().compile(JSON.parse(readFileSync(join(ROOT, 'spec/report.schema.json'), 'utf8')));

const platforms = bundledContract().platforms;
const answer = (request: Parameters<typeof referenceAnswer>[0]) =>
  referenceAnswer(request, Object.hasOwn(platforms, request.channel) ? platforms[request.channel] : undefined);

function byStatus(report: Report): Record<CaseReport['status'], string[]> {
  const groups: Record<CaseReport['status'], string[]> = { passed: [], failed: [], 'not-run': [] };
  for (const caseReport of report.cases) groups[caseReport.status].push(`${caseReport.channel}/${caseReport.id}`);
  return groups;
}

describe('--wait: an agent that starts late', () => {
  test('one that listens only after 2 s passes with waitSeconds 10', async () => {
    const port = await freePort();
    let agent: RunningAgent | undefined;
    const late = setTimeout(async () => {
      agent = await startReferenceAgent({ port });
    }, 2000);
    try {
      const report = await checkEndpoint(`http://127.0.0.1:${port}/agent`, { waitSeconds: 10 });
      assert.equal(report.outcome, 'passed', JSON.stringify(report.error));
      assert.equal(report.counts.passed, FIXED_CASE_IDS.length);
    } finally {
      clearTimeout(late);
      await agent?.close();
    }
  });

  test('without it, nothing listening is the error it always was; with it, the message says how long it waited', async () => {
    const url = `http://127.0.0.1:${await freePort()}/agent`;
    const once = await checkEndpoint(url);
    assert.equal(once.outcome, 'error');
    assert.equal(once.error?.message, `Could not reach your agent at ${url}: connection refused`);
    const waited = await checkEndpoint(url, { waitSeconds: 0.5 });
    assert.equal(waited.exitCode, 2);
    assert.equal(waited.error?.message, `Could not reach your agent at ${url} after waiting 0.5 s: connection refused`);
  });
});

describe('a dead agent is one finding, not twenty', () => {
  /** The reference agent, until a photo comes: then it stops listening and drops every connection. */
  async function diesOnPhoto(): Promise<RunningAgent> {
    const agent: RunningAgent = await serveAgent((request, raw) => {
      if (request.message.attachments?.some((attachment) => attachment.kind === 'image')) {
        void agent.close();
        raw.socket.destroy();
        return new Promise(() => {});
      }
      return answer(request);
    });
    return agent;
  }

  test('one case at a time: the photo case fails with status, naming the stop; the cases after it are not run', async () => {
    const agent = await diesOnPhoto();
    try {
      const report = await checkEndpoint(agent.url, { concurrency: 1 });
      assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
      assert.deepEqual(byStatus(report), {
        passed: ['whatsapp/typed', 'whatsapp/double-text'],
        failed: ['whatsapp/photo'],
        'not-run': ['whatsapp/button-tap', 'whatsapp/no-reply'],
      });
      const photo = report.cases.find((caseReport) => caseReport.id === 'photo')!;
      assert.equal(photo.findings.length, 1);
      assert.equal(photo.findings[0]!.rule, 'status');
      assert.match(photo.findings[0]!.message, /^expected an HTTP answer with status 200; got none: the agent stopped answering \(/);
      assert.equal(report.outcome, 'failed');
      assert.equal(report.exitCode, 1);
      assert.deepEqual(report.counts, { cases: 5, passed: 2, failed: 1, notRun: 2, errors: 1, warnings: 0 });
      assert.equal(report.stopped?.reason, 'agent-stopped');
    } finally {
      await agent.close();
    }
  });

  test('every channel at once: still exactly one failure, every other case passed or not run', async () => {
    const agent = await diesOnPhoto();
    try {
      const report = await checkEndpoint(agent.url, { channels: ['all'] });
      const groups = byStatus(report);
      assert.equal(groups.failed.length, 1, JSON.stringify(groups));
      assert.match(groups.failed[0]!, /\/photo$/);
      assert.ok(groups['not-run'].length > 0);
      assert.equal(report.counts.errors, 1);
      assert.equal(report.exitCode, 1);
    } finally {
      await agent.close();
    }
  });

  test('an agent that drops one request but still answers is judged as before: a status failure, nothing cut short', async () => {
    const agent = await serveAgent((request, raw) => {
      if (request.message.text.startsWith('hi, what time')) {
        raw.socket.destroy();
        return new Promise(() => {});
      }
      return answer(request);
    });
    try {
      const report = await checkEndpoint(agent.url);
      assert.deepEqual(byStatus(report), {
        passed: ['whatsapp/double-text', 'whatsapp/photo', 'whatsapp/button-tap', 'whatsapp/no-reply'],
        failed: ['whatsapp/typed'],
        'not-run': [],
      });
      assert.doesNotMatch(report.cases[0]!.findings[0]!.message, /stopped answering/);
      assert.equal(report.stopped, null);
    } finally {
      await agent.close();
    }
  });
});

test('a quality case that kills the agent is an error of that case, not a warning', async () => {
  const agent: RunningAgent = await serveAgent(answer, {
    onBodyNotJson: () => {
      void agent.close();
      throw new Error('the agent crashed on a body that is not JSON');
    },
  });
  try {
    const report = await checkEndpoint(agent.url, { quality: true });
    const malformed = report.cases.find((caseReport) => caseReport.id === 'quality/malformed')!;
    assert.equal(malformed.status, 'failed');
    assert.deepEqual(
      malformed.findings.map((finding) => [finding.rule, finding.severity]),
      [['status', 'error']],
    );
    assert.equal(report.stopped?.reason, 'agent-stopped');
    assert.ok(
      report.cases.filter((caseReport) => caseReport.id.startsWith('quality/')).some((caseReport) => caseReport.status === 'not-run'),
    );
  } finally {
    await agent.close();
  }
});

describe('an interrupted run keeps what finished', () => {
  for (const [signalName, exitCode] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    test(`${signalName}: nothing new is sent, the turn in flight is aborted, exit code ${exitCode}`, async () => {
      let received = 0;
      let abortAfterFirst: () => void = () => {};
      const firstArrived = new Promise<void>((resolve) => (abortAfterFirst = resolve));
      const agent = await serveAgent((request) => {
        received++;
        if (request.message.text.startsWith('hi, what time')) return answer(request);
        abortAfterFirst();
        return new Promise(() => {}); // thinks forever
      });
      const controller = new AbortController();
      void firstArrived.then(() => controller.abort(signalName));
      try {
        const report = await checkEndpoint(agent.url, { concurrency: 1, signal: controller.signal });
        assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
        assert.equal(report.outcome, 'interrupted');
        assert.equal(report.exitCode, exitCode);
        assert.deepEqual(byStatus(report), {
          passed: ['whatsapp/typed'],
          failed: [],
          'not-run': ['whatsapp/double-text', 'whatsapp/photo', 'whatsapp/button-tap', 'whatsapp/no-reply'],
        });
        assert.deepEqual(report.stopped, { reason: 'interrupted', message: `the run was interrupted by ${signalName}` });
        assert.equal(received, 2, 'the typed case, then the first message in flight; nothing after the signal');
        const junit = renderJunit(report, { startedAt: new Date() });
        assert.equal(junit.match(/<skipped message="not run/g)?.length, 4);
        const page = renderHtmlReport(report);
        assert.match(page, /Not run/);
        assert.ok(page.includes(`1 of 5 cases finished before the run was interrupted by ${signalName}.`));
      } finally {
        await agent.close();
      }
    });
  }
});
