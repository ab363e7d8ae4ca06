/**
 * The --start command's process, whatever happens around it: a command that dies while something
 * silent holds its port ends the run at once with the command's exit and its last lines, naming
 * what holds the port; and a check killed by SIGKILL leaves no agent behind (agent-guard.ts). The
 * agents are fixtures/agents/pipeline.mjs on 127.0.0.1 ephemeral ports.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Server, type Socket, createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CLI, ROOT, freePort, runCli, alive } from './helpers.js';

const PIPELINE_AGENT = join(ROOT, 'fixtures/agents/pipeline.mjs');
const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'check-endpoint-start-'));
  folders.push(made);
  return made;
}

function agentCommand(port: number, mode: string): string {
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(PIPELINE_AGENT)} ${port} ${mode}`;
}

/** Whether anything accepts a connection on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Polls `condition` every 50 ms until it holds, failing after `limitMs` (a bound on a hang, not a timing assertion). */
async function eventually(condition: () => boolean | Promise<boolean>, limitMs: number, what: string): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`${what}: still not so after ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A raw TCP server on a loopback port that accepts every connection and never writes a byte. */
async function silentServer(): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  return {
    server,
    port: address.port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('--start', () => {
  test('a command that dies with EADDRINUSE while something silent holds its port ends the run: exit 2, its exit code, its last lines, what holds the port', async () => {
    const silent = await silentServer();
    try {
      const result = await runCli([`http://127.0.0.1:${silent.port}/agent`, '--start', agentCommand(silent.port, 'ok')], {
        cwd: folder(),
      });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(
        result.stderr,
        /The agent started by --start ended \(its process exited with code 1\) before it answered, and something else holds its port: it took the connection to http:\/\/127\.0\.0\.1:\d+\/agent and did not answer/,
      );
      assert.match(
        result.stderr,
        new RegExp(`Port ${silent.port} is held by process ${process.pid} \\(.*\\): stop it with \`kill ${process.pid}\``),
        'the process holding the port: this test',
      );
      assert.match(result.stdout, /The agent's output \(its last \d+ lines\):/);
      assert.match(result.stdout, /Error: listen EADDRINUSE: address already in use 127\.0\.0\.1:\d+/, "the command's last lines");
    } finally {
      await silent.close();
    }
  });

  test('a command that puts the agent in the background (`… &`): checked as it runs, then stopped; the note says the & is not needed', async () => {
    const port = await freePort();
    const result = await runCli([`http://127.0.0.1:${port}/agent`, '--case', 'typed', '--start', `${agentCommand(port, 'ok')} &`], {
      cwd: folder(),
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.doesNotMatch(result.stderr, /old agent|holds its port|before it answered/);
    assert.match(result.stderr, /--start: its command returned at once and left the agent running in the background \(a trailing `&`\?\)/);
    assert.equal(await listening(port), false, 'the agent was stopped with its group');
  });

  test('a check killed by SIGKILL mid-run leaves no agent behind: its pid is gone and its port is free', async () => {
    const port = await freePort();
    const pidFile = join(folder(), 'pid');
    // The shell writes its pid and becomes the agent (exec): the pid is the agent's.
    const command = `echo $$ > ${JSON.stringify(pidFile)}; exec ${agentCommand(port, 'slow')}`;
    const check = spawn(process.execPath, [CLI, `http://127.0.0.1:${port}/agent`, '--start', command], {
      cwd: folder(),
      stdio: 'ignore',
    });
    const ended = new Promise((resolve) => check.once('exit', resolve));
    let agentPid = 0;
    try {
      await eventually(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 20_000, 'the agent wrote its pid');
      agentPid = Number(readFileSync(pidFile, 'utf8'));
      // The slow agent answers the probe and holds every message: the check is mid-run.
      await eventually(() => listening(port), 20_000, 'the agent listens');
      assert.ok(alive(agentPid));
      check.kill('SIGKILL');
      await ended;
      await eventually(() => !alive(agentPid), 30_000, `the agent (pid ${agentPid}) is gone once its check was killed`);
      assert.equal(await listening(port), false, 'the port is free');
    } finally {
      check.kill('SIGKILL');
      if (agentPid && alive(agentPid)) process.kill(agentPid, 'SIGKILL');
    }
  });
});
