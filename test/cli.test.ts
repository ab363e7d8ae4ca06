import assert from 'node:assert/strict';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAjv } from '../src/contract/ajv.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { BROKEN_AGENTS } from '../fixtures/agents/catalogue.js';
import { ROOT, runCli, runCommand, freePort } from './helpers.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { CHANNELS, FIXED_CASE_IDS, onlyOf } from './contract-ids.js';
const ALL_CASES = CHANNELS.length * FIXED_CASE_IDS.length;

const reportSchema = JSON.parse(readFileSync(join(ROOT, 'spec/report.schema.json'), 'utf8'));
const ajv = createAjv();
const validateReport = ajv.compile(reportSchema);
const validateValidateReport = ajv.getSchema(`${reportSchema.$id}#/$defs/validateReport`)!;

let reference: RunningAgent;
let typo: RunningAgent;
let recordedAuthorization: (string | undefined)[] = [];
let tokenAgent: RunningAgent;
let tmp: string;

before(async () => {
  reference = await startReferenceAgent();
  typo = await serveAgent(BROKEN_AGENTS.find((agent) => agent.name === 'typo-buttton-on-double-text')!.handler);
  tokenAgent = await serveAgent((request, raw) => {
    recordedAuthorization.push(raw.headers.authorization);
    return { replies: [{ type: 'message', text: 'hello' }] };
  });
  tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-cli-'));
});

