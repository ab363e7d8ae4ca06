/**
 * The GitHub Action (action.yml, action/index.mjs) run the way the runner runs it: `node` on the
 * committed bundle, from the working folder of a checkout that is not this repository, with an
 * INPUT_<NAME> variable for every input (its default when the workflow gives none), GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY and GITHUB_ACTION_PATH; against the reference agent, a failing fixture agent
 * and an agent the action starts itself. And one list: action.yml, the action's code and the
 * README's table name the same inputs, and the committed files are the ones the build writes.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { ACTION_INPUTS, ACTION_OUTPUTS, inputVariable } from '../src/action/inputs.js';
import { outputFileLines } from '../src/action/outputs.js';
import { splitWords } from '../src/action/words.js';
import { ACTION_BUNDLE } from '../src/core/command-name.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { TWO_PROBLEMS_AGENT } from '../fixtures/agents/catalogue.js';
import { actionFiles } from '../scripts/build-action.js';
import { type CliResult, ROOT, freePort, runCommand } from './helpers.js';

interface ActionMetadata {
  inputs: Record<string, { required: boolean; default?: string; description: string }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string };
}

const metadata = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionMetadata;
const REPOSITORY = 'flow-framework/check-endpoint';
/** A token as a repository secret holds it. */
const TOKEN = 'tok-action-4f9c2e7b1d';
const REPRODUCE = `npx --yes --package 'git+https://github.com/${REPOSITORY}.git#v0' check-endpoint`;

interface ActionRun extends CliResult {
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
}

/** The outputs a step's GITHUB_OUTPUT file sets (`name=value` lines, and the `name<<DELIMITER` form). */
function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, index + 1);
      outputs[heredoc[1]!] = lines.slice(index + 1, end).join('\n');
      index = end;
    } else if (line.includes('=')) outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return outputs;
}

