/**
 * Text from an agent or a file is shown, never obeyed, in every output (issue 52, 6): one escape
 * per output kind (src/report/escape.ts), each fed the same hostile strings; then a real run
 * against an agent on loopback whose answer holds them (a button's id the next message sends back,
 * an unknown reply type, a property name), read in every output it writes: the terminal with its
 * annotations and reproduce lines, --verbose, the step summary, the JSON, JUnit and HTML reports.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundledContract } from '../src/contract/load-contract.js';
import { serveAgent, type RunningAgent } from '../src/example-agent/serve-agent.js';
import { forHtml, forMarkdown, forMarkdownCode, forTerminal, forWorkflowCommand, forWorkflowProperty } from '../src/report/escape.js';
import { runCli } from './helpers.js';
import { AUTOLINKED, codeSpansRemoved, HOSTILE, outsideCodeSpans } from './hostile-strings.js';

/** A character no output shows raw: controls, line and paragraph separators, bidi and zero-width ones. */
const INVISIBLE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200b\u202c\u202e]/u;

/** A workflow command of the check's own: an annotation titled check-endpoint, on a file's line (its name escaped) or none. */
const OUR_COMMAND = /^::(error|warning) (file=[^,:\n]*(,line=\d+,col=\d+)?,)?title=check-endpoint/;

/** Markdown syntax a hostile string holds; escaped, none is left unescaped. */
const MARKDOWN_ACTIVE = /(?<!\\)[[\]`*_<>!|~&]/;

describe('one escape per output kind, each fed the same hostile strings', () => {
  for (const text of HOSTILE) {
    test(JSON.stringify(text), () => {
      const terminal = forTerminal(text);
      assert.doesNotMatch(terminal, INVISIBLE, 'terminal');
      assert.doesNotMatch(terminal, /\n/, 'terminal: one line');

      for (const [name, escaped] of [
        ['workflow command', forWorkflowCommand(text)],
        ['workflow property', forWorkflowProperty(text)],
      ] as const) {
        assert.doesNotMatch(escaped, INVISIBLE, name);
        assert.doesNotMatch(escaped, /[\r\n]/, `${name}: one line, so no ::command starts`);
        assert.doesNotMatch(escaped.replace(/%(25|0A|0D|3A|2C)/g, ''), /%/, `${name}: every % escaped`);
      }
      assert.doesNotMatch(forWorkflowProperty(text), /[:,]/, 'a property: no : or , ends it');

      const markdown = forMarkdown(text);
      assert.doesNotMatch(markdown, INVISIBLE, 'Markdown');
      assert.doesNotMatch(markdown, /\n/, 'Markdown: one line');
      assert.doesNotMatch(outsideCodeSpans(markdown), AUTOLINKED, `Markdown: a bare URL or address outside code is a link: ${markdown}`);
      assert.doesNotMatch(codeSpansRemoved(markdown).replace(/\\\\/g, ''), MARKDOWN_ACTIVE, `Markdown: ${markdown}`);

      const code = forMarkdownCode(text);
      const fence = /^`+/.exec(code)![0];
      assert.ok(code.endsWith(fence), 'the code span ends with its fence');
      assert.ok(!code.slice(fence.length, -fence.length).includes(fence), `no run of backticks in it closes the span: ${code}`);

      const html = forHtml(text);
      assert.doesNotMatch(html, /[<>"']|&(?!(amp|lt|gt|quot|#39);)/, 'HTML: no markup, no entity of the agent’s');
    });
  }
  test('a workflow command keeps the text it escapes: %0A decodes to the line break', () => {
    assert.equal(forWorkflowCommand('a\nb%'), 'a%0Ab%25');
  });
});

