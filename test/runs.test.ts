/**
 * --runs: every case played N times on every channel, each play its own conversation; a case
 * passes only when every play does. Against the reference agent (always valid) and an agent that
 * breaks a limit in about a third of its answers, by a fixed-seed hash (fixtures/agents/flaky.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { breaksOn, flakyAnswer } from '../fixtures/agents/flaky.js';
import { createAjv } from '../src/contract/ajv.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { type CaseReport, type Report, checkEndpoint } from '../src/index.js';
import { renderJunit } from '../src/report/junit.js';
import { renderHtmlReport } from '../src/report/html.js';
import { CLI, ROOT, runCli, runCommand } from './helpers.js';
import { progressLine } from '../src/commands/progress.js';
import { CHANNELS } from './contract-ids.js';

const validateReport = createAjv().compile(JSON.parse(readFileSync(join(ROOT, 'spec/report.schema.json'), 'utf8')));

let reference: RunningAgent;
let flaky: RunningAgent;
before(async () => {
  reference = await startReferenceAgent();
  flaky = await serveAgent(flakyAnswer);
});
after(async () => {
  await Promise.all([reference.close(), flaky.close()]);
});

/** The plays that must fail: those in which the agent broke the limit on some turn. */
function expectedPassedRuns(caseReport: CaseReport): number {
  return caseReport.plays.filter((play) => !play.turns.some((turn) => breaksOn(play.conversationId, turn.messageId))).length;
}

describe('--runs N', () => {
  test('the reference agent is passing with --runs 5 on every channel: five conversations per case, each its own', async () => {
    const report = await checkEndpoint(reference.url, { channels: ['all'], runs: 5 });
    assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
    assert.equal(report.runs, 5);
    assert.equal(report.outcome, 'passed');
    for (const caseReport of report.cases) {
      assert.deepEqual([caseReport.label, caseReport.runs, caseReport.passedRuns], ['passing', 5, 5], caseReport.id);
      assert.deepEqual(
        caseReport.plays.map((play) => play.conversationId.replace(/chk_[0-9a-f]{8}/, 'chk_x')),
        [1, 2, 3, 4, 5].map((play) => `${caseReport.channel}:chk_x.${caseReport.id}.${play}`),
      );
      assert.match(caseReport.conversationId, new RegExp(`^${caseReport.channel}:chk_[0-9a-f]{8}\\.${caseReport.id}\\.\\*$`));
    }
    const messageIds = report.cases.flatMap((caseReport) => caseReport.plays.flatMap((play) => play.turns.map((turn) => turn.messageId)));
    assert.equal(new Set(messageIds).size, messageIds.length, 'every message id of the run is its own');
  });

  test('an always-valid agent passes with --runs 10', async () => {
    const report = await checkEndpoint(reference.url, { runs: 10 });
    assert.deepEqual(
      report.cases.map((caseReport) => caseReport.label),
      ['passing', 'passing', 'passing', 'passing', 'passing'],
    );
    assert.equal(
      report.cases.reduce((sum, caseReport) => sum + caseReport.plays.length, 0),
      50,
    );
  });

  test('an agent that breaks a limit a third of the time: flaky or failing exactly as its share says, with the counts', async () => {
    const report: Report = await checkEndpoint(flaky.url, { channels: ['all'], runs: 6 });
    assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
    const labels = new Set<string>();
    for (const caseReport of report.cases) {
      const passedRuns = expectedPassedRuns(caseReport);
      const label = passedRuns === 6 ? 'passing' : passedRuns === 0 ? 'failing' : 'flaky';
      labels.add(label);
      assert.deepEqual([caseReport.passedRuns, caseReport.label], [passedRuns, label], `${caseReport.channel}/${caseReport.id}`);
      assert.equal(caseReport.passed, label === 'passing');
      for (const play of caseReport.plays) {
        const broke = play.turns.some((turn) => breaksOn(play.conversationId, turn.messageId));
        assert.equal(play.passed, !broke, play.conversationId);
        if (broke)
          assert.ok(
            play.findings.every((finding) => finding.rule === 'platform'),
            JSON.stringify(play.findings),
          );
      }
      const failedPlays = 6 - passedRuns;
      // The platform finding is said once for the case, counting the plays that had it.
      const counted = caseReport.findings.filter((finding) => finding.rule === 'platform' && finding.severity === 'error');
      if (failedPlays > 0) assert.equal(counted.reduce((sum, finding) => sum + (finding.plays ?? 0), 0) >= failedPlays, true);
    }
    assert.ok(labels.has('flaky'), `some case is flaky (${[...labels].join(', ')})`);
    assert.equal(report.exitCode, 1);
    const page = renderHtmlReport(report);
    for (const caseReport of report.cases) assert.ok(page.includes(`<span class="pass-rate">${caseReport.passedRuns}/6</span>`));
    assert.match(page, /Play 1 of 6: /);
    assert.match(page, /Play 6 of 6: /);
    assert.equal(page.match(/<figure class="latency-chart">/g)?.length, CHANNELS.length, 'a latency chart per channel');
    assert.match(page, /aria-label="Answer times on WhatsApp over \d+ turns: p50 \d+ ms, p95 \d+ ms, max \d+ ms"/);
    const junit = renderJunit(report, { startedAt: new Date() });
    assert.equal(junit.match(/<testcase /g)?.length, report.cases.length, 'one testcase per case and channel');
    assert.match(junit, /failure message="\d of 6 plays failed \(plays? [\d, ]+\); /);
  });

  test('the human output: one line per case and channel, each distinct finding once with its count, the summary; show the same', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-runs-'));
    const result = await runCli([flaky.url, '--runs', '5', '--channel', 'web'], { cwd: folder });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^(FLAKY|FAIL |PASS ) {2}typed +web +\d\/5 passed/m);
    assert.match(result.stdout, /^FLAKY  \S+ +web +[1-4]\/5 passed/m);
    assert.match(result.stdout, /^problem \d+ {2}✗ platform /m);
    assert.match(result.stdout, /^(FLAKY|FAIL ) .* problems? .*\(in [1-5] of 5 plays\)/m);
    assert.match(result.stdout, /^\d of 5 cases passed on every play; \d flaky\.$/m);
    // show, from the record: the same case lines, each problem with the plays it came in.
    const shown = await runCli(['show'], { cwd: folder });
    rmSync(folder, { recursive: true, force: true });
    assert.equal(shown.code, 0, shown.stderr);
    const caseLines = (text: string) =>
      text
        .split('\n')
        .filter((line) => /^(FLAKY|FAIL) /.test(line))
        .map((line) => /^(FLAKY|FAIL) +(\S+) .*(problems? .*)$/.exec(line)!.slice(1).join(' '));
    assert.ok(caseLines(shown.stdout).length > 0, shown.stdout);
    assert.deepEqual(caseLines(shown.stdout), caseLines(result.stdout));
  });

  test('--runs 1 is the run as ever: no pass-rate column, no play counts', async () => {
    const result = await runCli([reference.url, '--runs', '1']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^PASS {2}typed +whatsapp +1 turn +\d+ ms$/m);
    assert.match(result.stdout, /^5 of 5 cases passed\.$/m);
  });

  for (const value of ['0', '101', '2.5', 'x']) {
    test(`--runs ${value}: exit 2 naming the flag and the range`, async () => {
      const result = await runCli([reference.url, '--runs', value]);
      assert.equal(result.code, 2);
      assert.match(
        result.stderr,
        value === 'x'
          ? /--runs needs a number \(N, a whole number from 1 to 100\); got "x"/
          : /--runs must be a whole number from 1 to 100; got /,
      );
    });
  }
});