describe('the GitHub Action, as the runner runs it', { timeout: 120_000 }, () => {
  const temporary: string[] = [];
  let reference: RunningAgent;
  let failing: RunningAgent;

  before(async () => {
    reference = await startReferenceAgent();
    failing = await serveAgent(TWO_PROBLEMS_AGENT.handler);
  });

  after(async () => {
    await reference.close();
    await failing.close();
    for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
  });

  /** Runs action/index.mjs with these inputs in a fresh checkout folder of another repository, with the runner's variables. */
  async function runAction(
    inputs: Record<string, string>,
    env: NodeJS.ProcessEnv = {},
    folders: readonly string[] = [],
  ): Promise<ActionRun> {
    const workspace = mkdtempSync(join(tmpdir(), 'check-endpoint-action-workspace-'));
    temporary.push(workspace);
    writeFileSync(join(workspace, 'README.md'), '# an agent in another language\n');
    for (const folder of folders) mkdirSync(join(workspace, folder), { recursive: true });
    const runnerFiles = mkdtempSync(join(tmpdir(), 'check-endpoint-action-runner-'));
    temporary.push(runnerFiles);
    const outputFile = join(runnerFiles, 'output');
    const summaryFile = join(runnerFiles, 'summary');
    writeFileSync(outputFile, '');
    writeFileSync(summaryFile, '');
    const runnerEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NO_PROXY: process.env.NO_PROXY,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_ACTION_REPOSITORY: REPOSITORY,
      GITHUB_ACTION_REF: 'v0',
      ...env,
    };
    // The runner sets a variable for every input action.yml declares: the workflow's value, else the default.
    for (const [name, input] of Object.entries(metadata.inputs)) runnerEnv[inputVariable(name)] = inputs[name] ?? input.default ?? '';
    const result = await runCommand(process.execPath, [join(ROOT, metadata.runs.main)], { cwd: workspace, env: runnerEnv });
    return { ...result, outputs: readOutputs(outputFile), summary: readFileSync(summaryFile, 'utf8'), workspace };
  }

  test('a passing run: outcome=passed, exit-code=0, problems=0, the report at its output path, and the step summary', async () => {
    const run = await runAction({ url: reference.url, channel: 'whatsapp, telegram' });
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    const report = join(run.workspace, 'check-endpoint-reports/report.json');
    assert.deepEqual(run.outputs, { outcome: 'passed', 'exit-code': '0', problems: '0', report });
    assert.equal((JSON.parse(readFileSync(report, 'utf8')) as { outcome: string }).outcome, 'passed');
    for (const file of ['junit.xml', 'traffic.har', 'report.html'])
      assert.ok(existsSync(join(run.workspace, 'check-endpoint-reports', file)), file);
    assert.match(run.stdout, /^channels: whatsapp, telegram · token: none/m);
    assert.match(run.stdout, /^10 of 10 cases passed\.$/m);
    assert.match(run.summary, /^### check-endpoint: `http:\/\/127\.0\.0\.1:\d+\/agent`$/m);
    assert.match(run.summary, /^\| telegram \| ✅ \| ✅ \| ✅ \| ✅ \| ✅ \|$/m);
    assert.doesNotMatch(run.stderr, /^::error/m);
    // What it prints to run again runs anywhere: the same version, installed from the action's repository at its ref.
    assert.ok(run.stderr.includes(`recorded in .check-endpoint/last-run.json: ${REPRODUCE} show prints it`), run.stderr);
  });

  test('a failing run: exit 1, one annotation per distinct problem, their count and the report as outputs', async () => {
    const run = await runAction({ url: failing.url, 'report-dir': 'reports/check' });
    assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
    const reportFile = join(run.workspace, 'reports/check/report.json');
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { outcome: string; problems: { summary: string }[] };
    assert.equal(report.outcome, 'failed');
    assert.deepEqual(run.outputs, { outcome: 'failed', 'exit-code': '1', problems: String(report.problems.length), report: reportFile });
    const annotations = run.stderr.split('\n').filter((line) => line.startsWith('::error '));
    assert.equal(report.problems.length, 2);
    assert.deepEqual(
      annotations.map((line) => /^::error title=check-endpoint problem (\d+)%3A schema::/.exec(line)?.[1]),
      ['1', '2'],
      run.stderr,
    );
    assert.match(run.summary, /^### check-endpoint: /m);
    assert.ok(run.stderr.includes(`${REPRODUCE} show prints it, --failed plays again what did not pass`), run.stderr);
  });

  test('a --report-dir in args (which wins over the report-dir input): the outputs name the report it wrote there', async () => {
    const run = await runAction({ url: failing.url, args: '--report-dir elsewhere' });
    assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
    assert.deepEqual(run.outputs, {
      outcome: 'failed',
      'exit-code': '1',
      problems: '2',
      report: join(run.workspace, 'elsewhere/report.json'),
    });
  });

  test("an agent the action starts (start) and more flags in one string (args): the agent's own port, an HTML page in a folder with a space", async () => {
    const port = await freePort();
    const run = await runAction(
      {
        url: `http://127.0.0.1:${port}/agent`,
        start: `AGENT_TOKEN=${TOKEN} node ${JSON.stringify(join(ROOT, 'examples/minimal/agent.mjs'))}`,
        wait: '30',
        cases: 'typed,no-reply',
        args: `--html "page one/report.html" --quiet`,
      },
      { PORT: String(port), FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN },
    );
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.equal(run.outputs.outcome, 'passed');
    assert.ok(existsSync(join(run.workspace, 'page one/report.html')));
    assert.ok(existsSync(join(run.workspace, 'check-endpoint-reports/agent.log')), "the started agent's log, in report-dir");
    // --quiet: a passing run's summary line alone.
    assert.equal(run.stdout, '2 of 2 cases passed.\n');
    const report = JSON.parse(readFileSync(run.outputs.report!, 'utf8')) as { cases: { id: string }[] };
    assert.deepEqual(
      report.cases.map((played) => played.id),
      ['typed', 'no-reply'],
    );
    // The token, in the start command as a workflow may expand it, is written nowhere.
    const written = [run.stdout, run.stderr, run.summary, ...Object.values(run.outputs), readFileSync(run.outputs.report!, 'utf8')];
    for (const [index, text] of written.entries()) assert.ok(!text.includes(TOKEN), `no token in output ${index}`);
  });

  for (const recipe of readdirSync(join(ROOT, 'docs/ci')).filter((name) => name.startsWith('github-actions'))) {
    test(`the check step of docs/ci/${recipe} runs as written, its start and url pointed at the reference agent; its upload keeps the report folder`, async () => {
      const workflow = parse(readFileSync(join(ROOT, 'docs/ci', recipe), 'utf8')) as {
        jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown>; env?: Record<string, unknown> }[] }>;
      };
      const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
      const step = steps.find((candidate) => candidate.uses?.startsWith(`${REPOSITORY}@`));
      assert.ok(step?.with, `a step of ${recipe} uses ${REPOSITORY}`);
      for (const name of Object.keys(step.with))
        assert.ok(name in metadata.inputs, `${recipe} gives ${name}, an input action.yml declares`);
      assert.match(String(step.env?.FLOW_FRAMEWORK_AGENT_TOKEN), /^\$\{\{ secrets\.\w+ \}\}$/, 'the token comes from a secret, in env');
      const upload = steps.find((candidate) => candidate.uses?.startsWith('actions/upload-artifact@'));
      assert.equal(upload?.with?.path, `${metadata.inputs['report-dir']!.default}/`, 'the upload keeps the report folder');
      const port = await freePort();
      // As the runner passes them: every value a string (YAML's true as "true"); the secret is not set here.
      const inputs = Object.fromEntries(Object.entries(step.with).map(([name, value]) => [name, String(value)]));
      inputs.url = inputs.url!.replace('8080', String(port));
      inputs.start = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin/check-endpoint.cjs'))} serve-example --port ${port}`;
      const env = Object.fromEntries(
        Object.entries(step.env ?? {})
          .filter(([, value]) => !String(value).includes('${{'))
          .map(([name, value]) => [name, String(value)]),
      );
      const run = await runAction(inputs, env);
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
      assert.equal(run.outputs.outcome, 'passed');
      assert.ok(existsSync(join(run.workspace, 'check-endpoint-reports/report.json')));
    });
  }

  test("a bad value for the check (channel: whatsap) fails with the command's own message: exit 2, outcome=error, no report", async () => {
    const run = await runAction({ url: reference.url, channel: 'whatsap' });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^check-endpoint: --channel whatsap: no platform is called that; did you mean whatsapp\?/m);
    assert.ok(run.stderr.includes(`Run ${REPRODUCE} --help for usage.`), run.stderr);
    assert.deepEqual(run.outputs, { outcome: 'error', 'exit-code': '2', problems: '0', report: '' });
  });

  test('a value the action cannot read fails before anything runs, naming the input: exit 2, outcome=error', async () => {
    for (const [inputs, message] of [
      [{ url: reference.url, quality: 'yes' }, 'check-endpoint: input quality must be true or false; got "yes"'],
      [{ url: reference.url, args: `--html 'page.html` }, "check-endpoint: input args: a ' at character 8 is never closed"],
      [{}, "check-endpoint: input url is required: give it under the step's with:"],
    ] as const) {
      const run = await runAction(inputs);
      assert.equal(run.code, 2, run.stdout);
      assert.equal(run.stderr, `${message}\n`);
      assert.equal(run.stdout, '');
      assert.deepEqual(run.outputs, { outcome: 'error', 'exit-code': '2', problems: '0', report: '' });
    }
  });

  test('working-directory: the check runs in that folder of the checkout (its reports there); a folder that is not there fails naming the input', async () => {
    const run = await runAction({ url: failing.url, 'working-directory': 'services/agent' }, {}, ['services/agent']);
    assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
    const report = join(run.workspace, 'services/agent/check-endpoint-reports/report.json');
    assert.deepEqual(run.outputs, { outcome: 'failed', 'exit-code': '1', problems: '2', report });
    assert.ok(existsSync(join(run.workspace, 'services/agent/.check-endpoint/last-run.json')), 'the record is written there too');
    assert.equal(existsSync(join(run.workspace, 'check-endpoint-reports')), false);

    const missing = await runAction({ url: reference.url, 'working-directory': 'agent' });
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, `check-endpoint: input working-directory: agent is not a folder (from ${missing.workspace})\n`);
    assert.deepEqual(missing.outputs, { outcome: 'error', 'exit-code': '2', problems: '0', report: '' });
  });

  test("on GitHub Enterprise Server, the line that runs it again names the runner's server (GITHUB_SERVER_URL)", async () => {
    const run = await runAction({ url: failing.url }, { GITHUB_SERVER_URL: 'https://github.example.com' });
    assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
    const reproduce = `npx --yes --package 'git+https://github.example.com/${REPOSITORY}.git#v0' check-endpoint`;
    assert.ok(run.stderr.includes(`${reproduce} show prints it`), run.stderr);
    assert.ok(!run.stderr.includes('github.com/'), run.stderr);
  });

  test("a failure of the action's own (an exception nothing catches, mid-run) is an error: exit 2, outcome=error, never Node's exit 1", async () => {
    // A bug, as Node would meet it: an exception thrown from a callback once the check has begun (its header printed).
    const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-action-bug-'));
    temporary.push(folder);
    const bug = join(folder, 'bug.mjs');
    writeFileSync(
      bug,
      [
        'const write = process.stdout.write.bind(process.stdout);',
        'let thrown = false;',
        'process.stdout.write = (chunk, ...rest) => {',
        "  if (!thrown && String(chunk).includes('channels:')) {",
        '    thrown = true;',
        "    setImmediate(() => { throw new Error('a bug in the action'); });",
        '  }',
        '  return write(chunk, ...rest);',
        '};',
        '',
      ].join('\n'),
    );
    const run = await runAction({ url: reference.url }, { NODE_OPTIONS: `--import=${pathToFileURL(bug).href}` });
    assert.equal(run.code, 2, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stderr, /^check-endpoint: internal error in the action: a bug in the action$/m);
    assert.equal(run.outputs.outcome, 'error');
    assert.equal(run.outputs['exit-code'], '2');
  });

  test("a report left by an earlier step is not this run's: no report output when this run wrote none", async () => {
    const first = await runAction({ url: reference.url, channel: 'web' });
    assert.equal(first.outputs.report, join(first.workspace, 'check-endpoint-reports/report.json'));
    const again = await runCommand(process.execPath, [join(ROOT, ACTION_BUNDLE)], {
      cwd: first.workspace,
      env: {
        PATH: process.env.PATH,
        GITHUB_ACTIONS: 'true',
        GITHUB_OUTPUT: join(first.workspace, 'output-again'),
        INPUT_URL: reference.url,
        INPUT_CHANNEL: 'whatsap',
        'INPUT_REPORT-DIR': 'check-endpoint-reports',
      },
    });
    assert.equal(again.code, 2);
    assert.deepEqual(readOutputs(join(first.workspace, 'output-again')), { outcome: 'error', 'exit-code': '2', problems: '0', report: '' });
  });
});

