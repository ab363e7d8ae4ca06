/**
 * The café's agents, the same behaviour in two languages with the standard library only:
 * examples/http-agent-python/agent.py and examples/http-agent-go/ (main.go). For each:
 * - with FAKE_MODEL=1 and a token, the built command passes every case on every channel, the
 *   extended and quality cases included, under --strict, with no finding at all, and calls no model;
 * - the channel instructions its source holds are, byte for byte, what `limits CHANNEL --prompt`
 *   prints for each platform (a prompt gone stale fails here);
 * - pointed at a local OpenAI-compatible server (fixtures/agents/openai-compatible.ts), it offers
 *   the two tools, gives the channel's instructions in the system message, runs a tool round as
 *   Chat Completions has it, keeps each conversation's history to itself, answers a redelivered
 *   message again without the model, retries a 429 after its retry-after, and answers a 500 twice
 *   or a model slower than its budget with its apology, 200; every answer it gives passes
 *   validateAnswer for its channel.
 *
 * Python is the python3 on PATH (3.11 or later). Go is Debian's golang-go (1.19; .ci/run installs
 * it as root), built offline (GOTOOLCHAIN=local, GOPROXY=off: the module has no requirements);
 * without it the Go tests report themselves skipped, saying why, never passed.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type AgentRequest, type MessageReply, validateAnswer } from '../src/index.js';
import type { Report } from '../src/core/report.js';
import {
  type ChatMessage,
  type OpenAiCompatibleServer,
  type SeenRequest,
  startOpenAiCompatible,
} from '../fixtures/agents/openai-compatible.js';
import { freePort, ROOT, runCli, runCommand } from './helpers.js';
import { goEnv, goMissing } from './go-agents.js';

const TOKEN = 'cafe-agent-token-5b07';
const API_KEY = 'test-key';
const MODEL = 'test-model';
const BUDGET_SECONDS = 2;
const PLATFORMS = ['whatsapp', 'sms', 'imessage', 'telegram', 'web'] as const;
/** The short apology both examples answer a model error or a slow model with (../shared/contract.md, "Any language"). */
const APOLOGY = "Sorry, I can't answer right now. Please try again in a minute.";
/** A run-unique part of every conversation id: a second run of the file never meets the first one's. */
const RUN = randomUUID().slice(0, 8);

// ---------------------------------------------------------------------------------------------
// The string literals of a source file, decoded, each run of literals joined as the language
// joins them (Python: adjacent literals, or `+`; Go: `+`), so that a prompt split around a
// backtick or over several lines is still found whole, and a stale one is not.
// ---------------------------------------------------------------------------------------------

type Language = 'python' | 'go';

const IDENTIFIER = /[A-Za-z0-9_\u0080-\uffff]/;
const PYTHON_PREFIXES = new Set(['r', 'u', 'f', 'b', 'br', 'rb', 'fr', 'rf']);

