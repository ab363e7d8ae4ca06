/**
 * Every input the tool reads, generated and mutated from valid ones with fast-check (fixed seeds,
 * so a failure replays): a scenario file, a .env file, a baseline, the last run's record, a config
 * file, the command line, an agent's answer for validate, and a --spec contract. Each reader ends
 * with a value or a UsageError (or ContractError) naming the file or flag: never another error,
 * which the command prints as `internal error`. Then the built command itself, on a few mutated
 * files: exit 0, 1 or 2, a message naming the file, never `internal error`, within a hard timeout.
 * Bounded memory: every mutated input is at most a few hundred kilobytes, and a reader that grew
 * without bound would time the test out. The counts of inputs tried are the numRuns below.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { UsageError } from '../src/core/usage-error.js';
import { ContractError } from '../src/contract/contract-error.js';
import { loadContractFile, loadLimitsFile } from '../src/contract/load-contract.js';
import { parseScenarioFile } from '../src/scenario-files/parse-scenario-file.js';
import { readScenarioFolder } from '../src/scenario-files/read-scenario-files.js';
import { parseDotenv, readDotenv } from '../src/run/dotenv.js';
import { parseBaseline } from '../src/run/baseline.js';
import { parseLastRun, readLastRunSync } from '../src/commands/last-run-file.js';
import { readConfigFile } from '../src/cli/config-file.js';
import { parseCommandLine } from '../src/cli/parse.js';
import { parseJsonText } from '../src/commands/read-json-file.js';
import { checkEndpoint, validateAnswer } from '../src/index.js';
import { lastRunRecord } from '../src/report/last-run.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { serveAgent } from '../src/example-agent/serve-agent.js';
import { caseSettingsOf } from '../src/commands/case-setting-flag.js';
import { markdownIn } from '../src/platforms/markdown.js';
import { TEXT_SIGN_PATTERNS, answeringStack } from '../src/validate/answering-stack.js';
import { forTerminal } from '../src/report/escape.js';
import { formatReport, githubAnnotations, githubStepSummary, renderHtmlReport, renderJunit } from '../src/reports.js';
import { AUTOLINKED, HOSTILE as HOSTILE_TEXT, outsideCodeSpans } from './hostile-strings.js';
import { ROOT, runCli } from './helpers.js';

/** A character no human output shows raw: controls (but the line break), separators, bidi and zero-width ones. */
const INVISIBLE_IN_OUTPUT = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200b\u202c\u202e]/u;

/** Inputs tried per reader in-process, and per file kind through the built command. */
const RUNS = 200;
const CLI_RUNS = 6;
const SEED = 20261206;

/** Snippets a hostile or careless file holds: YAML anchors and aliases, deep nesting, control characters, huge numbers, prototype keys. */
const HOSTILE = [
  '&a [x, x, x]',
  '*a',
  '<<: *a',
  '{'.repeat(200),
  '['.repeat(2000),
  '\u0000',
  '\u202e',
  '\ufeff',
  '"\\ud800"',
  '1e400',
  '-0',
  '__proto__',
  '"constructor": {"prototype": {}}',
  '\r\n',
  '\t',
  '---\n',
  '%YAML 1.1\n',
  '!!binary',
  '${PATH}',
  'x'.repeat(100_000),
  '"',
  "'",
  ': ',
  '- ',
  '#',
  '=',
  'null',
  'true',
  '[]',
  '{}',
];

type Mutation =
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate'; at: number; length: number }
  | { kind: 'replace'; at: number; text: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 20 })),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: fc.string({ unit: 'binary', maxLength: 3 }) }),
);

function mutate(text: string, mutations: readonly Mutation[]): string {
  let out = text;
  for (const step of mutations) {
    const at = out.length === 0 ? 0 : step.at % (out.length + 1);
    if (step.kind === 'insert') out = out.slice(0, at) + step.text + out.slice(at);
    else if (step.kind === 'delete') out = out.slice(0, at) + out.slice(at + step.length);
    else if (step.kind === 'duplicate') out = out.slice(0, at + step.length) + out.slice(at, at + step.length) + out.slice(at);
    else out = out.slice(0, at) + step.text + out.slice(at + step.text.length);
  }
  return out;
}