describe("the action's one list of inputs", () => {
  test('action.yml declares the inputs and outputs of src/action/inputs.ts, runs on node24, and its bundle is committed', () => {
    assert.deepEqual(
      Object.keys(metadata.inputs),
      ACTION_INPUTS.map((input) => input.name),
    );
    for (const input of ACTION_INPUTS) {
      assert.equal(metadata.inputs[input.name]!.required, input.required === true, input.name);
      assert.equal(metadata.inputs[input.name]!.default, input.default, input.name);
    }
    assert.deepEqual(
      Object.keys(metadata.outputs),
      ACTION_OUTPUTS.map((output) => output.name),
    );
    assert.deepEqual(metadata.runs, { using: 'node24', main: ACTION_BUNDLE });
    assert.ok(existsSync(join(ROOT, ACTION_BUNDLE)));
  });

  test("the README's table of the action's inputs names each input once, in the list's order, with its flag and default", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## In CI'), readme.indexOf('\n## ', readme.indexOf('## In CI') + 1));
    const rows = [...section.matchAll(/^\| (`[a-z-]+`(?:, `[a-z-]+`)*) \| (.*) \|$/gm)].map((row) => ({
      names: [...row[1]!.matchAll(/`([a-z-]+)`/g)].map((name) => name[1]!),
      text: row[2]!,
    }));
    assert.deepEqual(
      rows.flatMap((row) => row.names),
      ACTION_INPUTS.map((input) => input.name),
    );
    for (const { names, text } of rows) {
      for (const name of names) {
        const input = ACTION_INPUTS.find((candidate) => candidate.name === name)!;
        if (input.default !== undefined)
          assert.ok(text.includes(`\`${input.default}\``), `${name}'s row gives its default ${input.default}`);
        if (input.flag !== undefined) assert.ok(text.includes(`\`${input.flag}\``), `${name}'s row names ${input.flag}`);
      }
    }
    for (const output of ACTION_OUTPUTS) assert.ok(section.includes(`\`${output.name}\``), `the README names the output ${output.name}`);
  });

  test('the committed action.yml and action/index.mjs are what npm run build:action writes', async () => {
    for (const { file, content } of await actionFiles()) {
      assert.ok(
        readFileSync(join(ROOT, file), 'utf8') === content,
        `${file} is not what the build writes: run npm run build:action and commit it`,
      );
    }
  });
});

