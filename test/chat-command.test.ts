/**
 * `check-endpoint chat` as a command, run as its users run it: a config file shared with the check
 * (its check-only keys left out, and named), and --start with a real agent process, restarted from
 * the page's API: the answer comes once the new process answers, never before.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chatAgent } from '../fixtures/agents/chat-agent.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { CLI, alive, freePort, runCli } from './helpers.js';

const TOKEN = 'chat-command-token-6a0e3f19c2';

let folder: string;
let agent: RunningAgent;

before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'check-endpoint-chat-command-'));
  agent = await serveAgent(chatAgent);
});

after(async () => {
  await agent?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** `check-endpoint chat …` running: its page's address once printed, what it printed so far, and its end. */
interface RunningChat {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output: () => { stdout: string; stderr: string };
  exit: Promise<number | null>;
}

function startChat(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<RunningChat> {
  const child = spawn(process.execPath, [CLI, 'chat', ...args], {
    cwd: options.cwd ?? folder,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /The chat page is at (\S+)/.exec(stdout)?.[1];
      if (url !== undefined) resolve({ child, url, output: () => ({ stdout, stderr }), exit });
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    void exit.then((code) => reject(new Error(`check-endpoint chat exited ${code} before printing its address:\n${stdout}\n${stderr}`)));
  });
}

/** A call of the page's API, with the page's token, as the page's script makes it. */
async function api(pageUrl: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const address = new URL(pageUrl);
  const response = await fetch(new URL(path, address), {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-chat-token': address.searchParams.get('token')!, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** The text of the agent's first reply in a turn the API drew, and the turn's HTTP status. */
function replyOf(turn: Record<string, unknown>): { status: unknown; html: string } {
  return { status: (turn.figures as { status: unknown }).status, html: String(turn.html) };
}

describe('check-endpoint chat, the command', () => {
  test("a config file shared with the check: the chat reads its keys, leaves out the check's own and says which, in one line", async () => {
    const dir = join(folder, 'shared-config');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'check-endpoint.config.json'),
      JSON.stringify({ url: agent.url, channel: ['sms'], agentTimeout: 2, case: ['typed'], runs: 2, html: 'report.html', watch: true }),
    );
    const ran = await runCli(['chat'], { cwd: dir, input: 'q\n', env: { FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN }, timeoutMs: 60_000 });
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /^config: check-endpoint\.config\.json$/m);
    assert.match(ran.stdout, /^config: left out of the chat, being the check's alone: "case", "runs", "html", "watch"$/m);
    assert.match(ran.stdout, /The chat page is at http:\/\/127\.0\.0\.1:\d+\//, 'the page is served from the config file’s URL');
    assert.ok(!existsSync(join(dir, 'report.html')), 'no report is written by the chat');
    // Without a config file, nothing is said of one.
    const bare = await runCli(['chat', agent.url, '--no-config'], { cwd: dir, input: 'q\n', timeoutMs: 60_000 });
    assert.equal(bare.code, 0, bare.stderr);
    assert.doesNotMatch(bare.stdout, /^config:/m);
  });

  test('--start: the agent runs beside the page; a restart answers once the new process answers, its output and the token kept off the page', async () => {
    const port = await freePort();
    // A real agent: 600 ms before it listens, as a framework's start-up takes; each reply names its process; it prints the
    // authorization header it got (a hostile agent: the page's pane must show it redacted).
    const script = join(folder, 'slow-start-agent.mjs');
    writeFileSync(
      script,
      `import { createServer } from 'node:http';
setTimeout(() => {
  createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.method === 'POST') console.log('got ' + request.headers.authorization);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ replies: [{ type: 'message', text: 'pid ' + process.pid }] }));
    });
  }).listen(Number(process.env.AGENT_PORT), '127.0.0.1', () => console.log('listening, pid ' + process.pid));
}, 600);
`,
    );
    const url = `http://127.0.0.1:${port}/agent`;
    const chat = await startChat([url, '--channel', 'web', '--start', `node ${JSON.stringify(script)}`], {
      env: { AGENT_PORT: String(port), FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN },
    });
    const pids: number[] = [];
    try {
      const opened = await api(chat.url, 'api/conversations', {});
      const key = String(opened.json.key);
      const first = replyOf((await api(chat.url, `api/conversations/${key}/messages`, { text: 'hello' })).json);
      assert.equal(first.status, 200, first.html);
      pids.push(Number(/pid (\d+)/.exec(first.html)?.[1]));

      const restarted = await api(chat.url, 'api/agent/restart', {});
      assert.equal(restarted.status, 200);
      assert.equal(restarted.json.answers, true, JSON.stringify(restarted.json));
      assert.match(String(restarted.json.state), /running, started 2 times/);
      // Sent the moment the restart answered: the new process answers it (the old one is gone, the new one listens).
      const second = replyOf((await api(chat.url, `api/conversations/${key}/messages`, { text: 'again' })).json);
      assert.equal(second.status, 200, second.html);
      pids.push(Number(/pid (\d+)/.exec(second.html)?.[1]));
      assert.notEqual(pids[1], pids[0], 'a new process answered');
      assert.equal(alive(pids[0]!), false, 'the first process was stopped');

      const pane = await api(chat.url, 'api/agent');
      const lines = (pane.json.lines as string[]).join('\n');
      assert.match(lines, new RegExp(`listening, pid ${pids[0]}[\\s\\S]*restarted from the chat page[\\s\\S]*listening, pid ${pids[1]}`));
      assert.match(lines, /got Bearer <redacted>/);
      assert.ok(!lines.includes(TOKEN), 'the token the agent printed is redacted in the pane');
    } finally {
      chat.child.stdin.end('q\n');
    }
    assert.equal(await chat.exit, 0);
    assert.equal(alive(pids[1]!), false, 'the agent stops with the page');
    const { stdout, stderr } = chat.output();
    assert.ok(!stdout.includes(TOKEN) && !stderr.includes(TOKEN), 'the token is never printed');
  });

  test('--start: a restart whose new process ends before it answers says so, and the page is not said to be ready', async () => {
    const port = await freePort();
    // Listens the first time; the second time (its marker file there) it ends at once with code 3.
    const marker = join(folder, 'started-once');
    const script = join(folder, 'once-agent.mjs');
    writeFileSync(
      script,
      `import { createServer } from 'node:http';
import { existsSync, writeFileSync } from 'node:fs';
if (existsSync(${JSON.stringify(marker)})) { console.error('config broken'); process.exit(3); }
writeFileSync(${JSON.stringify(marker)}, '');
createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end('{"replies":[]}');
}).listen(Number(process.env.AGENT_PORT), '127.0.0.1');
`,
    );
    const chat = await startChat([`http://127.0.0.1:${port}/agent`, '--start', `node ${JSON.stringify(script)}`], {
      env: { AGENT_PORT: String(port) },
    });
    try {
      const restarted = await api(chat.url, 'api/agent/restart', {});
      assert.equal(restarted.json.answers, false);
      assert.match(String(restarted.json.reason), /it ended \(its process exited with code 3\) before it answered/);
      assert.match(String(restarted.json.state), /stopped: its process exited with code 3/);
    } finally {
      chat.child.stdin.end('q\n');
    }
    assert.equal(await chat.exit, 0);
  });

  test('--start where something already answers: exit 2, naming the process that holds the port, as the check does; nothing started', async () => {
    const { port } = new URL(agent.url);
    const result = await runCli(['chat', agent.url, '--start', 'node -e "process.exit(9)"']);
    assert.equal(result.code, 2, result.stdout);
    assert.match(
      result.stderr,
      new RegExp(
        `something is already answering at ${agent.url.replace(/\./g, '\\.')}; port ${port} is held by process ${process.pid} \\(.+\\): stop it with \`kill ${process.pid}\`, or leave out --start to talk to it`,
      ),
    );
  });
});
