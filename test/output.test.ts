/**
 * Output worth reading, through the built command against real agents on loopback: a finding
 * repeated within a case printed once with its count and turns, one cause (quality/malformed's
 * invalid requests accepted, or failed on) one problem with its count and examples, a reproduce
 * line once per problem (each failed turn's with --verbose), a short output for a few faults on
 * every channel, --quiet, --color and --no-color beside NO_COLOR and FORCE_COLOR, report.html in
 * --report-dir, and GitHub annotations once per case, channel and rule.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RawResponse, type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { wantsColour } from '../src/report/colour.js';
import { BROKEN_QUALITY_AGENTS, wellBehaved } from '../fixtures/agents/quality.js';
import type { Report } from '../src/core/report.js';
import { runCli } from './helpers.js';
import { REPORT_DIR_FILES, onlyOf } from './contract-ids.js';

const ENV = { FLOW_FRAMEWORK_AGENT_TOKEN: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined };
const ESCAPE = '\u001b[';

let folder: string;
let reference: RunningAgent;
/** Answers every message with the same misspelt property: double-text breaks the schema the same way on both of its turns. */
let misspelt: RunningAgent;
let acceptsAnything: RunningAgent;
/** An ordinary agent that validates nothing and fails (500) on a body that is not JSON: two faults. */
let validatesNothing: RunningAgent;
/** One text too long for most platforms, on every message: a distinct problem on each platform it breaks. */
let threeFaults: RunningAgent;

