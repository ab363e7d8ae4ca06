import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { type HostileServer, startHostileServer } from '../fixtures/agents/hostile.js';
import { parseBaseline } from '../src/run/baseline.js';
import { replyIndex } from '../src/core/findings.js';
import { shellQuote } from '../src/run/reproduce.js';
import { BROKEN_AGENTS, VALID_AGENTS } from '../fixtures/agents/catalogue.js';
import { harValidator } from './har-validator.js';
import { runCli } from './helpers.js';
import { REPORT_DIR_FILES, onlyOf } from './contract-ids.js';

const TOKEN = 'reports-secret-51c7e0';
const byName = (name: string) => [...BROKEN_AGENTS, ...VALID_AGENTS].find((agent) => agent.name === name)!;

let typo: RunningAgent;
let silent: RunningAgent;
let tmp: string;

before(async () => {
  typo = await serveAgent(byName('typo-buttton-on-double-text').handler);
  silent = await serveAgent(byName('silent').handler);
  tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-reports-'));
});
after(async () => {
  await Promise.all([typo.close(), silent.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

describe('report files', () => {
  test('--report-dir writes report.json, junit.xml, traffic.har and report.html; report.json is the report printed by --json', async () => {
    const dir = join(tmp, 'all-reports');
    const result = await runCli([typo.url, '--channel', 'whatsapp', '--channel', 'sms', '--report-dir', dir, '--json']);
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(readdirSync(dir).sort(), REPORT_DIR_FILES);
    assert.deepEqual(onlyOf(readdirSync(dir).sort(), ['junit.xml', 'report.html', 'report.json', 'traffic.har'], String), [
      'junit.xml',
      'report.html',
      'report.json',
      'traffic.har',
    ]);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')), JSON.parse(result.stdout));
  });

  test('JUnit: a JUnit parser sees one testsuite per channel, one testcase per case, the failure with rule, message and pointer', async () => {
    const file = join(tmp, 'junit.xml');
    const result = await runCli([typo.url, '--channel', 'whatsapp', '--channel', 'sms', '--junit', file]);
    assert.equal(result.code, 1);
    const xml = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['testsuite', 'testcase'].includes(name),
    }).parse(readFileSync(file, 'utf8'));
    const suites = xml.testsuites.testsuite as {
      name: string;
      tests: string;
      failures: string;
      testcase: { name: string; failure?: { type: string; '#text': string } }[];
    }[];
    assert.deepEqual(
      suites.map((suite) => [suite.name, suite.tests, suite.failures]),
      [
        ['whatsapp', '5', '1'],
        ['sms', '5', '1'],
      ],
    );
    assert.equal(xml.testsuites.tests, '10');
    assert.equal(xml.testsuites.failures, '2');
    assert.deepEqual(
      suites[0]!.testcase.map((testcase) => testcase.name),
      ['whatsapp/typed', 'whatsapp/double-text', 'whatsapp/photo', 'whatsapp/button-tap', 'whatsapp/no-reply'],
    );
    const failed = suites[0]!.testcase.find((testcase) => testcase.failure)!;
    assert.equal(failed.name, 'whatsapp/double-text');
    assert.equal(failed.failure!.type, 'schema');
    assert.match(failed.failure!['#text'], /\[schema\] \/replies\/0\/buttton \(turn 1\): unknown property "buttton"/);
    assert.match(failed.failure!['#text'], /reproduce: curl /);
  });

  test('JUnit: warnings go to system-out; text the agent wrote cannot break the XML', async () => {
    const hostile = await serveAgent(() => ({ replies: [{ type: 'message', text: ']]></failure><x>\u0000&amp;', buttton: 1 }] }));
    try {
      const file = join(tmp, 'hostile.xml');
      await runCli([hostile.url, '--case', 'typed', '--junit', file]);
      const xml = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(file, 'utf8'), true);
      assert.ok(xml.testsuites);
      const silentFile = join(tmp, 'silent.xml');
      assert.equal((await runCli([silent.url, '--case', 'typed', '--junit', silentFile])).code, 0);
      assert.match(readFileSync(silentFile, 'utf8'), /<system-out>warning \[silent\] \/replies/);
    } finally {
      await hostile.close();
    }
  });

  test('HAR: validates as HAR 1.2 and holds every exchange, the HEAD probe first, with the token redacted', async () => {
    const file = join(tmp, 'traffic.har');
    const result = await runCli([typo.url, '--har', file], { env: { FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN } });
    assert.equal(result.code, 1);
    const har = JSON.parse(readFileSync(file, 'utf8'));
    const validate = harValidator();
    assert.ok(validate(har), JSON.stringify(validate.errors));
    const entries = har.log.entries as {
      request: { method: string; headers: { name: string; value: string }[]; postData?: { text: string } };
      response: { status: number; content: { text: string } };
    }[];
    assert.equal(entries.length, 1 + 7, 'the probe and every turn');
    assert.equal(entries[0]!.request.method, 'HEAD');
    assert.ok(entries.slice(1).every((entry) => entry.request.method === 'POST' && entry.response.status === 200));
    for (const entry of entries) {
      assert.deepEqual(
        entry.request.headers.find((header) => header.name === 'authorization'),
        { name: 'authorization', value: 'Bearer <redacted>' },
      );
    }
    assert.ok(entries.some((entry) => entry.response.content.text.includes('buttton')));
  });

  test('a report file that cannot be written: exit 2, naming it and why in words (test/report-files.test.ts has the rest)', async () => {
    const blocker = join(tmp, 'a-file');
    writeFileSync(blocker, 'x');
    const result = await runCli([silent.url, '--case', 'typed', '--junit', join(blocker, 'junit.xml')]);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /check-endpoint: could not write .*junit\.xml \(--junit\): .*a-file is a file, not a folder \((ENOTDIR|EEXIST)\)/,
    );
  });
});