describe('progress on long runs', () => {
  test('the line says plays done of all, failures so far and the time', () => {
    assert.equal(progressLine(412, 500, 3, 72_400), '412 of 500 plays · 3 failed · 1m 12s');
    assert.equal(progressLine(1, 1, 0, 900), '1 of 1 play · 0 failed · 0s');
  });

  test('never when stderr is not a terminal, nor in CI', async () => {
    const piped = await runCli([reference.url, '--runs', '3'], { env: { CI: undefined } });
    assert.equal(piped.code, 0);
    assert.doesNotMatch(piped.stderr + piped.stdout, /plays · /);
  });

  test('on a terminal, one line on stderr rewritten in place, and cleared at the end', async (t) => {
    const python = await runCommand('python3', ['-c', 'import pty']).catch(() => undefined);
    if (python?.code !== 0) return t.skip('python3 with pty is needed to give the command a terminal');
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.CI;
    const result = await runCommand(
      'python3',
      ['-c', 'import pty,sys; pty.spawn(sys.argv[1:])', process.execPath, CLI, reference.url, '--runs', '3'],
      { env },
    );
    assert.equal(result.code, 0, result.stdout);
    assert.match(result.stdout, /\r\u001b\[2K15 of 15 plays · 0 failed · \d+s/);
    // Cleared before anything else is printed: the case lines, then the summary.
    const last = result.stdout.slice(result.stdout.lastIndexOf('15 of 15 plays'));
    assert.match(last, /^15 of 15 plays · 0 failed · \d+s\r\u001b\[2K/);
    assert.match(last, /\n5 of 5 cases passed on every play; 0 flaky\./);
  });
});