/** Decodes the escapes of a Python (non-raw) or Go interpreted string literal's body. */
function decodeEscapes(body: string, language: Language): string {
  const bytes: number[] = [];
  const pushText = (text: string): void => {
    bytes.push(...Buffer.from(text, 'utf8'));
  };
  const simple: Record<string, string> = {
    a: '\x07',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
  };
  for (let index = 0; index < body.length; index++) {
    const char = body[index]!;
    if (char !== '\\') {
      const point = body.codePointAt(index)!;
      pushText(String.fromCodePoint(point));
      if (point > 0xffff) index++;
      continue;
    }
    const next = body[index + 1] ?? '';
    if (next in simple) {
      pushText(simple[next]!);
      index++;
    } else if (next === '\n' && language === 'python') {
      index++;
    } else if (next === 'x') {
      const value = parseInt(body.slice(index + 2, index + 4), 16);
      // Go's \x is a byte of the UTF-8 text; Python's a code point.
      if (language === 'go') bytes.push(value);
      else pushText(String.fromCodePoint(value));
      index += 3;
    } else if (next === 'u' || next === 'U') {
      const digits = next === 'u' ? 4 : 8;
      pushText(String.fromCodePoint(parseInt(body.slice(index + 2, index + 2 + digits), 16)));
      index += 1 + digits;
    } else if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(body.slice(index + 1))![0];
      const value = parseInt(octal, 8);
      if (language === 'go') bytes.push(value);
      else pushText(String.fromCodePoint(value));
      index += octal.length;
    } else {
      // Python keeps an unknown escape as written (\N{...} included: no prompt here names one).
      pushText(`\\${next}`);
      index++;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Every run of string literals in the source, each decoded and joined into one text. */
function stringRuns(source: string, language: Language): string[] {
  const runs: string[] = [];
  let current: string[] | null = null;
  const endRun = (): void => {
    if (current !== null) runs.push(current.join(''));
    current = null;
  };
  const addString = (value: string): void => {
    (current ??= []).push(value);
  };
  let index = 0;
  while (index < source.length) {
    const char = source[index]!;
    // Comments and what may stand between joined literals.
    if (language === 'python' && char === '#') {
      index = source.indexOf('\n', index);
      if (index === -1) break;
      continue;
    }
    if (language === 'go' && source.startsWith('//', index)) {
      index = source.indexOf('\n', index);
      if (index === -1) break;
      continue;
    }
    if (language === 'go' && source.startsWith('/*', index)) {
      const end = source.indexOf('*/', index + 2);
      index = end === -1 ? source.length : end + 2;
      continue;
    }
    if (/\s/.test(char) || char === '+' || char === '(' || char === ')' || (language === 'python' && char === '\\')) {
      index++;
      continue;
    }
    // An identifier, number or keyword ends a run (a Python string prefix starts a literal).
    let prefix = '';
    if (IDENTIFIER.test(char)) {
      let end = index;
      while (end < source.length && IDENTIFIER.test(source[end]!)) end++;
      const word = source.slice(index, end);
      const quote = source[end];
      if (language === 'python' && PYTHON_PREFIXES.has(word.toLowerCase()) && (quote === '"' || quote === "'")) {
        prefix = word.toLowerCase();
        index = end;
      } else {
        endRun();
        index = end;
        continue;
      }
    }
    const at = source[index]!;
    if (language === 'python' && (at === '"' || at === "'")) {
      const triple = source.startsWith(at.repeat(3), index);
      const delimiter = triple ? at.repeat(3) : at;
      let end = index + delimiter.length;
      while (end < source.length && !source.startsWith(delimiter, end)) end += source[end] === '\\' ? 2 : 1;
      const body = source.slice(index + delimiter.length, end);
      addString(prefix.includes('r') ? body : decodeEscapes(body, 'python'));
      index = end + delimiter.length;
      continue;
    }
    if (language === 'go' && at === '`') {
      const end = source.indexOf('`', index + 1);
      addString(source.slice(index + 1, end === -1 ? source.length : end).replace(/\r/g, ''));
      index = end === -1 ? source.length : end + 1;
      continue;
    }
    if (language === 'go' && (at === '"' || at === "'")) {
      let end = index + 1;
      while (end < source.length && source[end] !== at && source[end] !== '\n') end += source[end] === '\\' ? 2 : 1;
      if (at === '"') addString(decodeEscapes(source.slice(index + 1, end), 'go'));
      else endRun();
      index = end + 1;
      continue;
    }
    // Any other character: an operator, a comma, a brace.
    endRun();
    index++;
  }
  endRun();
  return runs;
}

// ---------------------------------------------------------------------------------------------
// Running an example, and talking to it.
// ---------------------------------------------------------------------------------------------

interface RunningAgent {
  url: string;
  /** What it wrote to stderr so far: its log. */
  log: () => string;
  stop: () => Promise<void>;
}

/** The environment the agents start from: the machine's, less every variable the examples read. */
function agentEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'PORT',
    'HOST',
    'FLOW_FRAMEWORK_AGENT_TOKEN',
    'FAKE_MODEL',
    'OPENAI_API_KEY',
    'OPENAI_BASE_URL',
    'MODEL',
    'MODEL_BUDGET_SECONDS',
  ])
    delete base[name];
  return { ...base, ...env };
}

