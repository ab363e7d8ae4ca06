/**
 * The command in a CI pipeline, run as a pipeline runs it: an agent that starts late (--wait), one
 * started by --start (and stopped after), one that dies mid-run, one that never listens or exits
 * at once, one that ignores SIGTERM, a run cancelled by SIGINT or SIGTERM, and --json when the
 * check cannot run. The agents are fixtures/agents/pipeline.mjs on 127.0.0.1 ephemeral ports.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CLI, ROOT, runCli, freePort, alive, portNothingListensOn } from './helpers.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { CHANNELS, FIXED_CASE_IDS } from './contract-ids.js';

const PIPELINE_AGENT = join(ROOT, 'fixtures/agents/pipeline.mjs');
const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function reportDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-pipeline-'));
  folders.push(folder);
  return folder;
}

/** Whether anything accepts a connection on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function agentCommand(port: number, mode: string): string {
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(PIPELINE_AGENT)} ${port} ${mode}`;
}

/** The agent's pid, from the line it prints when it starts. */
function agentPid(text: string): number {
  const match = /pipeline agent: pid (\d+)/.exec(text);
  assert.ok(match, `the agent's pid line in: ${text}`);
  return Number(match[1]);
}

describe('--wait and --start', () => {
  test('an agent that listens only after 2 s passes with --wait 10; without --wait it is not reached', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/agent`;
    const agent = spawn(process.execPath, [PIPELINE_AGENT, String(port), 'late'], { stdio: 'ignore' });
    try {
      const early = await runCli([url]);
      assert.equal(early.code, 2);
      assert.match(early.stderr, new RegExp(`Could not reach your agent at ${url}: connection refused`));
      const waited = await runCli([url, '--wait', '10']);
      assert.equal(waited.code, 0, waited.stdout + waited.stderr);
      assert.match(waited.stdout, /^5 of 5 cases passed\.$/m);
    } finally {
      agent.kill();
    }
  });

  test('an agent started by --start passes, its output stays quiet, agent.log is written, and its port is closed afterwards', async () => {
    const port = await freePort();
    const dir = reportDir();
    const result = await runCli([`http://127.0.0.1:${port}/agent`, '--start', agentCommand(port, 'ok'), '--report-dir', dir]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^5 of 5 cases passed\.$/m);
    assert.doesNotMatch(result.stdout, /pipeline agent:/, 'no agent output on a passing run');
    const log = readFileSync(join(dir, 'agent.log'), 'utf8');
    assert.match(log, /pipeline agent: chk_[0-9a-f]{8}\.whatsapp\.typed\.p1/);
    assert.equal(await listening(port), false);
    assert.equal(alive(agentPid(log)), false);
  });

  test("run by npx --package <tarball>, the agent's command does not inherit npm_config_package (an npx in it would run that tarball)", async () => {
    const port = await freePort();
    const dir = reportDir();
    const command = `echo "agent sees npm_config_package=[$npm_config_package]"; ${agentCommand(port, 'ok')}`;
    const result = await runCli([`http://127.0.0.1:${port}/agent`, '--case', 'typed', '--start', command, '--report-dir', dir], {
      env: { npm_config_package: './tools/check-endpoint-0.1.0.tgz' },
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(readFileSync(join(dir, 'agent.log'), 'utf8'), /^agent sees npm_config_package=\[\]$/m);
  });

  test("without --report-dir the agent's output goes to .check-endpoint/agent.log; the summary is the last line, the record's path after it", async () => {
    const port = await freePort();
    const cwd = reportDir();
    const result = await runCli([`http://127.0.0.1:${port}/agent`, '--start', agentCommand(port, 'ok')], { cwd });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /\(started by --start; waiting up to 60 s; its output in \.check-endpoint\/agent\.log\)/);
    assert.doesNotMatch(result.stdout, /pipeline agent:/);
    assert.match(result.stdout, /\n5 of 5 cases passed\.\n$/, 'the summary last');
    assert.match(result.stderr, /^recorded in \.check-endpoint\/last-run\.json: .*\n$/);
    assert.match(readFileSync(join(cwd, '.check-endpoint', 'agent.log'), 'utf8'), /pipeline agent: chk_[0-9a-f]{8}\.whatsapp\.typed\.p1/);
  });

  test('--verbose shows the agent output on a passing run too', async () => {
    const port = await freePort();
    const result = await runCli([`http://127.0.0.1:${port}/agent`, '--start', agentCommand(port, 'ok'), '--verbose']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /The agent's output \(its last \d+ lines\):\n {2}pipeline agent: pid \d+ listening/);
  });

  test('an agent that exits during the photo case: one status failure naming the exit, the rest not run, exit 1', async () => {
    const port = await freePort();
    const result = await runCli([
      `http://127.0.0.1:${port}/agent`,
      '--start',
      agentCommand(port, 'dies-on-photo'),
      '--channel',
      'all',
      '--json',
    ]);
    assert.equal(result.code, 1, result.stderr);
    const report = JSON.parse(result.stdout) as { cases: { id: string; status: string; findings: { rule: string; message: string }[] }[] };
    const failed = report.cases.filter((entry) => entry.status === 'failed');
    assert.equal(failed.length, 1, JSON.stringify(failed));
    assert.equal(failed[0]!.id, 'photo');
    assert.deepEqual(
      failed[0]!.findings.map((finding) => finding.rule),
      ['status'],
    );
    assert.match(failed[0]!.findings[0]!.message, /the agent stopped answering .*its process exited with code 3/);
    assert.ok(report.cases.some((entry) => entry.status === 'not-run'));
    assert.match(result.stderr, /^NOT RUN {2}\d+ cases: /m);
    assert.match(
      result.stderr,
      new RegExp(`^\\d+ of ${CHANNELS.length * FIXED_CASE_IDS.length} cases finished before the agent stopped answering`, 'm'),
    );
    assert.match(result.stderr, /pipeline agent: cannot read images, crashing/, 'the agent output, on a failing run');
  });

  test('a command that exits before the agent answers: exit 2, naming its exit code and showing its last lines', async () => {
    const port = await freePort();
    const result = await runCli([`http://127.0.0.1:${port}/agent`, '--start', agentCommand(port, 'exits')]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Could not reach your agent at \S+: its process exited with code 4 before it answered/);
    assert.match(result.stdout, /pipeline agent: missing OPENAI_API_KEY, giving up/);
  });

  test('a command that never opens the port: exit 2 after the wait, with its last lines, and nothing left running', async () => {
    const port = await portNothingListensOn();
    // Three seconds, not one: on a loaded CI machine a Node process can take over a second to print its first line.
    const result = await runCli([`http://127.0.0.1:${port}/agent`, '--start', agentCommand(port, 'never-listens'), '--wait', '3']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /after waiting 3 s: connection refused/);
    assert.match(result.stdout, /pipeline agent: pid \d+ warming up forever/);
    assert.equal(alive(agentPid(result.stdout)), false);
  });

  test('a command that ignores SIGTERM is killed after 5 s; no process outlives the check', { timeout: 30_000 }, async () => {
    const port = await freePort();
    const dir = reportDir();
    const result = await runCli([`http://127.0.0.1:${port}/agent`, '--start', agentCommand(port, 'ignores-sigterm'), '--report-dir', dir]);
    assert.equal(result.code, 0, result.stderr);
    const log = readFileSync(join(dir, 'agent.log'), 'utf8');
    assert.match(log, /SIGTERM ignored/);
    assert.equal(alive(agentPid(log)), false);
    assert.equal(await listening(port), false);
  });

  test('--start where something already answers: refused, exit 2, the command not started; --reuse-existing checks that one', async () => {
    const old = await startReferenceAgent();
    try {
      const port = new URL(old.url).port;
      const refused = await runCli([old.url, '--start', agentCommand(Number(port), 'ok'), '--verbose']);
      assert.equal(refused.code, 2, refused.stdout + refused.stderr);
      assert.match(
        refused.stderr,
        new RegExp(
          `something is already answering at ${old.url}; port ${port} is held by process ${process.pid} \\(.+\\): stop it with \`kill ${process.pid}\`, or pass --reuse-existing`,
        ),
        'the process holding the port, named: this test',
      );
      assert.doesNotMatch(refused.stdout + refused.stderr, /pipeline agent:/, 'the command was not started');
      const reused = await runCli([old.url, '--start', agentCommand(Number(port), 'ok'), '--reuse-existing', '--verbose']);
      assert.equal(reused.code, 0, reused.stdout + reused.stderr);
      assert.match(reused.stdout, /checking it \(--reuse-existing\), not starting/);
      assert.match(reused.stdout, /^5 of 5 cases passed\.$/m);
      assert.doesNotMatch(reused.stdout, /pipeline agent:/, 'the command was not started');
    } finally {
      await old.close();
    }
  });

  test('--reuse-existing without --start: exit 2', async () => {
    const result = await runCli(['http://127.0.0.1:9/agent', '--reuse-existing']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--reuse-existing goes with --start/);
  });

  for (const when of ['after the probe', 'before it answered'] as const) {
    test(`a started command that dies with EADDRINUSE ${when} while an old agent answers at its URL: the run fails, naming its exit and its last lines`, async () => {
      const folder = reportDir();
      const port = await freePort();
      const pidFile = join(folder, 'pid');
      const readyFile = join(folder, 'ready');
      // The command waits for the old agent to take the port, then starts the new one, which dies on it.
      const command = `echo $$ > ${JSON.stringify(pidFile)}; until [ -e ${JSON.stringify(readyFile)} ]; do sleep 0.05; done; exec ${agentCommand(port, 'ok')}`;
      const running = runCli([`http://127.0.0.1:${port}/agent`, '--start', command, '--json']);
      const old = await oldAgentOnceStarted(port, pidFile, {
        // "after the probe": it answers the probe at once, and only then lets the command go on.
        onFirstHead: when === 'after the probe' ? () => writeFileSync(readyFile, '') : undefined,
        holdHead: when === 'before it answered',
      });
      if (when === 'before it answered') writeFileSync(readyFile, '');
      try {
        const result = await running;
        const stopped = /the agent started by --start ended \(its process exited with code 1\)/i;
        if (when === 'before it answered') {
          assert.equal(result.code, 2, result.stdout + result.stderr);
          assert.match(result.stderr, stopped);
          assert.match(result.stderr, /yet something else answers at http:\S+: does an old agent still hold its port\?/);
          assert.match(result.stderr, /Error: listen EADDRINUSE: address already in use 127\.0\.0\.1:\d+/, "the command's last lines");
          return;
        }
        assert.equal(result.code, 1, result.stderr);
        const report = JSON.parse(result.stdout) as {
          stopped: { message: string } | null;
          cases: { status: string; findings: { rule: string; message: string; hint: string }[] }[];
        };
        assert.match(report.stopped?.message ?? '', stopped);
        const failed = report.cases.filter((entry) => entry.status === 'failed');
        assert.equal(failed.length, 1, JSON.stringify(report.cases));
        assert.deepEqual(
          failed[0]!.findings.map((finding) => finding.rule),
          ['status'],
        );
        assert.match(
          failed[0]!.findings[0]!.message,
          /it came from something else: the agent started by --start ended \(its process exited with code 1\)/,
        );
        assert.match(failed[0]!.findings[0]!.hint, /^Its last lines: .*Does an old agent still hold its port\?/);
        assert.match(result.stderr, /cases finished before the agent started by --start ended/);
        assert.match(result.stderr, /Error: listen EADDRINUSE: address already in use 127\.0\.0\.1:\d+/, "the command's last lines");
      } finally {
        await new Promise((resolve) => old.close(resolve));
      }
    });
  }

  for (const [flags, message] of [
    [['--wait', '-1'], /--wait must be a number of seconds, 0 or more; got -1/],
    [['--wait', 'soon'], /--wait needs a number \(SECONDS\); got "soon"/],
    [['--start', ''], /--start needs the command that starts your agent/],
    [['--start', '   '], /--start needs the command that starts your agent/],
  ] as const) {
    test(`${flags.join(' ')}: exit 2, naming the flag`, async () => {
      const result = await runCli(['http://127.0.0.1:9/agent', ...flags]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, message);
    });
  }
});

describe('a cancelled run keeps what it had', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    test(`${signal} during a slow run: exit ${code}, a JSON document of outcome interrupted, report.json written`, async () => {
      const port = await freePort();
      const dir = reportDir();
      // The agent answers the first message, then never again: the run sits in its second turn.
      const { serveAgent } = await import('../src/example-agent/serve-agent.js');
      let answered = 0;
      let stuck: () => void = () => {};
      const inSecondTurn = new Promise<void>((resolve) => (stuck = resolve));
      const agent = await serveAgent(
        () => {
          if (answered++ === 0) return { replies: [{ type: 'message', text: 'hi' }] };
          stuck();
          return new Promise(() => {});
        },
        { port },
      );
      try {
        const child = spawn(process.execPath, [CLI, agent.url, '--concurrency', '1', '--json', '--report-dir', dir], {
          env: { ...process.env, NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
        await inSecondTurn;
        child.kill(signal);
        assert.equal(await exited, code, stderr);
        const report = JSON.parse(stdout) as {
          outcome: string;
          exitCode: number;
          counts: { cases: number; passed: number; notRun: number };
        };
        assert.equal(report.outcome, 'interrupted');
        assert.equal(report.exitCode, code);
        assert.deepEqual([report.counts.passed, report.counts.notRun], [1, 4]);
        assert.match(stderr, new RegExp(`^1 of 5 cases finished before the run was interrupted by ${signal}\\.$`, 'm'));
        assert.ok(existsSync(join(dir, 'report.json')));
        assert.equal(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).outcome, 'interrupted');
        assert.ok(existsSync(join(dir, 'junit.xml')));
      } finally {
        await agent.close();
      }
    });
  }
});

describe('a run cancelled while --start waits for the agent', () => {
  test('SIGINT before the agent listens: exit 130, outcome interrupted (not "could not reach"), the report written, the agent stopped', async () => {
    const port = await portNothingListensOn();
    const dir = reportDir();
    const child = spawn(
      process.execPath,
      [
        CLI,
        `http://127.0.0.1:${port}/agent`,
        '--start',
        agentCommand(port, 'never-listens'),
        '--wait',
        '30',
        '--report-dir',
        dir,
        '--verbose',
      ],
      { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The agent is up and warming: its pid is in the log the check keeps.
    const log = join(dir, 'agent.log');
    while (!(existsSync(log) && /pipeline agent: pid \d+/.test(readFileSync(log, 'utf8'))))
      await new Promise((resume) => setTimeout(resume, 20));
    const pid = agentPid(readFileSync(log, 'utf8'));
    child.kill('SIGINT');
    assert.equal(await exited, 130, output);
    assert.doesNotMatch(output, /ReferenceError|Could not reach/);
    assert.match(output, /^0 of 0 cases finished before the run was interrupted by SIGINT\.$/m);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { outcome: string; exitCode: number };
    assert.deepEqual([report.outcome, report.exitCode], ['interrupted', 130]);
    assert.equal(alive(pid), false);
  });
});

describe('--json on every exit', () => {
  test('an unset --token-env variable: one JSON document of outcome error, exit 2', async () => {
    const result = await runCli(['http://127.0.0.1:9/agent', '--json', '--token-env', 'CHECK_ENDPOINT_NOT_SET']);
    assert.equal(result.code, 2);
    const report = JSON.parse(result.stdout) as { outcome: string; exitCode: number; error: { message: string } };
    assert.equal(report.outcome, 'error');
    assert.equal(report.exitCode, 2);
    assert.match(report.error.message, /CHECK_ENDPOINT_NOT_SET, but that environment variable is not set/);
    assert.match(result.stderr, /^check-endpoint: --token-env names CHECK_ENDPOINT_NOT_SET/m);
  });

  for (const [what, flags] of [
    ['a missing --baseline file', ['--baseline', '/nonexistent/baseline.txt']],
    ['a missing --spec file', ['--spec', '/nonexistent/spec.yaml']],
    ['an unknown case', ['--case', 'typo']],
    ['a bad --concurrency', ['--concurrency', '0']],
    ['an unknown flag', ['--chanel', 'sms']],
  ] as const) {
    test(`${what}: one JSON document of outcome error`, async () => {
      const result = await runCli(['http://127.0.0.1:9/agent', '--json', ...flags]);
      assert.equal(result.code, 2);
      const report = JSON.parse(result.stdout) as { outcome: string; exitCode: number };
      assert.deepEqual([report.outcome, report.exitCode], ['error', 2]);
    });
  }
});

/**
 * An old agent that takes the port once the --start command has written its pid: it answers every
 * message validly, but holds each answer (and, with `holdHead`, the probe's too) until the command's
 * process is gone, so that the check sees the command's end before the answer.
 */
async function oldAgentOnceStarted(
  port: number,
  pidFile: string,
  options: { onFirstHead: (() => void) | undefined; holdHead: boolean },
): Promise<Server> {
  while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await new Promise((resolve) => setTimeout(resolve, 20));
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const gone = async (): Promise<void> => {
    while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  let heads = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      if (request.method === 'HEAD') {
        if (options.holdHead) await gone();
        response.writeHead(200).end();
        if (heads++ === 0) options.onFirstHead?.();
        return;
      }
      await gone();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message: { text: string } };
      const replies = body.message.text === 'ok thanks 👍' ? [] : [{ type: 'message', text: 'Thanks, noted.' }];
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ replies }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
