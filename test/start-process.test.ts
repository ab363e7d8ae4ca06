/**
 * The --start command's process, whatever happens around it: a command that dies while something
 * silent holds its port ends the run at once with the command's exit and its last lines, naming
 * what holds the port; and a check killed by SIGKILL leaves no agent behind (agent-guard.ts). The
 * agents are fixtures/agents/pipeline.mjs on 127.0.0.1 ephemeral ports.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, type Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ROOT, runCli } from './helpers.js';

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
});