after(async () => {
  await Promise.all([reference.close(), typo.close(), tokenAgent.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

describe('check-endpoint <url>', () => {
  test('a conformant agent on every channel: exit 0 and the closing line', async () => {
    const result = await runCli([reference.url, '--channel', 'all']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^PASS {2}typed +whatsapp +1 turn +\d+ ms$/m);
    assert.equal(result.stdout.match(/^PASS /gm)?.length, ALL_CASES);
    assert.match(result.stdout, new RegExp(`^${ALL_CASES} of ${ALL_CASES} cases passed\\.$`, 'm'));
  });

  test('a broken agent: exit 1, the failed case with rule, pointer, hint and reply', async () => {
    const result = await runCli([typo.url]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^FAIL {2}double-text .* problem 1 \(turn 1\)$/m);
    assert.match(result.stdout, /^problem 1 {2}✗ schema {2}\/replies\/0\/buttton {2}unknown property "buttton"/m);
    assert.match(result.stdout, /hint: did you mean "buttons"\?/);
    assert.match(result.stdout, /reply: \{"type":"message","text":"Which size\?","buttton":\["Small","Large"\]\}/);
    assert.match(result.stdout, /^4 of 5 cases passed\.$/m);
  });

  test('--json: one JSON document on stdout that matches spec/report.schema.json; human lines on stderr', async () => {
    const result = await runCli([typo.url, '--json', '--channel', 'whatsapp', '--channel', 'matrix']);
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as Record<string, any>;
    assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
    assert.equal(report.outcome, 'failed');
    assert.equal(report.exitCode, 1);
    assert.deepEqual(report.channels, [
      { name: 'whatsapp', title: 'WhatsApp', limits: 'spec' },
      { name: 'matrix', title: null, limits: 'none' },
    ]);
    const failed = report.cases.filter((c: { passed: boolean }) => !c.passed);
    assert.deepEqual(
      failed.map((c: { channel: string; id: string }) => `${c.channel}/${c.id}`),
      ['whatsapp/double-text', 'matrix/double-text'],
    );
    const { reproduce, problem, ...finding } = failed[0].findings[0];
    assert.match(problem, /^schema-[0-9a-f]{8}$/, 'the id of its problem');
    assert.deepEqual(
      report.problems.map((entry: { id: string; number: number }) => [entry.id, entry.number]),
      [[problem, 1]],
    );
    assert.match(
      reproduce,
      /^curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/agent' -H 'content-type: application\/json' --data-raw '\{"conversationId":/,
    );
    assert.deepEqual(finding, {
      rule: 'schema',
      severity: 'error',
      message: 'unknown property "buttton"; allowed here: type, text, buttons, list, link, image, replyTo',
      path: '/replies/0/buttton',
      hint: 'did you mean "buttons"?',
      turn: 0,
      reply: 0,
    });
    assert.match(
      result.stderr,
      /^WARNING: channel "matrix" is no platform the contract knows and has no display limits: ONLY THE SCHEMA is checked on it/m,
    );
    assert.match(result.stderr, /^8 of 10 cases passed\. Only the schema was checked on matrix: no display limits are known for it\.$/m);
  });

  test('the token is sent as a bearer token and printed nowhere', async () => {
    const token = 'sk-test-7f3c9a1e5b';
    recordedAuthorization = [];
    const result = await runCli([tokenAgent.url, '--json', '--token-env', 'MY_AGENT_TOKEN'], { env: { MY_AGENT_TOKEN: token } });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(recordedAuthorization.length >= 7);
    assert.ok(recordedAuthorization.every((value) => value === `Bearer ${token}`));
    assert.ok(!result.stdout.includes(token) && !result.stderr.includes(token));
    assert.match(result.stderr, /token: MY_AGENT_TOKEN from the environment/);
  });

  test('an unreachable agent: exit 2 with "Could not reach your agent at <url>" and the reason', async () => {
    const url = `http://127.0.0.1:${await freePort()}/agent`;
    const result = await runCli([url, '--json']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`Could not reach your agent at ${url.replace(/[.]/g, '\\.')}: connection refused`));
    const report = JSON.parse(result.stdout) as Record<string, any>;
    assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
    assert.equal(report.outcome, 'error');
    assert.equal(report.exitCode, 2);
  });

  test('--spec loads another contract file; a broken one exits 2 naming the file and the parser message', async () => {
    const good = await runCli([reference.url, '--spec', 'spec/agent-endpoint.openapi.yaml', '--case', 'typed']);
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stdout, /contract 1\.0 \(spec\/agent-endpoint\.openapi\.yaml\)/);
    const broken = join(tmp, 'broken.yaml');
    writeFileSync(broken, 'openapi: 3.1.0\ninfo: [unclosed\n');
    const result = await runCli([reference.url, '--spec', broken]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`check-endpoint: ${broken.replace(/[.]/g, '\\.')}: `));
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  });

  test('a --spec file whose aliases expand without bound (billion laughs): exit 2 at its line, nothing sent', async () => {
    const folder = join(tmp, 'bomb-spec');
    mkdirSync(folder, { recursive: true });
    for (const file of readdirSync('spec')) copyFileSync(join('spec', file), join(folder, file));
    const levels = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (const [index, name] of [...'bcdefghi'].entries())
      levels.push(`${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[index]}`).join(', ')}]`);
    const spec = readFileSync('spec/agent-endpoint.openapi.yaml', 'utf8');
    const bomb = join(folder, 'agent-endpoint.openapi.yaml');
    writeFileSync(bomb, `${spec}\nx-bomb:\n${levels.map((line) => `  ${line}`).join('\n')}\n`);
    const line = spec.split('\n').length + 2 + 1; // the first alias, in the level after the anchor's
    const result = await runCli([reference.url, '--spec', bomb, '--case', 'typed']);
    assert.equal(result.code, 2, result.stderr);
    assert.ok(
      result.stderr.includes(
        `${bomb}:${line}: its aliases (*name) stand for more than 100 copies of what they name (the "billion laughs" shape)`,
      ),
      result.stderr,
    );
  });

  const badCommandLines: [string, string[], RegExp][] = [
    ['no URL', [], /give the URL of your agent: node bin\/check-endpoint\.cjs <url> \[flags\]/],
    ['an unknown flag', ['http://127.0.0.1:1/', '--chanel', 'sms'], /unknown flag --chanel; did you mean --channel\?/],
    ['a bad channel name', ['http://127.0.0.1:1/', '--channel', 'Matrix!'], /"Matrix!" is not a channel name/],
    [
      'an unknown case',
      ['http://127.0.0.1:1/', '--case', 'typo'],
      /--case typo is not one of typed, double-text, photo, button-tap, no-reply, voice-note, document, video, quote-own, explore, quality\/auth/,
    ],
    ['a negative timeout', ['http://127.0.0.1:1/', '--agent-timeout', '-5'], /--agent-timeout must be a positive number; got -5/],
    ['a non-numeric timeout', ['http://127.0.0.1:1/', '--agent-timeout', 'soon'], /--agent-timeout needs a number \(SECONDS\); got "soon"/],
    ['a zero concurrency', ['http://127.0.0.1:1/', '--concurrency', '0'], /--concurrency must be a positive whole number/],
    ['a scheme other than http', ['ftp://127.0.0.1/agent'], /scheme is ftp; check-endpoint speaks http and https only/],
    [
      'credentials in the URL',
      ['http://user:pass@127.0.0.1/agent'],
      /credentials in it .* FLOW_FRAMEWORK_AGENT_TOKEN environment variable/,
    ],
    ['not a URL', ['localhost-agent'], /"localhost-agent" is not a URL/],
    [
      'an empty token variable',
      ['http://127.0.0.1:1/', '--token-env', 'EMPTY_TOKEN'],
      /--token-env names EMPTY_TOKEN, but that environment variable is empty/,
    ],
    ['an empty --token-env', ['http://127.0.0.1:1/', '--token-env', ''], /--token-env needs the name of an environment variable/],
    [
      'a token with a line break',
      ['http://127.0.0.1:1/', '--token-env', 'NEWLINE_TOKEN'],
      /NEWLINE_TOKEN holds a line break or a character an HTTP header cannot carry/,
    ],
    [
      'a timeout longer than a timer holds',
      ['http://127.0.0.1:1/', '--agent-timeout', '1e9'],
      /--agent-timeout must be at most 2147483; got 1000000000/,
    ],
  ];
  for (const [what, args, message] of badCommandLines) {
    test(`${what}: exit 2 with one clear line`, async () => {
      const result = await runCli(args, { env: { EMPTY_TOKEN: '', NEWLINE_TOKEN: 'secret-value-9\n' } });
      assert.ok(!result.stderr.includes('secret-value-9'), 'the token is not printed');
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(result.stderr, message);
      assert.match(result.stderr, /^check-endpoint: /);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(result.stdout, '');
    });
  }

  test('--help teaches: every flag, the exit codes and examples', async () => {
    const result = await runCli(['--help']);
    assert.equal(result.code, 0);
    for (const flag of [
      '--channel',
      '--case',
      '--token-env',
      '--agent-timeout',
      '--concurrency',
      '--json',
      '--spec',
      '--limits',
      '--strict',
      '--max-body',
      '--version',
    ]) {
      assert.ok(result.stdout.includes(flag), flag);
    }
    assert.match(
      result.stdout.replace(/\n/g, ' '),
      /Exit codes: 0 every case passed, 1 a case failed .* 2 the check could not run, or a report file asked for could not be written .* 130 \/ 143 interrupted/,
    );
    assert.match(result.stdout, /Examples:/);
    assert.match(result.stdout, /validate \[FILE\|-\]/);
    assert.match(result.stdout, /serve-example/);
  });

  test('--version prints the package version', async () => {
    const result = await runCli(['--version']);
    assert.equal(result.code, 0);
    assert.equal(result.stdout.trim(), JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  test('colour follows FORCE_COLOR and NO_COLOR', async () => {
    const forced = await runCli([reference.url, '--case', 'typed'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    assert.match(forced.stdout, /\u001b\[/);
    const plain = await runCli([reference.url, '--case', 'typed'], { env: { NO_COLOR: '1' } });
    assert.doesNotMatch(plain.stdout, /\u001b\[/);
  });
});

describe('check-endpoint validate', () => {
  const write = (name: string, content: string): string => {
    const file = join(tmp, name);
    writeFileSync(file, content);
    return file;
  };

  test('a valid answer: exit 0', async () => {
    const file = write('valid.json', JSON.stringify({ replies: [{ type: 'message', text: 'hi', buttons: ['Yes', 'No'] }] }));
    const result = await runCli(['validate', file, '--channel', 'whatsapp']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^VALID {4}whatsapp/m);
  });

  test('findings: exit 1 per channel, with the JSON report matching its schema', async () => {
    const file = write('buttons.json', JSON.stringify({ replies: [{ type: 'message', text: 'hi', buttons: ['Yes', 'No'] }] }));
    const result = await runCli(['validate', file, '--channel', 'all', '--json']);
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as Record<string, any>;
    assert.ok(validateValidateReport(report), JSON.stringify(validateValidateReport.errors));
    const results = report.results.map((r: { channel: string; valid: boolean }) => `${r.channel}:${r.valid}`) as string[];
    assert.deepEqual(
      onlyOf(results, ['whatsapp', 'sms', 'imessage', 'telegram', 'web'], (result) => result.split(':')[0]!),
      ['whatsapp:true', 'sms:false', 'imessage:false', 'telegram:true', 'web:true'],
    );
    // Every platform of the contract, in its order: two buttons are valid where its platform shows buttons.
    assert.deepEqual(
      results,
      CHANNELS.map((channel) => `${channel}:${bundledContract().platforms[channel]!.buttons?.support === 'yes'}`),
    );
    assert.equal(report.referencesChecked, false);
    assert.match(result.stderr, /SMS shows no buttons, so this reply is not sent/);
  });

  test('standard input, references, and a custom channel with a limits file', async () => {
    const limits = write('matrix.json', JSON.stringify({ title: 'Matrix', counting: 'codepoints', text: { maxLength: 5 } }));
    const answer = JSON.stringify({ replies: [{ type: 'message', text: 'too long', replyTo: 'p9' }] });
    const result = await runCli(['validate', '-', '--channel', 'matrix', '--limits', `matrix=${limits}`, '--person-message-id', 'p1'], {
      input: answer,
    });
    assert.equal(result.code, 1);
    assert.match(
      result.stdout,
      /✗ platform {2}\/replies\/0\/text {2}the text is 8 characters \(Unicode code points\) long; Matrix shows at most 5/,
    );
    assert.match(result.stdout, /✗ reference {2}\/replies\/0\/replyTo/);
    const schemaOnly = await runCli(['validate', '-', '--channel', 'matrix'], { input: answer });
    assert.equal(schemaOnly.code, 0);
    assert.match(schemaOnly.stdout, /WARNING: channel "matrix" has no known display limits: ONLY THE SCHEMA was checked/);
    assert.match(schemaOnly.stdout, /references \(replyTo, reaction messageId\) were not checked/);
  });

  test('the digest: the same problem in every reply and on every channel is said once, each verdict naming it by number', async () => {
    const reply = (text: string) => ({ type: 'message', text, image: null, quickReplies: [] });
    const six = write('six.json', JSON.stringify({ replies: ['a', 'b', 'c', 'd', 'e', 'f'].map(reply) }));
    const result = await runCli(['validate', six, '--channel', 'all']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, new RegExp(`^2 problems in \\S*six\\.json \\(${12 * CHANNELS.length} findings\\)\\.$`, 'm'));
    assert.match(
      result.stdout,
      /^problem 1 {2}✗ schema {2}\/replies\/\* {2}image is null; a property with no value is left out, never null$/m,
    );
    assert.match(result.stdout, /^problem 2 {2}✗ schema {2}\/replies\/\*\/quickReplies {2}unknown property "quickReplies"/m);
    assert.equal(result.stdout.split('hint: Leave out a property that has no value').length - 1, 1, 'the hint once');
    assert.equal(result.stdout.split('hint: Remove it').length - 1, 1, 'the hint once');
    assert.match(result.stdout, new RegExp(`^ {6}${6 * CHANNELS.length} findings on every channel asked$`, 'm'));
    assert.match(result.stdout, /^INVALID {2}whatsapp {2}\S*six\.json {2}problems 1, 2$/m);
    assert.ok(result.stdout.indexOf('problem 2 ') < result.stdout.indexOf('INVALID'), 'the digest first');
    const json = await runCli(['validate', six, '--channel', 'all', '--json']);
    const report = JSON.parse(json.stdout) as { problems: { id: string; findings: number; where: unknown[] }[] };
    assert.ok(validateValidateReport(report), JSON.stringify(validateValidateReport.errors));
    assert.deepEqual(
      report.problems.map((problem) => [problem.findings, problem.where.length]),
      [
        [6 * CHANNELS.length, CHANNELS.length],
        [6 * CHANNELS.length, CHANNELS.length],
      ],
    );
  });

  test('unusable input: exit 2 with a clear message', async () => {
    const notJson = write('not.json', '{"replies": [');
    const cases: [string[], RegExp][] = [
      [['validate', notJson], /not\.json: expected a JSON body; it does not parse/],
      [['validate', join(tmp, 'missing.json')], /missing\.json: no such file/],
      [['validate', notJson, '--limits', join(tmp, 'missing-limits.json')], /cannot read the limits file/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args);
      assert.equal(result.code, 2, result.stdout);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
    }
  });

  test('--json prints one validateReport on every exit: 0 and 1 with error null, 2 with error and no results', async () => {
    const valid = write('valid-json.json', JSON.stringify({ replies: [{ type: 'message', text: 'hi' }] }));
    const passed = await runCli(['validate', valid, '--json', '--person-message-id', 'p1']);
    assert.equal(passed.code, 0, passed.stderr);
    const report = JSON.parse(passed.stdout) as Record<string, unknown>;
    assert.ok(validateValidateReport(report), JSON.stringify(validateValidateReport.errors));
    assert.deepEqual([report.exitCode, report.error, report.referencesChecked], [0, null, true]);
    const invalid = await runCli(['validate', '-', '--json'], { input: '{"replies":[{"type":"message"}]}' });
    assert.equal(invalid.code, 1, invalid.stderr);
    const failed = JSON.parse(invalid.stdout) as Record<string, unknown>;
    assert.ok(validateValidateReport(failed), JSON.stringify(validateValidateReport.errors));
    assert.deepEqual([failed.exitCode, failed.error, failed.input], [1, null, 'standard input']);
  });

  test('--json on unreadable input (exit 2): one document naming the cause, the same words on stderr', async () => {
    const notJson = write('not-json.json', '{"replies": [');
    const notUtf8 = join(tmp, 'latin1.json');
    writeFileSync(notUtf8, Buffer.from('{"replies":[{"type":"message","text":"caf\xe9"}]}', 'latin1'));
    const valid = write('valid-for-errors.json', '{"replies":[]}');
    const badLimits = write('bad-limits.json', JSON.stringify({ title: 'Matrix', counting: 'furlongs' }));
    const badSpec = write('bad-spec.yaml', 'openapi: 3.1.0\ninfo: {}\n');
    // Sparse: one byte over the 64 MiB the command reads, taking no room on disk.
    const huge = join(tmp, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, 64 * 1024 * 1024 + 1);
    const cases: { what: string; args: string[]; input?: string | Buffer; message: RegExp; spec: 'loaded' | null }[] = [
      { what: 'a missing file', args: ['validate', join(tmp, 'missing.json')], message: /missing\.json: no such file/, spec: 'loaded' },
      { what: 'a folder', args: ['validate', tmp], message: /cannot read \S+: it is a folder; give a regular file/, spec: 'loaded' },
      {
        what: 'a non-UTF-8 file',
        args: ['validate', notUtf8],
        message: /latin1\.json: expected a UTF-8 JSON body; the body is not valid UTF-8/,
        spec: 'loaded',
      },
      {
        what: 'non-UTF-8 standard input',
        args: ['validate', '-'],
        input: Buffer.from([0x7b, 0xff, 0x7d]),
        message: /standard input: expected a UTF-8 JSON body/,
        spec: 'loaded',
      },
      {
        what: 'a body that is not JSON',
        args: ['validate', notJson],
        message: /not-json\.json: expected a JSON body; it does not parse/,
        spec: 'loaded',
      },
      { what: 'an unknown flag', args: ['validate', valid, '--bogus'], message: /unknown flag --bogus/, spec: null },
      { what: 'a flag without its value', args: ['validate', valid, '--channel'], message: /--channel needs a value/, spec: null },
      { what: 'two files', args: ['validate', valid, valid], message: /answer FILE/, spec: null },
      { what: 'a channel typo', args: ['validate', valid, '--channel', 'whatsap'], message: /did you mean whatsapp\?/, spec: 'loaded' },
      {
        what: 'a missing --limits file',
        args: ['validate', valid, '--channel', 'matrix', '--limits', `matrix=${join(tmp, 'missing-limits.json')}`],
        message: /cannot read the limits file/,
        spec: 'loaded',
      },
      {
        what: 'a --limits file that breaks its schema',
        args: ['validate', valid, '--channel', 'matrix', '--limits', `matrix=${badLimits}`],
        message: /bad-limits\.json/,
        spec: 'loaded',
      },
      { what: 'a bad --spec file', args: ['validate', valid, '--spec', badSpec], message: /bad-spec\.yaml/, spec: null },
    ];
    for (const { what, args, input, message, spec } of cases) {
      const result = await runCli(['validate', '--json', ...args.slice(1)], input === undefined ? {} : { input });
      assert.equal(result.code, 2, `${what}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, message, what);
      assert.doesNotMatch(result.stderr, /\n\s+at |internal error/, what);
      const report = JSON.parse(result.stdout) as { exitCode: number; error: { message: string }; results: unknown[]; spec: unknown };
      assert.ok(validateValidateReport(report), `${what}: ${JSON.stringify(validateValidateReport.errors)}`);
      assert.equal(report.exitCode, 2, what);
      assert.deepEqual(report.results, [], what);
      assert.match(report.error.message, message, what);
      assert.ok(result.stderr.includes(report.error.message), `${what}: stderr says what the report says`);
      assert.equal(report.spec === null ? null : 'loaded', spec, what);
    }
  });
});