describe('the args input, split as a shell splits words', () => {
  test('blanks separate words; quotes and backslashes keep them together; nothing is expanded', () => {
    assert.deepEqual(splitWords('  --quiet   --html a.html '), ['--quiet', '--html', 'a.html']);
    assert.deepEqual(splitWords(`--header "x-team: café ops" --html 'my page.html'`), [
      '--header',
      'x-team: café ops',
      '--html',
      'my page.html',
    ]);
    assert.deepEqual(splitWords(String.raw`a\ b "c\"d" 'e\f' "$HOME" ''`), ['a b', 'c"d', String.raw`e\f`, '$HOME', '']);
    assert.deepEqual(splitWords('--a\n--b\t--c'), ['--a', '--b', '--c']);
    // A line continued as in a run: step (args: | with a \ at a line's end), outside quotes and in double ones; kept in single ones.
    assert.deepEqual(splitWords('--html report.html \\\n  --quiet'), ['--html', 'report.html', '--quiet']);
    assert.deepEqual(splitWords('--header "x-team: \\\nops" a\\\nb \'c\\\nd\''), ['--header', 'x-team: ops', 'ab', 'c\\\nd']);
    assert.deepEqual(splitWords(''), []);
  });

  test('an unclosed quote or a trailing backslash is an error naming where', () => {
    assert.throws(() => splitWords(`--html "a.html`), { message: 'a " at character 8 is never closed' });
    assert.throws(() => splitWords(`x 'y`), { message: "a ' at character 3 is never closed" });
    assert.throws(() => splitWords('x \\'), { message: 'a \\ at the end escapes nothing' });
  });
});

describe('the GITHUB_OUTPUT lines', () => {
  test('name=value, and the delimiter form, with a delimiter the value does not hold, for a value with a line break', () => {
    const delimiters = ['EOF', 'EOF', 'END'];
    const lines = outputFileLines({ outcome: 'passed', report: 'a\nEOF\nb' }, () => delimiters.shift()!);
    assert.equal(lines, 'outcome=passed\nreport<<END\na\nEOF\nb\nEND\n');
  });
});