before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'check-endpoint-output-'));
  reference = await startReferenceAgent();
  misspelt = await serveAgent(() => ({ replies: [{ type: 'message', text: 'Sure.', buttton: ['Yes'] }] }));
  const agent = BROKEN_QUALITY_AGENTS.find((candidate) => candidate.name === 'accepts-invalid-requests')!;
  acceptsAnything = await serveAgent(agent.handler(undefined), agent.serveOptions ?? {});
  validatesNothing = await serveAgent(wellBehaved(undefined, { validateRequests: false, requireToken: false }), {
    anyJson: true,
    onBodyNotJson: () =>
      new RawResponse(500, '{"error":"SyntaxError: Unexpected end of JSON input"}', { 'content-type': 'application/json' }),
  });
  threeFaults = await serveAgent(() => ({
    replies: [
      {
        type: 'message',
        text: `Sure. ${'We are open. '.repeat(400)}`,
      },
    ],
  }));
});
after(async () => {
  await Promise.all([reference.close(), misspelt.close(), acceptsAnything.close(), validatesNothing.close(), threeFaults.close()]);
  rmSync(folder, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string | undefined> = {}): ReturnType<typeof runCli> {
  return runCli(args, { cwd: folder, env: { ...ENV, ...env } });
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('a finding repeated within a case', () => {
  test('the same finding on two turns is one line, naming both turns and the count', async () => {
    const result = await cli([misspelt.url, '--case', 'double-text']);
    assert.equal(result.code, 1);
    const lines = result.stdout.split('\n').filter((line) => line.includes('✗ schema'));
    assert.equal(lines.length, 1, result.stdout);
    assert.match(lines[0]!, /^problem 1 {2}✗ schema {2}\/replies\/0\/buttton {2}unknown property "buttton"/);
    assert.match(result.stdout, /^ {6}in 1 case \(2 findings\): double-text on whatsapp$/m);
    assert.match(result.stdout, /^FAIL {2}double-text .* problem 1 \(turns 1 and 2\)$/m);
    assert.equal(count(result.stdout, 'hint: '), 1, 'its hint once');
  });

  test('quality/malformed: the invalid requests it accepted are one problem, with their count, three examples and the one hint', async () => {
    const json = JSON.parse((await cli([acceptsAnything.url, '--case', 'quality/malformed', '--json'])).stdout) as Report;
    const findings = json.cases[0]!.findings.filter((finding) => finding.rule === 'malformed');
    assert.ok(findings.length > 30, `${findings.length} findings`);
    assert.equal(new Set(findings.map((finding) => finding.problem)).size, 1, 'one problem');
    const [problem] = json.problems!;
    assert.equal(problem!.findings, findings.length);
    assert.deepEqual(
      problem!.instances,
      findings.map((finding) => finding.cause!.instance),
      'the problem lists each instance it holds',
    );
    assert.match(
      problem!.message,
      new RegExp(
        `^the agent answered status 200 to ${findings.length} of ${findings.length} invalid requests, accepting them as valid \\(for example: a body that is not JSON; a JSON body with no "message"; a JSON body of the wrong types\\)$`,
      ),
    );

    const result = await cli([acceptsAnything.url, '--case', 'quality/malformed']);
    assert.equal(result.code, 0);
    assert.equal(count(result.stdout, findings[0]!.hint!), 1, 'the hint is printed once');
    assert.equal(count(result.stdout, '! malformed  (body)  '), 1, 'one line for the one cause');
    assert.match(result.stdout, /quality\/malformed +whatsapp +45 turns .*problem 1 \(turns 1–45\)$/m);
  });

  test('--quality on an agent that validates nothing and fails on bad JSON: at most 8 problems, every finding in --json', async () => {
    const result = await cli([validatesNothing.url, '--quality']);
    assert.equal(result.code, 1);
    const problems = result.stdout.split('\n').filter((line) => /^problem \d+ /.test(line));
    assert.ok(problems.length <= 8, problems.join('\n'));
    assert.match(
      result.stdout,
      /^problem \d+ {2}✗ malformed {2}\(body\) {2}expected 400 or 422 for invalid requests; the agent failed on 1 of 45, the first time with status 500/m,
    );
    assert.match(result.stdout, /^problem \d+ {2}! malformed {2}\(body\) {2}the agent answered status 200 to 44 of 45 invalid requests/m);
    const json = JSON.parse((await cli([validatesNothing.url, '--quality', '--json'])).stdout) as Report;
    const malformed = json.cases.find((c) => c.id === 'quality/malformed')!;
    assert.equal(malformed.findings.length, 45, 'each invalid request keeps its finding');
    assert.equal(json.problems!.length, problems.length);
    assert.equal(
      json.problems!.reduce((sum, problem) => sum + problem.findings, 0),
      json.cases.reduce((sum, c) => sum + c.findings.length, 0),
      'every finding is in a problem',
    );
  });
});

describe('short by default', () => {
  test('a few problems on --channel all: at most 60 lines, a reproduce line once per problem; --verbose adds one per failed turn', async () => {
    const result = await cli([threeFaults.url, '--channel', 'all']);
    assert.equal(result.code, 1);
    const lines = result.stdout.trimEnd().split('\n');
    const problems = lines.filter((line) => /^problem \d+ /.test(line));
    assert.ok(problems.length >= 3 && problems.length <= 5, problems.join('\n'));
    assert.ok(lines.length <= 60, `${lines.length} lines:\n${result.stdout}`);
    // Each problem's example turn's reproduce line, where that turn failed (a warning's turn may not have).
    const errors = problems.filter((line) => line.includes('✗')).length;
    const reproduced = count(result.stdout, 'reproduce');
    assert.ok(reproduced >= errors && reproduced <= problems.length, `${reproduced} reproduce lines for ${problems.length} problems`);
    assert.ok(
      lines.every((line) => !line.startsWith('          reproduce')),
      'no reproduce line under a case line',
    );

    const verbose = await cli([threeFaults.url, '--channel', 'all', '--verbose']);
    const json = JSON.parse((await cli([threeFaults.url, '--channel', 'all', '--json'])).stdout) as Report;
    const failedTurns = json.cases.flatMap((c) => c.turns.filter((turn) => turn.findings.some((finding) => finding.reproduce)));
    assert.ok(failedTurns.length > problems.length);
    assert.equal(count(verbose.stdout, '          reproduce'), failedTurns.length, 'each failed turn’s reproduce line with --verbose');
  });
});

describe('--quiet', () => {
  test('a passing run prints its summary line alone', async () => {
    const result = await cli([reference.url, '--quiet']);
    assert.equal(result.code, 0);
    assert.equal(result.stdout, '5 of 5 cases passed.\n');
    assert.equal(result.stderr, '');
  });

  test('a failing run prints the digest of its problems, where each came, and the summary; no case line', async () => {
    const result = await cli([misspelt.url, '--quiet']);
    assert.equal(result.code, 1);
    const lines = result.stdout.split('\n');
    assert.ok(!result.stdout.includes('check-endpoint 0.1.0') && !result.stdout.includes('channels:'), 'no header');
    assert.ok(!lines.some((line) => /^(PASS|FAIL)/.test(line)), 'no case line');
    assert.match(result.stdout, /^1 problem fails 5 of 5 cases\.$/m);
    assert.match(result.stdout, /^ {6}in 5 cases \(7 findings\): typed, double-text, photo, button-tap, no-reply on whatsapp$/m);
    assert.match(result.stdout, /\n\n0 of 5 cases passed\.\n$/);
  });
});

describe('--color and --no-color', () => {
  test('--color colours a pipe even under NO_COLOR; --no-color wins over FORCE_COLOR', async () => {
    const coloured = await cli([reference.url, '--case', 'typed', '--color'], { NO_COLOR: '1' });
    assert.ok(coloured.stdout.includes(ESCAPE), 'colour with --color');
    const plain = await cli([reference.url, '--case', 'typed', '--no-color'], { NO_COLOR: undefined, FORCE_COLOR: '1' });
    assert.ok(!plain.stdout.includes(ESCAPE), 'no colour with --no-color');
    const forced = await cli([reference.url, '--case', 'typed'], { NO_COLOR: undefined, FORCE_COLOR: '1' });
    assert.ok(forced.stdout.includes(ESCAPE), 'FORCE_COLOR alone colours');
    const validate = await runCli(['validate', '-', '--color'], {
      cwd: folder,
      env: { NO_COLOR: '1' },
      input: '{"replies":[{"type":"x"}]}',
    });
    assert.equal(validate.code, 1);
    assert.ok(validate.stdout.includes(ESCAPE), 'validate takes --color too');
  });

  test('the flag wins over the environment; without it, FORCE_COLOR, then NO_COLOR, then the terminal decide', () => {
    const terminal = { isTTY: true } as NodeJS.WriteStream;
    const pipe = { isTTY: false } as NodeJS.WriteStream;
    assert.equal(wantsColour(pipe, { NO_COLOR: '1' }, true), true);
    assert.equal(wantsColour(terminal, { FORCE_COLOR: '1' }, false), false);
    assert.equal(wantsColour(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' }), true);
    assert.equal(wantsColour(terminal, { NO_COLOR: '1' }), false);
    assert.equal(wantsColour(terminal, {}), true);
    assert.equal(wantsColour(pipe, {}), false);
  });
});

test('--report-dir also holds report.html, the same page --html writes', async () => {
  const dir = join(folder, 'reports');
  const result = await cli([misspelt.url, '--report-dir', dir, '--html', join(folder, 'page.html')]);
  assert.equal(result.code, 1);
  assert.deepEqual(readdirSync(dir).sort(), REPORT_DIR_FILES);
  assert.deepEqual(onlyOf(readdirSync(dir).sort(), ['junit.xml', 'report.html', 'report.json', 'traffic.har'], String), [
    'junit.xml',
    'report.html',
    'report.json',
    'traffic.har',
  ]);
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  assert.match(html, /^<!doctype html>/i);
  assert.ok(html.includes('buttton'), 'the page shows the failure');
  assert.match(result.stdout, new RegExp(`wrote ${dir}/report.html`));
});

test('GitHub annotations: one per distinct problem, counting the cases and findings it stands for', async () => {
  const result = await cli([misspelt.url, '--case', 'double-text', '--channel', 'whatsapp', '--channel', 'sms'], {
    GITHUB_ACTIONS: 'true',
  });
  assert.equal(result.code, 1);
  const annotations = result.stderr.split('\n').filter((line) => line.startsWith('::'));
  assert.deepEqual(
    annotations.map((line) => line.slice(0, line.indexOf('::', 2))),
    ['::error title=check-endpoint problem 1%3A schema'],
  );
  assert.match(
    annotations[0]!,
    /::unknown property "buttton"[^\n]* at \/replies\/0\/buttton\. Hint: did you mean "buttons"\? In 2 cases \(4 findings\): double-text on every channel\.$/,
  );
});

describe('the case lines of a run line up', () => {
  test('with --quality, every column starts where the longest case id (quality/large-attachment) leaves room for it', async () => {
    const agent = await startReferenceAgent();
    try {
      const result = await runCli([agent.url, '--quality']);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const lines = result.stdout.split('\n').filter((line) => /^(PASS|FAIL) /.test(line));
      assert.ok(
        lines.some((line) => line.includes('quality/large-attachment ')) && lines.some((line) => line.includes(' typed ')),
        result.stdout,
      );
      const channelAt = lines.map((line) => line.indexOf('whatsapp'));
      assert.equal(new Set(channelAt).size, 1, lines.join('\n'));
      assert.equal(channelAt[0], 'PASS  '.length + 'quality/large-attachment'.length + 2);
    } finally {
      await agent.close();
    }
  });
});
