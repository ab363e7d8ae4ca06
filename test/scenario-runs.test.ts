/**
 * Team scenarios played through the contract (the `scenarios` option; the command's --scenarios):
 * the reference agent passes every valid fixture scenario on its own channels; an agent that
 * crashes on a message that comes while another of the conversation is being answered fails
 * exactly the latte scenario's turn 2 (its double text, 1,200 ms after the first message was
 * sent); a folder with an invalid file fails the run without playing that file; scenarios given as
 * objects play alike; `onlyScenarios` keeps the ones named. The report stays valid against
 * spec/report.schema.json.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { validateXML } from 'xmllint-wasm';
import { createAjv } from '../src/contract/ajv.js';
import { renderHtmlReport } from '../src/report/html.js';
import { renderJunit } from '../src/report/junit.js';
import { serveAgent, type RunningAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { checkEndpoint, type Report } from '../src/index.js';
import { busyConversationAgent } from '../fixtures/agents/busy-conversation.js';
import { ROOT, runCli } from './helpers.js';

const validateReport = createAjv().compile(JSON.parse(readFileSync(join(ROOT, 'spec/report.schema.json'), 'utf8')));
const VALID = join(ROOT, 'fixtures/scenarios/valid');

function scenarioCases(report: Report) {
  return report.cases.filter((caseReport) => caseReport.id.startsWith('scenario/'));
}

function assertValidReport(report: Report): void {
  assert.ok(validateReport(report), JSON.stringify(validateReport.errors, null, 2));
}

describe('the reference agent and the valid fixture scenarios', () => {
  let agent: RunningAgent;
  let report: Report;
  before(async () => {
    agent = await startReferenceAgent();
    report = await checkEndpoint(agent.url, { cases: ['typed'], scenarios: VALID });
  });
  after(() => agent.close());

  test('every scenario passes, each on its own channels, with no finding', () => {
    assertValidReport(report);
    assert.equal(report.outcome, 'passed', JSON.stringify(scenarioCases(report).flatMap((caseReport) => caseReport.findings)));
    assert.deepEqual(
      report.scenarios!.files.map((file) => [file.id, file.status, file.channels]),
      [
        ['latte-correction', 'passed', ['whatsapp']],
        ['menu-buttons', 'passed', ['whatsapp', 'web']],
        ['table-for-tomorrow', 'passed', ['telegram', 'imessage']],
      ],
    );
    assert.deepEqual(
      scenarioCases(report).map((caseReport) => [caseReport.id, caseReport.channel, caseReport.turns.length]),
      [
        ['scenario/latte-correction', 'whatsapp', 2],
        ['scenario/menu-buttons', 'whatsapp', 3],
        ['scenario/menu-buttons', 'web', 3],
        ['scenario/table-for-tomorrow', 'telegram', 2],
        ['scenario/table-for-tomorrow', 'imessage', 2],
      ],
    );
    // The run's channels are reported with the scenarios' own.
    assert.deepEqual(
      report.channels.map((channel) => channel.name),
      ['whatsapp', 'web', 'telegram', 'imessage'],
    );
  });

  test('each scenario on a channel is one conversation, marked as the scenario’s, its messages as written', () => {
    const latte = scenarioCases(report).find((caseReport) => caseReport.id === 'scenario/latte-correction')!;
    assert.match(latte.conversationId, /^whatsapp:chk_[0-9a-f]{8}\.scenario-latte-correction\.1$/);
    assert.deepEqual(
      latte.turns.map((turn) => [turn.request.conversationId, turn.request.message.text]),
      [
        [latte.conversationId, 'can i get a large latte'],
        [latte.conversationId, 'oat milk actually'],
      ],
    );
  });

  test('{{now …}} is rendered from the scenario’s clock; history is said not to be sent', () => {
    const table = report.scenarios!.files.find((file) => file.id === 'table-for-tomorrow')!;
    assert.deepEqual(table.opening, ['hi! do you have a table for 4 on 2026-12-05?', 'around 8 pm would be perfect']);
    assert.equal(table.historyNotSent, 2);
    const sent = scenarioCases(report).find((caseReport) => caseReport.id === 'scenario/table-for-tomorrow')!.turns[0]!.request.message
      .text;
    assert.equal(sent, 'hi! do you have a table for 4 on 2026-12-05?');
    assert.deepEqual(
      report.scenarios!.notChecked.map((entry) => entry.key),
      ['/tags'],
    );
  });
});

describe('an agent that crashes on a message sent while the one before is answered', () => {
  let agent: RunningAgent;
  let report: Report;
  before(async () => {
    agent = await serveAgent(busyConversationAgent());
    report = await checkEndpoint(agent.url, { cases: ['double-text'], scenarios: VALID });
  });
  after(() => agent.close());

  test('fails exactly the latte scenario’s turn 2, rule status; the rest passes', () => {
    assertValidReport(report);
    assert.equal(report.exitCode, 1);
    const failing = report.cases.flatMap((caseReport) =>
      caseReport.turns.flatMap((turn, index) =>
        turn.findings
          .filter((finding) => finding.severity === 'error')
          .map((finding) => [caseReport.id, caseReport.channel, index + 1, finding.rule]),
      ),
    );
    assert.deepEqual(failing, [['scenario/latte-correction', 'whatsapp', 2, 'status']]);
    assert.deepEqual(
      report.scenarios!.files.map((file) => [file.id, file.status]),
      [
        ['latte-correction', 'failed'],
        ['menu-buttons', 'passed'],
        ['table-for-tomorrow', 'passed'],
      ],
    );
  });

  test('JUnit: a testsuite "scenarios", valid against junit-10.xsd, the failure on the latte scenario', async () => {
    const xml = renderJunit(report, { startedAt: new Date('2026-12-04T15:00:00Z') });
    const result = await validateXML({
      xml: [{ fileName: 'junit.xml', contents: xml }],
      schema: [readFileSync(join(ROOT, 'test/xsd/junit-10.xsd'), 'utf8')],
    });
    assert.deepEqual(result.errors, []);
    const suite = /<testsuite name="scenarios" tests="(\d+)" failures="(\d+)"[^]*?<\/testsuite>/.exec(xml);
    assert.ok(suite, xml);
    assert.deepEqual([suite[1], suite[2]], ['5', '1']);
    assert.match(suite[0], /<testcase classname="check-endpoint.scenarios" name="latte-correction on whatsapp"[^>]*>\s*<failure /);
    // Not again in the channel's testsuite.
    assert.doesNotMatch(xml.replace(suite[0], ''), /scenario\/latte-correction|latte-correction on/);
  });

  test('HTML: the scenario’s conversation is drawn as a case’s, its failing turn with its finding', () => {
    const html = renderHtmlReport(report);
    assert.match(html, /scenario\/latte-correction/);
    assert.match(html, /oat milk actually/);
    assert.match(html, /conversation is busy/);
  });
});

describe('scenarios given as objects, chosen by id, and invalid files', () => {
  let agent: RunningAgent;
  before(async () => {
    agent = await startReferenceAgent();
  });
  after(() => agent.close());

  test('objects as their YAML parses to play alike; onlyScenarios keeps those named', async () => {
    const report = await checkEndpoint(agent.url, {
      cases: ['typed'],
      scenarios: [
        { id: 'hello', channels: ['sms'], opening: [{ say: 'hello there' }] },
        { id: 'bye', opening: [{ say: 'bye now' }] },
      ],
      onlyScenarios: ['bye'],
    });
    assertValidReport(report);
    assert.equal(report.outcome, 'passed');
    assert.deepEqual(
      scenarioCases(report).map((caseReport) => [caseReport.id, caseReport.channel]),
      [['scenario/bye', 'whatsapp']],
    );
  });

  test('onlyScenarios naming no scenario is refused before anything is sent', async () => {
    await assert.rejects(
      checkEndpoint(agent.url, { scenarios: VALID, onlyScenarios: ['latte'] }),
      /onlyScenarios: no scenario is called "latte"; the scenarios are latte-correction, menu-buttons, table-for-tomorrow/,
    );
  });

  test('a folder with invalid files: those are not played, each problem is reported, and the run fails', async () => {
    const report = await checkEndpoint(agent.url, { cases: ['typed'], scenarios: join(ROOT, 'fixtures/scenarios/invalid') });
    assertValidReport(report);
    assert.equal(report.outcome, 'failed');
    assert.equal(report.exitCode, 1);
    assert.deepEqual(scenarioCases(report), []);
    assert.equal(report.scenarios!.files.length, 10);
    assert.ok(report.scenarios!.files.every((file) => file.status === 'invalid' && file.problems.length === 1));
    const xml = renderJunit(report, { startedAt: new Date() });
    assert.match(xml, /<testsuite name="scenarios" tests="10" failures="10"/);
    assert.match(
      xml,
      /name="[^"]*unknown-channel.yaml"><failure message="1 problem\(s\) in the scenario file: not played" type="scenario-file">[^<]*unknown-channel.yaml:2:12 \/channels\/0 expected one of the channels/,
    );
  });

  test('two objects with one id: the second is refused, the first plays', async () => {
    const report = await checkEndpoint(agent.url, {
      cases: ['typed'],
      scenarios: [
        { id: 'twice', opening: [{ say: 'one' }] },
        { id: 'twice', opening: [{ say: 'two' }] },
      ],
    });
    assert.deepEqual(
      report.scenarios!.files.map((file) => [file.file, file.status, file.problems.map((problem) => problem.message)]),
      [
        ['scenarios[0]', 'passed', []],
        ['scenarios[1]', 'invalid', ['expected ids unique across the scenarios; "twice" is also the id of scenarios[0]']],
      ],
    );
  });

  test('a folder that does not exist is an OptionError naming the option', async () => {
    await assert.rejects(checkEndpoint(agent.url, { scenarios: join(ROOT, 'fixtures/scenarios/none') }), /scenarios: .*does not exist/);
  });
});

describe('the command line', () => {
  let agent: RunningAgent;
  let busy: RunningAgent;
  before(async () => {
    agent = await startReferenceAgent();
    busy = await serveAgent(busyConversationAgent());
  });
  after(async () => {
    await agent.close();
    await busy.close();
  });

  test('scenarios --lint: every problem at file:line:column with its fix, exit 1; valid files exit 0; --json', async () => {
    const invalid = await runCli(['scenarios', '--lint', join(ROOT, 'fixtures/scenarios/invalid')]);
    assert.equal(invalid.code, 1, invalid.stderr);
    assert.match(
      invalid.stdout,
      /unknown-channel\.yaml:2:12 {2}\/channels\/0 {2}expected one of the channels .*got the text "whatsap"\n {4}fix: Did you mean "whatsapp"\?/,
    );
    assert.match(invalid.stdout, /10 scenario files: 10 with 10 problems\n$/);
    const valid = await runCli(['scenarios', '--lint', join(ROOT, 'fixtures/scenarios/valid'), '--json']);
    assert.equal(valid.code, 0, valid.stderr);
    const document = JSON.parse(valid.stdout) as {
      files: { id: string; status: string; channels: string[] }[];
      notChecked: { key: string }[];
    };
    // Nothing is played: each file's channels are the ones it names.
    assert.deepEqual(
      document.files.map((file) => [file.id, file.status, file.channels]),
      [
        ['latte-correction', 'valid', ['whatsapp']],
        ['menu-buttons', 'valid', ['whatsapp', 'web']],
        ['table-for-tomorrow', 'valid', ['telegram', 'imessage']],
      ],
    );
    assert.deepEqual(
      document.notChecked.map((entry) => entry.key),
      ['/tags'],
    );
    const missing = await runCli(['scenarios', '--lint', join(ROOT, 'fixtures/scenarios/none')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /does not exist/);
    // The folder is the command's argument here, not the --scenarios flag.
    assert.match(missing.stderr, /^check-endpoint: scenarios --lint \S*fixtures\/scenarios\/none: /m);
    assert.doesNotMatch(missing.stderr, /--scenarios/);
  });

  test('--scenarios with no folder reads tests/scenarios; --only keeps the ones named; a line per scenario and channel', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'scenarios-cli-'));
    try {
      mkdirSync(join(folder, 'tests'));
      cpSync(join(ROOT, 'fixtures/scenarios/valid'), join(folder, 'tests/scenarios'), { recursive: true });
      const run = await runCli([agent.url, '--case', 'typed', '--only', 'menu-buttons,latte-correction', '--no-config', '--scenarios'], {
        cwd: folder,
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /^PASS {2}scenario\/latte-correction +whatsapp +2 turns/m);
      assert.match(run.stdout, /^PASS {2}scenario\/menu-buttons +web +3 turns/m);
      assert.doesNotMatch(run.stdout, /table-for-tomorrow/);
      assert.match(run.stdout, /^Scenarios \(tests\/scenarios\): 2 played$/m);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('--failed plays again only the scenario that failed, on its channel, from the record', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'scenarios-failed-'));
    try {
      const first = await runCli([busy.url, '--case', 'typed', '--scenarios', join(ROOT, 'fixtures/scenarios/valid')], { cwd: folder });
      assert.equal(first.code, 1, first.stdout + first.stderr);
      assert.match(first.stdout, /^FAIL {2}scenario\/latte-correction +whatsapp +2 turns/m);
      const again = await runCli(['--failed', '--json'], { cwd: folder });
      const report = JSON.parse(again.stdout) as Report;
      assert.deepEqual(
        report.cases.map((caseReport) => [caseReport.id, caseReport.channel, caseReport.status]),
        [['scenario/latte-correction', 'whatsapp', 'failed']],
      );
      assert.equal(again.code, 1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('a folder with a hostile file, a typo and a scenario with no opening beside a valid one', () => {
  let agent: RunningAgent;
  let dir = '';
  before(async () => {
    agent = await startReferenceAgent();
    dir = mkdtempSync(join(tmpdir(), 'hostile-scenarios-'));
    cpSync(join(VALID, 'latte-correction.yaml'), join(dir, 'latte-correction.yaml'));
    // The "billion laughs" shape: each alias stands for nine of the one before.
    const levels = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
    for (const [index, name] of ['b', 'c', 'd', 'e', 'f', 'g'].entries()) {
      const before = String.fromCharCode('a'.charCodeAt(0) + index);
      levels.push(`${name}: &${name} [${Array.from({ length: 9 }, () => `*${before}`).join(', ')}]`);
    }
    writeFileSync(join(dir, 'bomb.yaml'), `id: bomb\n${levels.join('\n')}\nopening:\n  - say: hi\n`);
    writeFileSync(join(dir, 'typo.yaml'), 'id: typo\nopenning:\n  - say: hi\n');
    writeFileSync(join(dir, 'persona-only.yaml'), 'id: persona-only\nperson: {persona: Sam}\n');
  });
  after(async () => {
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the bomb and the typo are named with their lines and not played, the valid one is played, the one with no opening never passes', async () => {
    const report = await checkEndpoint(agent.url, { cases: ['typed'], scenarios: dir });
    assertValidReport(report);
    assert.equal(report.outcome, 'failed');
    const files = Object.fromEntries(report.scenarios!.files.map((file) => [file.file.replace(/^.*\//, ''), file]));
    assert.equal(files['bomb.yaml']!.status, 'invalid');
    assert.deepEqual(
      files['bomb.yaml']!.problems.map((problem) => [problem.line, problem.column]),
      [[3, 8]],
    );
    assert.match(files['bomb.yaml']!.problems[0]!.message, /aliases .* at most 100 copies/);
    assert.equal(files['typo.yaml']!.status, 'invalid');
    assert.match(files['typo.yaml']!.problems[0]!.fix, /Did you mean "opening"\?/);
    assert.equal(files['latte-correction.yaml']!.status, 'passed');
    assert.equal(files['persona-only.yaml']!.status, 'not-run');
    assert.deepEqual(
      scenarioCases(report).map((caseReport) => caseReport.id),
      ['scenario/latte-correction'],
    );
  });

  test('the command names them and says the one with no opening was not played', async () => {
    const result = await runCli([agent.url, '--case', 'typed', '--scenarios', dir], { env: { FLOW_FRAMEWORK_AGENT_TOKEN: undefined } });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /bomb\.yaml:3:8 {2}expected a scenario whose aliases/);
    assert.match(result.stdout, /persona-only: not played: it has no opening/);
    assert.doesNotMatch(result.stdout, /internal error/);
    assert.doesNotMatch(result.stdout, /PASS {2}scenario\/persona-only/);
  });
});