/** A text made from one of the valid ones: a few mutations, or none (the valid one itself must read too). */
function mutated(valid: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...valid), fc.array(mutation, { maxLength: 6 })).map(([base, mutations]) => mutate(base, mutations));
}

/** Runs `read`; a thrown error must be a UsageError (or ContractError) naming `named`. */
function readsOrNames(read: () => unknown, named: string): void {
  try {
    read();
  } catch (cause) {
    assertNamed(cause, named);
  }
}

function assertNamed(cause: unknown, named: string): void {
  if (!(cause instanceof UsageError || cause instanceof ContractError)) throw cause;
  assert.ok(cause.message.includes(named), `the message names ${named}: ${cause.message}`);
}

const property = { seed: SEED, numRuns: RUNS, endOnFailure: true };

let dir: string;
let recordText: string;
/** The reference agent: a check that reads a file fine then passes, so an exit 2 is the file's. */
let agent: Awaited<ReturnType<typeof startReferenceAgent>>;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'check-endpoint-fuzz-'));
  agent = await startReferenceAgent();
  recordText = JSON.stringify(lastRunRecord(await checkEndpoint(agent.url, { env: {}, cases: ['typed', 'double-text'] }), new Date()));
});
after(async () => {
  await agent.close();
  rmSync(dir, { recursive: true, force: true });
});

const SCENARIOS = readdirSync(join(ROOT, 'fixtures/scenarios/valid')).map((file) =>
  readFileSync(join(ROOT, 'fixtures/scenarios/valid', file), 'utf8'),
);
const DOTENV = ['FLOW_FRAMEWORK_AGENT_TOKEN=abc\n# a comment\nexport OTHER="two words"\nMULTI="line one\nline two"\n'];
const BASELINE = ['# expected failures\nphoto\nwhatsapp/double-text:schema\nquality/malformed:malformed\n'];
const CONFIG = [
  JSON.stringify({ url: 'http://127.0.0.1:8080/agent', channel: ['whatsapp', 'sms'], quality: true, timeout: 30 }, null, 2),
  JSON.stringify({ case: ['typed', 'photo'], header: ['x-team: cafe'], strict: true }),
];
const ANSWERS = [
  JSON.stringify({ replies: [{ type: 'message', text: 'Hi! What can I get you?', buttons: ['Latte', 'Tea'] }] }),
  JSON.stringify({ replies: [{ type: 'message', text: 'Pick one', list: { button: 'Menu', rows: [{ id: 'a', title: 'Latte' }] } }] }),
  JSON.stringify({
    replies: [
      { type: 'reaction', emoji: '👍', replyTo: 'p1' },
      { type: 'message', text: 'Done', replyTo: 'p1' },
    ],
  }),
];
const FLAGS = [
  '--channel',
  'whatsapp',
  'all',
  '--case',
  'typed',
  'quality/malformed',
  '--quality',
  '--extended',
  '--strict',
  '--timeout',
  '30',
  '--runs',
  '3',
  '--header',
  'x-a: b',
  '--header-env',
  'X_A',
  '--json',
  '--quiet',
  '--report-dir',
  'out',
  '--baseline',
  'b.txt',
  '--token-env',
  'TOKEN',
  '--scenarios',
  'tests/scenarios',
  '--spec',
  'spec.yaml',
  'http://127.0.0.1:8080/agent',
  'validate',
  'limits',
  'scenarios',
  '--lint',
  'show',
  '--failed',
  '--',
  '-',
];