/** Starts an example on a free loopback port and waits until it answers HEAD. */
async function startAgent(command: string[], env: Record<string, string>): Promise<RunningAgent> {
  const port = await freePort();
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: agentEnv({ ...env, PORT: String(port), HOST: '127.0.0.1' }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  let failure: Error | undefined;
  child.on('error', (error) => (failure = error));
  child.on(
    'exit',
    (code, signal) => (failure ??= new Error(`${command.join(' ')} exited (${code ?? signal}) before it answered:\n${log}`)),
  );
  const url = `http://127.0.0.1:${port}/agent`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (failure) throw failure;
    try {
      const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(2000) });
      if (response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${command.join(' ')} did not answer HEAD ${url} within 20 s:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    log: () => log,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}

interface Posted {
  status: number;
  body: unknown;
}

/** The messages of an answer. */
function messagesOf(body: unknown): MessageReply[] {
  const replies = (body as { replies?: { type: string }[] } | null)?.replies ?? [];
  return replies.filter((reply): reply is MessageReply => reply.type === 'message');
}

/** The text of an answer's messages, one bubble a line. */
function textOf(body: unknown): string {
  return messagesOf(body)
    .map((reply) => reply.text ?? '')
    .join('\n');
}

/**
 * One person in one conversation on one channel: says things to the agent (with the token), and
 * has every answer the agent gives judged by the library for its channel.
 */
class Person {
  readonly conversationId: string;
  private readonly sent: string[] = [];
  private count = 0;

  constructor(
    private readonly agent: () => RunningAgent,
    readonly channel: string,
    name: string,
  ) {
    this.conversationId = `${channel}:cafe-${RUN}.${name}`;
  }

  /** Sends a message (a new messageId unless told) and returns the agent's answer, judged. */
  async say(message: AgentRequest['message'], messageId = `m${++this.count}`, timeoutMs = 15_000): Promise<Posted> {
    const request: AgentRequest = { conversationId: this.conversationId, messageId, channel: this.channel, message };
    if (!this.sent.includes(messageId)) this.sent.push(messageId);
    const response = await fetch(this.agent().url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      assert.fail(`${this.conversationId} ${messageId}: the answer is not JSON (${response.status}): ${text.slice(0, 300)}`);
    }
    if (response.status === 200) {
      const findings = validateAnswer(body, { channel: this.channel, personMessageIds: this.sent }).map(
        (finding) => `${finding.rule} ${finding.severity} at ${finding.path}: ${finding.message}`,
      );
      assert.deepEqual(findings, [], `${this.channel}: validateAnswer on ${JSON.stringify(body)}`);
    }
    return { status: response.status, body };
  }
}

/** The Chat Completions requests the model server saw (the well-formed ones). */
function chats(model: OpenAiCompatibleServer): { seen: SeenRequest; messages: ChatMessage[] }[] {
  return model.requests.filter((seen) => seen.chat !== null).map((seen) => ({ seen, messages: seen.chat!.messages }));
}

/** A request's messages after the system message: the history and the new message. */
function afterSystem(messages: ChatMessage[]): ChatMessage[] {
  return messages.filter((message) => message.role !== 'system');
}

/** The content of a message, as text (the agents send strings; a list of parts is joined). */
function contentOf(message: ChatMessage | undefined): string {
  const content: unknown = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('');
  return '';
}

/** What `limits CHANNEL --prompt` prints, without its final newline, for each platform. */
let promptsOnce: Promise<Map<string, string>> | undefined;
function prompts(): Promise<Map<string, string>> {
  promptsOnce ??= (async () => {
    const printed = new Map<string, string>();
    for (const channel of PLATFORMS) {
      const { code, stdout, stderr } = await runCli(['limits', channel, '--prompt']);
      assert.equal(code, 0, stderr);
      printed.set(channel, stdout.replace(/\n$/, ''));
    }
    return printed;
  })();
  return promptsOnce;
}

// ---------------------------------------------------------------------------------------------
// The two examples.
// ---------------------------------------------------------------------------------------------

interface Example {
  title: string;
  /** The source file that holds the channel instructions. */
  source: string;
  language: Language;
  /** Why its tests cannot run here, or undefined. */
  missing: string | undefined;
  /** Makes it runnable (Go: builds it into `dir`) and returns the command that starts it. */
  prepare: (dir: string) => Promise<string[]>;
}

function pythonMissing(): string | undefined {
  const probe = spawnSync('python3', ['-c', 'import sys; print(sys.version_info >= (3, 11))'], { encoding: 'utf8' });
  if (probe.error) return 'needs python3 (3.11 or later) on PATH';
  if (probe.stdout.trim() !== 'True') return 'needs python3 3.11 or later on PATH';
  return undefined;
}

const PYTHON_AGENT = join(ROOT, 'examples/http-agent-python/agent.py');
const GO_FOLDER = join(ROOT, 'examples/http-agent-go');

const EXAMPLES: Example[] = [
  {
    title: 'examples/http-agent-python/agent.py',
    source: PYTHON_AGENT,
    language: 'python',
    missing: pythonMissing(),
    prepare: async () => ['python3', PYTHON_AGENT],
  },
  {
    title: 'examples/http-agent-go (main.go)',
    source: join(GO_FOLDER, 'main.go'),
    language: 'go',
    missing: goMissing(),
    prepare: async (dir) => {
      const binary = join(dir, 'cafe-go');
      const built = await runCommand('go', ['build', '-o', binary, '.'], { cwd: GO_FOLDER, env: goEnv() });
      assert.equal(built.code, 0, `go build failed:\n${built.stdout}${built.stderr}`);
      return [binary];
    },
  },
];

for (const example of EXAMPLES) {
  describe(example.title, () => {
    const skip = example.missing ?? false;
    let dir = '';
    let command: string[] = [];
    let model: OpenAiCompatibleServer | undefined;
    let agent: RunningAgent | undefined;
    const served = (): RunningAgent => agent!;

    before(async () => {
      if (example.missing) return;
      dir = mkdtempSync(join(tmpdir(), 'cafe-agent-'));
      command = await example.prepare(dir);
      model = await startOpenAiCompatible({ apiKey: API_KEY });
      agent = await startAgent(command, {
        FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN,
        OPENAI_BASE_URL: model.baseUrl,
        OPENAI_API_KEY: API_KEY,
        MODEL,
        MODEL_BUDGET_SECONDS: String(BUDGET_SECONDS),
      });
    });
    /** The agent with FAKE_MODEL=1: were it ignored, the model calls would land on the test's model server, and be counted. */
    const startFake = (): Promise<RunningAgent> =>
      startAgent(command, { FAKE_MODEL: '1', FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN, OPENAI_BASE_URL: model!.baseUrl, OPENAI_API_KEY: API_KEY });
    after(async () => {
      await agent?.stop();
      await model?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test(
      'FAKE_MODEL=1 with a token: check-endpoint --channel all --extended --quality --strict --json exits 0 with no finding, and no model is called',
      { skip, timeout: 120_000 },
      async () => {
        model!.reset();
        const fake = await startFake();
        try {
          const { code, stdout, stderr } = await runCli([fake.url, '--channel', 'all', '--extended', '--quality', '--strict', '--json'], {
            env: { FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN },
          });
          const report = JSON.parse(stdout) as Report;
          const findings = report.cases.flatMap((c) =>
            c.findings.map((f) => `${c.channel}/${c.id} turn ${f.turn}: ${f.rule} ${f.severity}: ${f.message}`),
          );
          assert.deepEqual(findings, [], stderr);
          assert.equal(code, 0, stderr);
          assert.equal(report.outcome, 'passed', JSON.stringify(report.error));
          assert.equal(report.error, null);
          assert.ok(report.counts.cases > 0, 'cases were played');
          assert.equal(report.counts.passed, report.counts.cases);
          assert.equal(report.counts.warnings, 0);
          assert.equal(report.cases.length, report.counts.cases);
          const failed = report.cases.filter((c) => !c.passed || c.status !== 'passed').map((c) => `${c.channel}/${c.id}: ${c.status}`);
          assert.deepEqual(failed, []);
          for (const channel of PLATFORMS)
            assert.ok(
              report.cases.some((c) => c.channel === channel),
              `${channel} was checked`,
            );
          assert.ok(
            report.cases.some((c) => c.id.startsWith('quality/')),
            'the quality cases ran',
          );
          assert.equal(model!.requests.length, 0, 'FAKE_MODEL=1 calls no model');
          assert.ok(!fake.log().includes(TOKEN), 'the log never holds the token');
        } finally {
          await fake.stop();
        }
      },
    );

    test(
      'FAKE_MODEL=1: --explore --channel all at its defaults passes: every message a platform can deliver is answered',
      { skip, timeout: 120_000 },
      async () => {
        const fake = await startFake();
        try {
          const { code, stdout, stderr } = await runCli(
            [fake.url, '--channel', 'all', '--case', 'explore', '--explore', '--seed', '2026', '--json'],
            {
              env: { FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN },
            },
          );
          const report = JSON.parse(stdout) as Report;
          const failing = report.cases.flatMap((c) =>
            c.findings.filter((f) => f.severity === 'error').map((f) => `${c.channel}: ${f.rule}: ${f.message}`),
          );
          assert.deepEqual(failing, [], stderr);
          assert.equal(code, 0, stderr);
          for (const channel of PLATFORMS) {
            const explored = report.cases.find((c) => c.channel === channel && c.id === 'explore');
            assert.equal(explored?.explore?.turns, 300, `${channel}: its 300 turns were played`);
          }
        } finally {
          await fake.stop();
        }
      },
    );

    test('its source holds, byte for byte, the instructions `limits CHANNEL --prompt` prints for each platform', { skip }, async () => {
      const runs = stringRuns(readFileSync(example.source, 'utf8'), example.language);
      const stale = [...(await prompts())].filter(([, text]) => !runs.some((run) => run.includes(text))).map(([channel]) => channel);
      assert.deepEqual(stale, [], `the instructions in ${example.source} differ from limits CHANNEL --prompt for these channels`);
    });

    test(
      'offers opening_hours and place_order, and the system message holds the channel’s instructions, on every platform',
      { skip },
      async () => {
        model!.reset();
        const printed = await prompts();
        for (const channel of PLATFORMS) {
          const before = model!.requests.length;
          const answer = await new Person(served, channel, 'hello').say({ text: 'Hi there' });
          assert.equal(answer.status, 200);
          assert.match(textOf(answer.body), /Hello from the model/, `${channel}: the model's text is the reply`);
          const seen = model!.requests.slice(before);
          assert.equal(seen.length, 1, `${channel}: one model request`);
          const request = seen[0]!;
          assert.equal(request.method, 'POST');
          assert.equal(request.path, '/v1/chat/completions');
          assert.equal(request.authorization, `Bearer ${API_KEY}`);
          assert.match(request.contentType ?? '', /^application\/json/);
          assert.ok(request.chat, `a Chat Completions body: ${JSON.stringify(request.json)}`);
          assert.equal(request.chat.model, MODEL);
          const tools = request.chat.tools ?? [];
          assert.deepEqual(tools.map((tool) => `${tool.type} ${tool.function.name}`).sort(), [
            'function opening_hours',
            'function place_order',
          ]);
          for (const tool of tools) assert.equal(typeof tool.function.parameters, 'object', `${tool.function.name} has parameters`);
          const [system, ...rest] = request.chat.messages;
          assert.equal(system?.role, 'system', 'the system message comes first');
          assert.ok(contentOf(system).includes(printed.get(channel)!), `${channel}: the system message holds limits ${channel} --prompt`);
          assert.ok(
            rest.every((message) => message.role !== 'system'),
            'one system message',
          );
          assert.equal(rest.at(-1)?.role, 'user');
          assert.match(contentOf(rest.at(-1)), /Hi there/);
        }
      },
    );

    test(
      'a tool round: the assistant’s tool_calls and one tool message per call id go back, and the reply names the order id',
      { skip },
      async () => {
        model!.reset();
        const person = new Person(served, 'web', 'order');
        const orderIdOf = (messages: ChatMessage[], id: string): string => {
          const result = messages.find((message) => message.role === 'tool' && message.tool_call_id === id);
          return (JSON.parse(contentOf(result)) as { orderId: string }).orderId;
        };
        const calls = [
          { id: 'call_hours_1', name: 'opening_hours', arguments: '{}' },
          { id: 'call_order_1', name: 'place_order', arguments: JSON.stringify({ items: ['latte', 'croissant'], name: 'Ana' }) },
        ];
        model!.script(
          { kind: 'tool_calls', calls },
          { kind: 'answer', content: (chat) => `Thanks Ana, your order ${orderIdOf(chat.messages, 'call_order_1')} is in.` },
        );
        const answer = await person.say({ text: 'One latte and a croissant for Ana, please' });
        assert.equal(answer.status, 200);
        const seen = chats(model!);
        assert.equal(seen.length, 2, 'the model is called again after the tool round');
        const [first, second] = seen;
        const firstCount = first!.messages.length;
        assert.deepEqual(second!.messages.slice(0, firstCount), first!.messages, 'the second request starts with the first one’s messages');
        const added = second!.messages.slice(firstCount);
        assert.deepEqual(
          added.map((message) => `${message.role} ${message.tool_call_id ?? ''}`.trim()),
          ['assistant', 'tool call_hours_1', 'tool call_order_1'],
        );
        assert.deepEqual(
          added[0]!.tool_calls,
          calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
          'the assistant message carries its tool_calls as the model sent them',
        );
        const hours = JSON.parse(contentOf(added[1])) as { today?: unknown };
        assert.equal(typeof hours.today, 'string', `opening_hours gives today's hours: ${contentOf(added[1])}`);
        const orderId = orderIdOf(second!.messages, 'call_order_1');
        assert.ok(typeof orderId === 'string' && orderId.length > 0, `place_order gives an order id: ${contentOf(added[2])}`);
        assert.ok(textOf(answer.body).includes(`your order ${orderId} is in`), `the reply names the order: ${textOf(answer.body)}`);

        // History keeps the user message and the final text, not the tool round; a second order gets a new id.
        model!.reset();
        model!.script(
          { kind: 'tool_calls', calls: [{ id: 'call_order_2', name: 'place_order', arguments: '{"items": ["tea"], "name": "Ana"}' }] },
          { kind: 'answer', content: (chat) => `And your tea is order ${orderIdOf(chat.messages, 'call_order_2')}.` },
        );
        const again = await person.say({ text: 'And a tea' });
        assert.equal(again.status, 200);
        const [third, fourth] = chats(model!);
        assert.deepEqual(
          afterSystem(third!.messages).map((message) => message.role),
          ['user', 'assistant', 'user'],
          'the history is the first message and its final answer',
        );
        assert.equal(contentOf(afterSystem(third!.messages)[1]), `Thanks Ana, your order ${orderId} is in.`);
        const secondId = orderIdOf(fourth!.messages, 'call_order_2');
        assert.notEqual(secondId, orderId, 'each order gets a new id');
        assert.ok(textOf(again.body).includes(secondId));
      },
    );

    test('tool arguments that are not JSON get an error result, not a crash', { skip }, async () => {
      model!.reset();
      model!.script(
        { kind: 'tool_calls', calls: [{ id: 'call_bad', name: 'place_order', arguments: '{"items": ["latte"' }] },
        { kind: 'answer', content: 'Sorry, which drink was it?' },
      );
      const answer = await new Person(served, 'web', 'bad-arguments').say({ text: 'A latte' });
      assert.equal(answer.status, 200);
      assert.match(textOf(answer.body), /which drink was it/);
      const [, second] = chats(model!);
      const result = second?.messages.find((message) => message.role === 'tool' && message.tool_call_id === 'call_bad');
      assert.ok(result, 'the call gets a tool message');
      assert.ok(contentOf(result).length > 0 && !/orderId/.test(contentOf(result)), `an error result, no order: ${contentOf(result)}`);
    });

    test('two conversations keep their histories apart', { skip }, async () => {
      model!.reset();
      const a = new Person(served, 'telegram', 'history-a');
      const b = new Person(served, 'telegram', 'history-b');
      model!.script(
        { kind: 'answer', content: 'Noted for Alice.' },
        { kind: 'answer', content: 'Noted for Bob.' },
        { kind: 'answer', content: 'Alice again.' },
        { kind: 'answer', content: 'Bob again.' },
      );
      assert.equal((await a.say({ text: 'I am Alice, first' })).status, 200);
      assert.equal((await b.say({ text: 'I am Bob, first' })).status, 200);
      assert.match(textOf((await a.say({ text: 'Alice, second' })).body), /Alice again\./);
      assert.match(textOf((await b.say({ text: 'Bob, second' })).body), /Bob again\./);
      const seen = chats(model!);
      assert.equal(seen.length, 4);
      const shape = (messages: ChatMessage[]) => afterSystem(messages).map((message) => `${message.role}: ${contentOf(message)}`);
      assert.equal(afterSystem(seen[0]!.messages).length, 1, 'a new conversation has no history');
      assert.equal(afterSystem(seen[1]!.messages).length, 1, 'a new conversation has no history');
      for (const [request, own, mine, other] of [
        [seen[2]!, 'I am Alice, first', 'Noted for Alice.', /Bob/],
        [seen[3]!, 'I am Bob, first', 'Noted for Bob.', /Alice/],
      ] as const) {
        const history = shape(request.messages);
        assert.equal(history.length, 3, history.join('\n'));
        assert.ok(history[0]!.startsWith('user: ') && history[0]!.includes(own), history.join('\n'));
        assert.equal(history[1], `assistant: ${mine}`);
        assert.ok(history[2]!.startsWith('user: '), history.join('\n'));
        assert.doesNotMatch(JSON.stringify(afterSystem(request.messages)), other, 'nothing of the other conversation');
      }
    });

    test('a redelivered messageId gets the same replies and no new model request', { skip }, async () => {
      model!.reset();
      const person = new Person(served, 'whatsapp', 'redelivered');
      model!.script({ kind: 'answer', content: 'Your flat white is coming.' });
      const first = await person.say({ text: 'A flat white please' }, 'wamid.1');
      assert.equal(first.status, 200);
      assert.match(textOf(first.body), /flat white is coming/);
      assert.equal(model!.requests.length, 1);
      const again = await person.say({ text: 'A flat white please' }, 'wamid.1');
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body, 'the first answer again');
      assert.equal(model!.requests.length, 1, 'no new model request');
    });

    test('a 429 with retry-after: it waits, retries once, and answers with the model’s text', { skip }, async () => {
      model!.reset();
      model!.script({ kind: 'rate-limited', retryAfterSeconds: 1 }, { kind: 'answer', content: 'Thanks for waiting: two cappuccinos.' });
      const answer = await new Person(served, 'web', 'rate-limited').say({ text: 'Two cappuccinos' }, 'm1', (BUDGET_SECONDS + 5) * 1000);
      assert.equal(answer.status, 200);
      assert.match(textOf(answer.body), /Thanks for waiting: two cappuccinos\./);
      const seen = model!.requests;
      assert.deepEqual(
        seen.map((request) => request.status),
        [429, 200],
      );
      // Not a timing assertion: a lower bound only, which waiting as told always meets.
      assert.ok(seen[1]!.at - seen[0]!.at >= 900, `the retry waited for retry-after (${seen[1]!.at - seen[0]!.at} ms)`);
    });

    test('a 500 twice: it answers 200 with its apology', { skip }, async () => {
      model!.reset();
      model!.script({ kind: 'server-error' }, { kind: 'server-error' });
      const answer = await new Person(served, 'web', 'server-error').say({ text: 'A mocha' }, 'm1', (BUDGET_SECONDS + 5) * 1000);
      assert.equal(answer.status, 200);
      assert.equal(textOf(answer.body), APOLOGY);
      assert.deepEqual(
        model!.requests.map((request) => request.status),
        [500, 500],
        'one retry, no more',
      );
    });

    test('a model slower than its budget: it answers 200 with its apology', { skip }, async () => {
      model!.reset();
      const slow = { kind: 'slow', delayMs: (BUDGET_SECONDS + 10) * 1000, content: 'Too late.' } as const;
      model!.script(slow, slow);
      // The fetch's own timeout (budget + 5 s) is only a guard against a hang, not a timing assertion.
      const answer = await new Person(served, 'sms', 'slow').say({ text: 'A hot chocolate' }, 'm1', (BUDGET_SECONDS + 5) * 1000);
      assert.equal(answer.status, 200);
      assert.equal(textOf(answer.body), APOLOGY);
      assert.ok(model!.requests.length >= 1, 'the model was asked');
    });

    test('its log names every request and never the token or the API key', { skip }, () => {
      const log = served().log();
      assert.match(log, /POST/);
      assert.ok(!log.includes(TOKEN), 'no token in the log');
      assert.ok(!log.includes(API_KEY), 'no API key in the log');
    });
  });
}