describe('the code cache the command starts with', () => {
  const copies: string[] = [];
  after(() => {
    for (const folder of copies) rmSync(folder, { recursive: true, force: true });
  });

  /** A copy of the built command with its cache as given, run on a sample answer. */
  async function runWithCache(cache: Buffer | undefined): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const copy = mkdtempSync(join(tmpdir(), 'check-endpoint-cache-'));
    copies.push(copy);
    cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
    mkdirSync(join(copy, 'dist'));
    copyFileSync(join(ROOT, 'dist/cli.cjs'), join(copy, 'dist/cli.cjs'));
    if (cache) writeFileSync(join(copy, 'dist/cli.cache'), cache);
    copyFileSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const answer = join(ROOT, 'fixtures/answers/whatsapp-text-reply.json');
    return runCommand(process.execPath, [join(copy, 'bin/check-endpoint.cjs'), 'validate', answer, '--channel', 'whatsapp'], {
      env: { ...process.env, CHECK_ENDPOINT_DEBUG: '1', NO_COLOR: '1' },
    });
  }

  test('the build wrote one, and this Node takes it', async () => {
    const built = readFileSync(join(ROOT, 'dist/cli.cache'));
    const result = await runWithCache(built);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^check-endpoint: code cache used$/m);
  });

  /** The built-in modules a check that passes loads (test/loaded-builtins.cjs lists them), run in `tmp`. */
  async function builtinsLoadedBy(args: string[]): Promise<string[]> {
    const listFile = join(tmp, 'loaded-builtins.txt');
    const result = await runCommand(
      process.execPath,
      ['-r', join(ROOT, 'test/loaded-builtins.cjs'), join(ROOT, 'bin/check-endpoint.cjs'), ...args],
      {
        env: { ...process.env, LOADED_BUILTINS_FILE: listFile, NO_COLOR: '1' },
        cwd: tmp,
      },
    );
    assert.equal(result.code, 0, result.stderr);
    const loaded = readFileSync(listFile, 'utf8').split('\n');
    assert.ok(loaded.includes('node:http'), 'the list is read: the check loaded node:http');
    return loaded;
  }

  test("a check starts no process, so it loads neither node:child_process nor node:readline: --start, --watch, chat's --open and git load them when they run", async () => {
    const loaded = await builtinsLoadedBy([reference.url, '--channel', 'all']);
    for (const unneeded of ['node:child_process', 'node:readline']) assert.equal(loaded.includes(unneeded), false, unneeded);
  });

  test('an explore run that passes digests no file, so loads no node:crypto; a check with the photo case digests it, and does', async () => {
    // 100 turns reach the message shapes' photo, voice note, video and document.
    const explored = await builtinsLoadedBy([reference.url, '--case', 'explore', '--explore-turns', '100', '--seed', '1']);
    assert.equal(explored.includes('node:crypto'), false);
    assert.ok((await builtinsLoadedBy([reference.url, '--case', 'photo'])).includes('node:crypto'), 'the photo case records its digest');
  });

  test('without one, or with one V8 refuses (garbage, cut short), the command runs the same, only slower', async () => {
    const built = readFileSync(join(ROOT, 'dist/cli.cache'));
    const cases: [string, Buffer | undefined, string][] = [
      ['missing', undefined, 'missing'],
      ['garbage', Buffer.alloc(built.length, 7), 'rejected'],
      ['cut short', built.subarray(0, Math.floor(built.length / 2)), 'rejected'],
      ['empty', Buffer.alloc(0), 'rejected'],
    ];
    for (const [what, cache, state] of cases) {
      const result = await runWithCache(cache);
      assert.equal(result.code, 0, `${what}: ${result.stderr}`);
      assert.match(result.stderr, new RegExp(`^check-endpoint: code cache ${state}$`, 'm'), what);
      assert.match(result.stdout, /^VALID /m, what);
    }
  });
});