describe('every input the tool reads, fuzzed from valid ones (fast-check, seed fixed)', () => {
  test(`a scenario file: always a checked file, its problems at a line of the file (${RUNS} inputs)`, () => {
    fc.assert(
      fc.property(mutated(SCENARIOS), (text) => {
        const checked = parseScenarioFile(text, { file: 'tests/scenarios/fuzz.yaml', expectedId: 'fuzz', channels: ['whatsapp', 'sms'] });
        for (const problem of checked.problems) {
          assert.equal(problem.file, 'tests/scenarios/fuzz.yaml');
          assert.ok(Number.isInteger(problem.line) && problem.line >= 1, JSON.stringify(problem));
          assert.ok(problem.message.length > 0);
        }
      }),
      property,
    );
  });

  test(`a .env file (${RUNS} inputs)`, () => {
    fc.assert(
      fc.property(mutated(DOTENV), (text) => readsOrNames(() => parseDotenv(text, 'fuzz.env'), 'fuzz.env')),
      property,
    );
  });

  test(`a baseline (${RUNS} inputs)`, () => {
    fc.assert(
      fc.property(mutated(BASELINE), (text) => readsOrNames(() => parseBaseline(text, 'fuzz-baseline.txt'), 'fuzz-baseline.txt')),
      property,
    );
  });

  test(`the last run's record (${RUNS} inputs)`, () => {
    fc.assert(
      fc.property(
        fc.constant(null).chain(() => mutated([recordText])),
        (text) => readsOrNames(() => parseLastRun(text, 'fuzz-last-run.json'), 'fuzz-last-run.json'),
      ),
      property,
    );
  });

  test(`a config file (${RUNS} inputs)`, () => {
    const file = join(dir, 'fuzz.config.json');
    fc.assert(
      fc.property(mutated(CONFIG), (text) => {
        writeFileSync(file, text);
        readsOrNames(() => readConfigFile(file, dir), 'fuzz.config.json');
      }),
      property,
    );
  });

  test(`the command line (${RUNS} inputs): a command, or a usage error`, () => {
    const argv = fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FLAGS) }, fc.string({ maxLength: 12 })), { maxLength: 8 });
    fc.assert(
      fc.property(argv, (args) => {
        try {
          parseCommandLine(args);
        } catch (cause) {
          if (!(cause instanceof UsageError)) throw cause;
          assert.ok(cause.message.length > 0);
        }
      }),
      property,
    );
  });

  test(`an answer for validate (${RUNS} inputs): findings, never a throw`, () => {
    fc.assert(
      fc.property(mutated(ANSWERS), fc.constantFrom('whatsapp', 'sms', 'imessage', 'telegram', 'web', 'custom'), (text, channel) => {
        let value: unknown;
        try {
          value = parseJsonText(text);
        } catch {
          return; // Not JSON: validate says so, naming the file (the built command's test below).
        }
        const findings = validateAnswer(value, { channel, personMessageIds: ['p1'] });
        for (const finding of findings) {
          assert.equal(typeof finding.message, 'string');
          assert.equal(typeof finding.path, 'string');
        }
      }),
      property,
    );
  });

  test('a --spec contract (40 inputs): a contract, or a contract error naming the file', async () => {
    const specDir = join(dir, 'spec');
    mkdirSync(specDir, { recursive: true });
    for (const file of readdirSync(join(ROOT, 'spec'))) copyFileSync(join(ROOT, 'spec', file), join(specDir, file));
    const openapi = readFileSync(join(ROOT, 'spec/agent-endpoint.openapi.yaml'), 'utf8');
    const file = join(specDir, 'fuzz.openapi.yaml');
    await fc.assert(
      fc.asyncProperty(mutated([openapi]), async (text) => {
        writeFileSync(file, text);
        try {
          await loadContractFile(file);
        } catch (cause) {
          assertNamed(cause, 'fuzz.openapi.yaml');
        }
      }),
      { ...property, numRuns: 40 },
    );
  });
});