describe('baselines', () => {
  test('--write-baseline writes the failures; with it, the run passes and says they were expected', async () => {
    const file = join(tmp, 'baseline.txt');
    assert.equal((await runCli([typo.url, '--write-baseline', file])).code, 1);
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    assert.deepEqual(lines, ['whatsapp/double-text:schema']);
    const result = await runCli([typo.url, '--baseline', file, '--json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.outcome, 'passed');
    assert.deepEqual(report.baseline.matched, ['whatsapp/double-text:schema']);
    assert.equal(report.cases.find((c: { id: string }) => c.id === 'double-text').expected, true);
    assert.match(result.stderr, /FAIL {2}double-text .* expected \(baseline\)/);
  });

  test('--quiet: the digest says the baseline expected the failures, and the baseline line is printed', async () => {
    const file = join(tmp, 'quiet-baseline.txt');
    writeFileSync(file, 'whatsapp/double-text:schema\n');
    const result = await runCli([typo.url, '--baseline', file, '--quiet']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^1 problem fails 1 of 5 cases, as the baseline expected\.$/m);
    assert.match(result.stdout, /^baseline .*quiet-baseline\.txt: expected failures whatsapp\/double-text$/m);
    assert.match(result.stdout, /\n\n4 of 5 cases passed\.\n$/);
  });

  test('an entry that passes now is stale and fails the run; one for a case that did not run is only noted', async () => {
    const file = join(tmp, 'stale.txt');
    writeFileSync(file, '# expected failures\ndouble-text:schema\nphoto\ntelegram/typed:platform\n');
    const result = await runCli([typo.url, '--baseline', file, '--json']);
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(report.baseline.stale, ['photo']);
    assert.deepEqual(report.baseline.unchecked, ['telegram/typed:platform']);
    assert.match(result.stderr, /✗ stale baseline entry "photo": it passes now; remove it from/);
  });

  test('a listed rule does not excuse another rule in the same case', async () => {
    const file = join(tmp, 'other-rule.txt');
    writeFileSync(file, 'double-text:platform\n');
    assert.equal((await runCli([typo.url, '--baseline', file])).code, 1);
  });

  test('a bad entry or a missing file: exit 2 naming the line', async () => {
    const file = join(tmp, 'bad.txt');
    writeFileSync(file, 'typed\nwhatsapp/typo-case\n');
    const bad = await runCli([typo.url, '--baseline', file]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /bad\.txt:2: "whatsapp\/typo-case" is not a baseline entry/);
    const missing = await runCli([typo.url, '--baseline', join(tmp, 'none.txt')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read the baseline file .*none\.txt: it does not exist/);
  });

  test('entries parse as case, case:rule, channel/case and channel/case:rule, quality cases included', () => {
    assert.deepEqual(
      parseBaseline('typed\nphoto:status\nsms/button-tap\nweb/no-reply:timeout\nquality/auth\nsms/quality/retry:retry', 'b.txt'),
      [
        { text: 'typed', case: 'typed' },
        { text: 'photo:status', case: 'photo', rule: 'status' },
        { text: 'sms/button-tap', case: 'button-tap', channel: 'sms' },
        { text: 'web/no-reply:timeout', case: 'no-reply', channel: 'web', rule: 'timeout' },
        { text: 'quality/auth', case: 'quality/auth' },
        { text: 'sms/quality/retry:retry', case: 'quality/retry', channel: 'sms', rule: 'retry' },
      ],
    );
  });
});

describe('in CI', () => {
  test('GitHub Actions: an ::error per distinct problem titled with its number and rule, and a step summary table', async () => {
    const summary = join(tmp, 'step-summary.md');
    const result = await runCli([typo.url, '--channel', 'whatsapp', '--channel', 'sms'], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    assert.equal(result.code, 1);
    const annotations = result.stderr.split('\n').filter((line) => line.startsWith('::'));
    // One problem in two cases (double-text on each channel): one annotation, naming both.
    assert.deepEqual(
      annotations.map((line) => line.slice(0, line.indexOf('::', 2))),
      ['::error title=check-endpoint problem 1%3A schema'],
    );
    assert.match(
      annotations[0]!,
      /::unknown property "buttton"; allowed here: [^\n]*\. Hint: did you mean "buttons"\? In 2 cases: double-text on every channel\.$/,
    );
    const table = readFileSync(summary, 'utf8');
    assert.match(table, /\| channel \| typed \| double-text \| photo \| button-tap \| no-reply \|/);
    assert.match(table, /\| whatsapp \| ✅ \| ❌ schema \| ✅ \| ✅ \| ✅ \|/);
    assert.match(table, /8 of 10 cases passed\./);
    // What to fix comes first: the one problem once, with its fix and where it came, above the table.
    assert.match(
      table,
      /^\*\*What to fix\*\*: 1 problem fails 2 of 10 cases\. 2 findings \(2 errors\)\.\n\n1\. ❌ `schema` `[^`]+`: [^\n]*buttton[^\n]*[^.]\. Fix: [^\n]+\(double-text on every channel\)\n/m,
    );
    assert.ok(table.indexOf('What to fix') < table.indexOf('| channel |'), 'above the table');
    const quiet = await runCli([typo.url], { env: { GITHUB_ACTIONS: undefined } });
    assert.ok(!quiet.stderr.includes('::error'), 'no workflow commands outside GitHub Actions');
  });

  test('the reproduce line under a failed turn sends exactly that request, naming the token variable', async () => {
    const result = await runCli([typo.url, '--json'], { env: { FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN } });
    const report = JSON.parse(result.stdout);
    const failed = report.cases.find((c: { passed: boolean }) => !c.passed);
    const command: string = failed.findings[0].reproduce;
    assert.ok(command.includes('-H "authorization: Bearer $FLOW_FRAMEWORK_AGENT_TOKEN"'));
    assert.ok(!command.includes(TOKEN));
    assert.match(result.stderr, /reproduce \(double-text on whatsapp, turn 1\): curl -sS -i -X POST/);
    // The body the shell would send is the request, byte for byte.
    const quoted = command.slice(command.indexOf("--data-raw '") + '--data-raw '.length);
    const sent = execFileSync('sh', ['-c', `printf %s ${quoted}`], { encoding: 'utf8' });
    assert.deepEqual(JSON.parse(sent), failed.turns[0].request);
    assert.equal(execFileSync('sh', ['-c', `printf %s ${shellQuote("it's a 'quote'")}`], { encoding: 'utf8' }), "it's a 'quote'");
    // Passing turns carry no reproduce line.
    assert.ok(
      report.cases
        .filter((c: { passed: boolean }) => c.passed)
        .every((c: { findings: { reproduce: unknown }[] }) => c.findings.every((f) => f.reproduce === null)),
    );
  });

  test('--strict: warnings fail the run', async () => {
    assert.equal((await runCli([silent.url, '--case', 'typed'])).code, 0);
    assert.equal((await runCli([silent.url, '--case', 'typed', '--strict'])).code, 1);
  });

  test('--strict in GitHub Actions: the warnings that failed the job are ::error, and their cell names the rule', async () => {
    const summary = join(tmp, 'strict-summary.md');
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
    const loose = await runCli([silent.url, '--case', 'typed'], { env: { ...env, GITHUB_STEP_SUMMARY: join(tmp, 'loose-summary.md') } });
    const looseLevels = loose.stderr
      .split('\n')
      .filter((line) => line.startsWith('::'))
      .map((line) => line.slice(0, line.indexOf(' ')));
    assert.deepEqual([...new Set(looseLevels)], ['::warning'], 'without --strict a warning is a warning');
    const strict = await runCli([silent.url, '--case', 'typed', '--strict'], { env });
    assert.equal(strict.code, 1);
    const annotations = strict.stderr.split('\n').filter((line) => line.startsWith('::'));
    assert.ok(annotations.length > 0);
    assert.ok(
      annotations.every((line) => line.startsWith('::error ')),
      annotations.join('\n'),
    );
    const rule = /problem 1%3A ([a-z/-]+)::/.exec(annotations[0]!)?.[1];
    assert.ok(rule, annotations[0]);
    assert.match(readFileSync(summary, 'utf8'), new RegExp(`\\| whatsapp \\| ❌ ${rule} \\(warnings, --strict\\) \\|`));
  });

  test('no stray files: without report flags a run writes only its record, .check-endpoint/last-run.json, where it runs', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'check-endpoint-cwd-'));
    try {
      assert.equal((await runCli([typo.url], { cwd, env: { GITHUB_ACTIONS: undefined } })).code, 1);
      assert.equal((await runCli([silent.url, '--case', 'typed', '--json'], { cwd })).code, 0);
      assert.deepEqual(readdirSync(cwd), ['.check-endpoint'], 'nothing else written in the working directory');
      assert.deepEqual(readdirSync(join(cwd, '.check-endpoint')).sort(), ['.gitignore', 'last-run.json']);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('the token, with every output and report written', () => {
  let hostile: HostileServer;
  before(async () => {
    hostile = await startHostileServer();
  });
  after(async () => {
    await hostile.close();
  });

  const runs: {
    what: string;
    url: () => string;
    args: (dir: string) => string[];
    extraFiles: (dir: string) => string[];
    exits: number[];
  }[] = [
    {
      what: 'a failing agent on two channels, with --junit and --har files beside --report-dir',
      url: () => typo.url,
      args: (dir) => ['--channel', 'whatsapp', '--channel', 'sms', '--junit', join(dir, 'extra.xml'), '--har', join(dir, 'extra.har')],
      extraFiles: (dir) => [join(dir, 'extra.xml'), join(dir, 'extra.har')],
      exits: [1],
    },
    // Timeouts, resets, a redirect, a bad body, a deep one, a flood and no HTTP: the error paths of the report.
    ...['/silent', '/reset', '/redirect-307', '/bom', '/deep', '/many-replies', '/garbage'].map((path) => ({
      what: `the hostile agent's ${path}`,
      url: () => `${hostile.origin}${path}`,
      args: () => ['--agent-timeout', '0.5'],
      extraFiles: () => [],
      exits: [1, 2],
    })),
  ];

  for (const [index, run] of runs.entries()) {
    test(`${run.what}: no output, no report file and no step summary holds it`, async () => {
      const dir = join(tmp, `token-${index}`);
      const reports = join(dir, 'reports');
      const summary = join(dir, 'summary.md');
      const sentBefore = hostile.received.length;
      const result = await runCli(
        [run.url(), '--json', '--report-dir', reports, '--html', join(reports, 'report.html'), ...run.args(dir)],
        {
          env: { FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
        },
      );
      assert.ok(run.exits.includes(result.code ?? -1), `expected exit ${run.exits.join(' or ')}, got ${result.code}: ${result.stderr}`);
      assert.ok(!result.stdout.includes(TOKEN), 'stdout');
      assert.ok(!result.stderr.includes(TOKEN), 'stderr');
      assert.deepEqual(readdirSync(reports).sort(), REPORT_DIR_FILES);
      assert.ok(['junit.xml', 'report.html', 'report.json', 'traffic.har'].every((file) => readdirSync(reports).includes(file)));
      for (const file of [...readdirSync(reports).map((name) => join(reports, name)), ...run.extraFiles(dir), summary]) {
        assert.ok(!readFileSync(file, 'utf8').includes(TOKEN), `${file} holds the token`);
      }
      if (run.url().startsWith(hostile.origin)) {
        assert.ok(
          hostile.received.slice(sentBefore).some((head) => head.includes(`Bearer ${TOKEN}`)),
          'the token was sent to the agent',
        );
      }
    });
  }
});

describe('the reply a finding points into', () => {
  test('replyIndex reads /replies/N at the start of a pointer, and nothing else', () => {
    const cases: [string, number | null][] = [
      ['/replies/0', 0],
      ['/replies/12/text', 12],
      ['/replies/007/buttons/1', 7],
      ['/replies', null],
      ['/replies/', null],
      ['/replies/x', null],
      ['/replies/1x', null],
      ['/replies/-1', null],
      ['', null],
      ['/other/1', null],
      ['/replies/3~1/text', null],
    ];
    for (const [path, index] of cases) assert.equal(replyIndex(path), index, path);
  });
});