describe('an agent whose answer holds the hostile strings, through every output', () => {
  let agent: RunningAgent;
  let folder = '';
  const BUTTON = `b${HOSTILE.slice(0, 8).join('')}`;
  const TAPPED = 'b\u202E\u009B\u2028\u200Bx';
  const TYPE = HOSTILE[8];
  const PROPERTY = HOSTILE[9];
  const BARE_TYPE = HOSTILE[14];
  const BARE_PROPERTY = HOSTILE[15];
  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'check-endpoint-escapes-'));
    // button-tap's first turn gets a valid answer, so it taps the button and sends its id back: the failed
    // second turn's reproduce line holds it. Every other turn gets the whole hostile answer.
    agent = await serveAgent((request) =>
      request.conversationId.includes('button-tap') && request.message.choice === undefined
        ? { replies: [{ type: 'message', text: 'pick', buttons: [TAPPED] }] }
        : {
            replies: [
              { type: 'message', text: 'pick', buttons: [BUTTON] },
              { type: TYPE },
              { type: BARE_TYPE },
              { type: 'message', text: 'x', [PROPERTY]: 1, [BARE_PROPERTY]: 1 },
            ],
          },
    );
  });
  after(async () => {
    await agent.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('the terminal (annotations, reproduce lines, --verbose), the step summary, JSON, JUnit and HTML', async () => {
    const summary = join(folder, 'summary.md');
    const result = await runCli([agent.url, '--channel', 'web', '--report-dir', 'reports', '--verbose', '--verbose'], {
      cwd: folder,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, FLOW_FRAMEWORK_AGENT_TOKEN: undefined },
    });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const printed = result.stdout + result.stderr;
    assert.doesNotMatch(printed, INVISIBLE, 'the terminal shows no raw control, bidi or zero-width character');
    for (const line of printed.split('\n'))
      assert.ok(!line.startsWith('::') || OUR_COMMAND.test(line), `a workflow command of the agent's: ${line}`);
    assert.match(printed, /--data-raw '[^'\n]*\\u202e/, 'the reproduce line sends the override as a JSON escape');

    const markdown = readFileSync(summary, 'utf8');
    assert.doesNotMatch(markdown, INVISIBLE);
    // What is inside a code span is shown as written: only the rest could render.
    const rendered = codeSpansRemoved(markdown);
    for (const live of ['[Fix: click here](https://evil.example/fix)', '**ALL 5 CASES PASSED**', '![x](', '<img'])
      assert.ok(!rendered.includes(live), `the step summary renders ${live}:\n${markdown}`);
    // GitHub links a bare URL, www. or address by itself: each is in a code span, which it does not link.
    for (const bare of ['evil.example/fix', 'www.evil.example']) assert.ok(markdown.includes(bare), `the step summary names ${bare}`);
    assert.doesNotMatch(outsideCodeSpans(markdown), AUTOLINKED, `the step summary holds a bare URL GitHub links:\n${markdown}`);

    const report = JSON.parse(readFileSync(join(folder, 'reports', 'report.json'), 'utf8')) as {
      cases: { findings: { message: string }[] }[];
    };
    assert.ok(
      report.cases.some((played) => played.findings.some((finding) => finding.message.includes(TYPE))),
      'the JSON report keeps the exact text',
    );
    const junit = readFileSync(join(folder, 'reports', 'junit.xml'), 'utf8');
    assert.doesNotMatch(junit, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/, 'JUnit holds no character XML forbids');
    const html = readFileSync(join(folder, 'reports', 'report.html'), 'utf8');
    assert.ok(!html.includes('<img src=x'), 'the HTML report holds no markup of the agent’s');
  });
});

describe("a team's files whose names, ids, keys and titles hold the hostile strings", () => {
  let folder = '';
  let agent: RunningAgent;
  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'check-endpoint-escapes-files-'));
    agent = await serveAgent(() => ({ replies: [{ type: 'message', text: 'ok' }] }));
  });
  after(async () => {
    await agent.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Lines the command printed: none raw, none that starts a workflow command but ours. */
  function assertShownNotObeyed(what: string, printed: string): void {
    assert.doesNotMatch(printed, INVISIBLE, `${what}: no raw control, bidi or zero-width character`);
    for (const line of printed.split('\n'))
      assert.ok(!line.startsWith('::') || OUR_COMMAND.test(line), `${what}: a workflow command of the file's: ${line}`);
  }

  test('a scenario file: its name, its id and a key, through scenarios --lint and --scenarios', async () => {
    const scenarios = join(folder, 'sc');
    mkdirSync(scenarios);
    const id = JSON.stringify(`bidi ${HOSTILE.slice(0, 8).join(' ')}`);
    const key = JSON.stringify(`${HOSTILE[1]}\u202e`);
    writeFileSync(join(scenarios, `x${HOSTILE[0]}.yaml`), `id: ${id}\nchannels: [web]\nopening:\n  - say: "hi"\n${key}: 1\n`);
    const env = { GITHUB_ACTIONS: 'true', FLOW_FRAMEWORK_AGENT_TOKEN: undefined };
    const lint = await runCli(['scenarios', '--lint', 'sc'], { cwd: folder, env });
    assert.equal(lint.code, 1, lint.stdout + lint.stderr);
    assertShownNotObeyed('scenarios --lint', lint.stdout + lint.stderr);
    const check = await runCli([agent.url, '--channel', 'web', '--case', 'typed', '--scenarios', 'sc'], { cwd: folder, env });
    assertShownNotObeyed('--scenarios', check.stdout + check.stderr);
  });

  test("a --limits file's title, through limits and a check", async () => {
    const rules = { ...bundledContract().platforms.web!, title: `Chat ${HOSTILE.slice(0, 8).join(' ')}` };
    writeFileSync(join(folder, 'limits.json'), JSON.stringify(rules));
    const env = { GITHUB_ACTIONS: 'true', FLOW_FRAMEWORK_AGENT_TOKEN: undefined };
    const limits = await runCli(['limits', 'web', '--limits', 'web=limits.json'], { cwd: folder, env });
    assert.equal(limits.code, 0, limits.stdout + limits.stderr);
    assertShownNotObeyed('limits', limits.stdout + limits.stderr);
    const long = await serveAgent(() => ({ replies: [{ type: 'message', text: 'x'.repeat(100_000) }] }));
    try {
      const check = await runCli([long.url, '--channel', 'web', '--case', 'typed', '--limits', 'web=limits.json'], { cwd: folder, env });
      assertShownNotObeyed('a check', check.stdout + check.stderr);
    } finally {
      await long.close();
    }
  });
});