describe('the built command on mutated files: exit 0, 1 or 2, naming the file, never internal error', () => {
  const sample = <T>(arbitrary: fc.Arbitrary<T>, count: number): T[] => fc.sample(arbitrary, { seed: SEED, numRuns: count });

  async function runs(args: string[], named: string): Promise<void> {
    const { code, stdout, stderr } = await runCli(args, { cwd: dir });
    assert.ok(code === 0 || code === 1 || code === 2, `exit ${code}: ${stderr}`);
    assert.doesNotMatch(stderr + stdout, /internal error/);
    if (code === 2) assert.ok(stderr.includes(named) || stdout.includes(named), `names ${named}: ${stderr}`);
  }

  test(`scenarios --lint on a folder of mutated scenario files (${CLI_RUNS} folders of 3)`, { timeout: 180_000 }, async () => {
    for (const [index, texts] of sample(fc.array(mutated(SCENARIOS), { minLength: 3, maxLength: 3 }), CLI_RUNS).entries()) {
      const folder = join(dir, `scenarios-${index}`);
      mkdirSync(folder, { recursive: true });
      texts.forEach((text, file) => writeFileSync(join(folder, `s${file}.yaml`), text));
      const { code, stdout, stderr } = await runCli(['scenarios', '--lint', folder], { cwd: dir });
      assert.ok(code === 0 || code === 1, `exit ${code}: ${stderr}`);
      assert.doesNotMatch(stderr + stdout, /internal error/);
    }
  });

  test(`validate on mutated answers (${CLI_RUNS} files)`, { timeout: 180_000 }, async () => {
    for (const [index, text] of sample(mutated(ANSWERS), CLI_RUNS).entries()) {
      const file = join(dir, `answer-${index}.json`);
      writeFileSync(file, text);
      await runs(['validate', file], `answer-${index}.json`);
    }
  });

  test(`a check with mutated --config, --baseline and --dotenv files (${CLI_RUNS} of each)`, { timeout: 240_000 }, async () => {
    const kinds: [string, readonly string[], (file: string) => string[]][] = [
      ['config.json', CONFIG, (file) => ['--config', file, agent.url, '--case', 'typed', '--no-dotenv']],
      ['baseline.txt', BASELINE, (file) => [agent.url, '--case', 'typed', '--baseline', file, '--no-config']],
      ['fuzz.env', DOTENV, (file) => [agent.url, '--case', 'typed', '--dotenv', file, '--no-config']],
    ];
    for (const [name, valid, args] of kinds) {
      for (const [index, text] of sample(mutated(valid), CLI_RUNS).entries()) {
        const file = join(dir, `${index}-${name}`);
        writeFileSync(file, text);
        await runs(args(file), `${index}-${name}`);
      }
    }
  });
});

/**
 * What issue 52's defects had in common, as properties: files that are devices, FIFOs or links;
 * prototype keys; dates at the ends of the range; adversarial text for every pattern run on an
 * answer (time-bounded); hostile strings through every output.
 */
describe('what hostile input round three had in common (fast-check, seed fixed)', () => {
  /** A file that is not a regular one, made at `path`: false where the platform has no such thing. */
  const ODD_FILES: Record<string, (path: string) => boolean> = {
    'a link to /dev/zero': (path) => existsSync('/dev/zero') && (symlinkSync('/dev/zero', path), true),
    'a FIFO': (path) => {
      try {
        execFileSync('mkfifo', [path]);
        return true;
      } catch {
        return false;
      }
    },
    'a link to itself': (path) => (symlinkSync(path, path), true),
    'a folder': (path) => (mkdirSync(path), true),
  };
  const READERS: Record<string, (file: string) => unknown> = {
    '--config': (file) => readConfigFile(file),
    '--dotenv': (file) => readDotenv(file),
    '--spec': (file) => loadContractFile(file),
    '--limits': (file) => loadLimitsFile(file),
  };

  test('every file reader, on a device, a FIFO, a link loop or a folder: an error naming the file, never a hang', async () => {
    let made = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(ODD_FILES)), fc.constantFrom(...Object.keys(READERS)), async (kind, reader) => {
        const path = join(dir, `odd-${made++}`);
        if (!ODD_FILES[kind]!(path)) return;
        try {
          await READERS[reader]!(path);
          assert.fail(`${reader} read ${kind}`);
        } catch (cause) {
          assertNamed(cause, path);
        }
      }),
      { ...property, numRuns: 40 },
    );
  });

  test('the record, a scenario file and --baseline, on a device, a FIFO, a link loop or a folder: a problem naming the file, never a hang', async () => {
    let made = 0;
    const handler = (request: Request): Response =>
      request.method !== 'POST' ? new Response(null, { status: 204 }) : Response.json({ replies: [] });
    const places: Record<string, { at(base: string): string; read(file: string, base: string): Promise<string> | string }> = {
      // What each reader says of it: a usage error's message, or the scenario file's problem, which names it as its file.
      'the record (--failed, show)': {
        at: (base) => join(base, '.check-endpoint', 'last-run.json'),
        read: (_, base) => {
          readLastRunSync(base);
          return 'read';
        },
      },
      'a scenario file (--scenarios, scenarios --lint)': {
        at: (base) => join(base, 'x.yaml'),
        read: (file, base) => {
          const [checked] = readScenarioFolder(base, ['web']).checked;
          assert.equal(checked?.problems[0]?.file, file);
          return checked.problems[0]!.message;
        },
      },
      '--baseline': {
        at: (base) => join(base, 'baseline.json'),
        read: async (file) => (await checkEndpoint(handler, { env: {}, baseline: file, cases: ['typed'], channels: ['web'] })).outcome,
      },
    };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(ODD_FILES)), fc.constantFrom(...Object.keys(places)), async (kind, reader) => {
        const base = join(dir, `odd-place-${made++}`);
        const path = places[reader]!.at(base);
        mkdirSync(dirname(path), { recursive: true });
        if (!ODD_FILES[kind]!(path)) return;
        let said: string;
        try {
          said = await places[reader]!.read(path, base);
        } catch (cause) {
          if (!(cause instanceof UsageError)) throw cause;
          said = cause.message;
        }
        assert.match(said, /regular file|not a file|is a folder|too many|link/i, `${reader} on ${kind}: ${said}`);
        if (reader === '--baseline') assert.ok(said.includes(path), `${reader} names ${path}: ${said}`);
        if (reader.startsWith('the record')) assert.ok(said.includes('.check-endpoint/last-run.json'), said);
      }),
      { ...property, numRuns: 40 },
    );
  });

  const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
  const PROTOTYPE_BEFORE = Object.getOwnPropertyNames(Object.prototype);
  const OBJECT_BEFORE = Object.getOwnPropertyNames(Object);
  test(`prototype keys as case ids and setting names, in --case-setting and a config's "cases" (${RUNS} inputs)`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROTOTYPE_KEYS, 'quality/latency'), fc.constantFrom(...PROTOTYPE_KEYS, 'budgetMs'), (id, name) => {
        const settings = caseSettingsOf([`${id}.${name}=1`]);
        assert.deepEqual(Object.keys(settings), [id]);
        const file = join(dir, 'proto.json');
        writeFileSync(file, `{"url":"http://127.0.0.1:9/agent","cases":{${JSON.stringify(id)}:{${JSON.stringify(name)}:1}}}`);
        readsOrNames(() => readConfigFile(file), file);
        assert.deepEqual(Object.getOwnPropertyNames(Object.prototype), PROTOTYPE_BEFORE, 'Object.prototype is as it was');
        assert.deepEqual(Object.getOwnPropertyNames(Object), OBJECT_BEFORE, 'Object is as it was');
      }),
      property,
    );
  });

  const EDGE = 8.64e15;
  test(`a scenario's now at the ends of the dates a clock shows, with {{now ± N u}} (${RUNS} inputs): a checked file`, () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -EDGE, max: EDGE }), fc.constantFrom(-EDGE, EDGE, EDGE - 1, -EDGE + 1, 0)),
        fc.constantFrom('+', '-'),
        fc.integer({ min: 0, max: 999_999 }),
        fc.constantFrom('m', 'h', 'd', 'w'),
        fc.constantFrom('', ' | date', ' | time', ' | datetime', ' | weekday'),
        (at, sign, amount, unit, format) => {
          const now = new Date(at).toISOString();
          const text = `id: fuzz\nchannels: [whatsapp]\nnow: ${now}\nopening:\n  - say: "at {{now ${sign} ${amount}${unit}${format}}}"\n`;
          const checked = parseScenarioFile(text, { file: 'fuzz.yaml', expectedId: 'fuzz', channels: ['whatsapp'] });
          for (const problem of checked.problems) assert.ok(problem.message.length > 0);
        },
      ),
      property,
    );
  });

  test('adversarial text for every pattern run on an answer (64 KiB each): within a second of CPU', () => {
    const openings = [
      ...TEXT_SIGN_PATTERNS.map((pattern) => pattern.source.replace(/[\\^$.|?*+()[\]{}].*$/s, '')),
      '**',
      '[a](https://',
      'a|b\n|---',
      '# ',
      '\u{1F3F4}',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...openings),
        fc.constantFrom('A', ' ', '"', '-', '|', '\u{E0041}', '\u200D', '*', '['),
        fc.boolean(),
        (opening, fill, repeated) => {
          const length = 64 * 1024;
          const text = (repeated ? (opening + fill).repeat(length / (opening.length + 1)) : opening + fill.repeat(length)).slice(0, length);
          const start = process.cpuUsage();
          answeringStack({
            kind: 'answer',
            status: 200,
            httpVersion: '1.1',
            statusText: 'OK',
            headers: {},
            body: Buffer.from(text),
            latencyMs: 1,
          });
          markdownIn(text);
          forTerminal(text);
          const spent = process.cpuUsage(start);
          // Linear patterns take milliseconds here; one that grows with the square of the length takes many seconds.
          assert.ok(spent.user + spent.system < 1_000_000, `${JSON.stringify(opening)} + ${JSON.stringify(fill)}: ${spent.user} µs`);
        },
      ),
      { ...property, numRuns: 60 },
    );
  });

  test('hostile strings through every output (terminal, --json, JUnit, HTML, annotations, step summary, reproduce lines)', async () => {
    let answer: object = { replies: [] };
    const served = await serveAgent(() => answer);
    const hostile = fc.array(fc.constantFrom(...HOSTILE_TEXT), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));
    try {
      await fc.assert(
        fc.asyncProperty(hostile, hostile, hostile, async (button, type, key) => {
          answer = { replies: [{ type: 'message', text: 'pick', buttons: [button] }, { type }, { type: 'message', text: 'x', [key]: 1 }] };
          // Served on loopback, so each failed turn has its reproduce line (a fetch handler's have none); button-tap sends the button back.
          const report = await checkEndpoint(served.url, { env: {}, cases: ['typed', 'button-tap'], channels: ['web'] });
          assert.match(formatReport(report), /curl /, 'the terminal shows reproduce lines');
          const outputs: [string, string][] = [
            ['terminal', formatReport(report)],
            ['annotations', githubAnnotations(report).join('\n')],
            ['step summary', githubStepSummary(report)],
          ];
          for (const [name, text] of outputs) assert.doesNotMatch(text, INVISIBLE_IN_OUTPUT, name);
          assert.doesNotMatch(outsideCodeSpans(githubStepSummary(report)), AUTOLINKED, 'the step summary: a bare URL GitHub links');
          // JUnit is XML: it keeps the agent's text (escaped as XML), but no character XML forbids.
          assert.doesNotMatch(
            renderJunit(report, { startedAt: new Date() }),
            /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/,
            'JUnit',
          );
          for (const line of githubAnnotations(report))
            assert.match(line, /^::(error|warning) (file=[^,:\n]*(,line=\d+,col=\d+)?,)?title=check-endpoint/);
          assert.ok(!renderHtmlReport(report).includes('<img src=x'), 'HTML');
          assert.doesNotThrow(() => JSON.parse(JSON.stringify(report)), '--json');
        }),
        { ...property, numRuns: 15 },
      );
    } finally {
      await served.close();
    }
  });
});
