/**
 * `--start "node agent.mjs 18150 $TOKEN"`: a command that carries a secret (the token, a
 * --header-env value, the URL's query key) is shown with each `<redacted>`, on the header line and
 * the --reuse-existing line, and no output or file of the run holds the secret. The agent is
 * fixtures/agents/pipeline.mjs on a 127.0.0.1 ephemeral port.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { type CliResult, ROOT, everyReport, freePort, runCli } from './helpers.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';

const PIPELINE_AGENT = join(ROOT, 'fixtures/agents/pipeline.mjs');
const TOKEN = 'sk-live-START-7c21e9';
const API_KEY = 'key-START-4d8a0b';
const QUERY_KEY = 'QKEY-START-93f1';
const ENV = { FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN, API_KEY };

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'check-endpoint-start-secrets-'));
  folders.push(made);
  return made;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The command, its secrets passed as arguments the agent ignores (as a script might pass them on). */
function commandWithSecrets(port: number, mode: string): string {
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(PIPELINE_AGENT)} ${port} ${mode} ${TOKEN} --key=${API_KEY} ${QUERY_KEY}`;
}

function assertNoSecret(result: CliResult, dir: string, secrets: readonly string[] = [TOKEN, API_KEY, QUERY_KEY]): void {
  const outputs: [string, string][] = [
    ['stdout', result.stdout],
    ['stderr', result.stderr],
    ...filesUnder(dir).map((file): [string, string] => [file, readFileSync(file, 'utf8')]),
  ];
  for (const [where, text] of outputs) {
    for (const secret of secrets) assert.ok(!text.includes(secret), `${where} holds ${secret}`);
  }
}

describe('--start with a secret in its command', () => {
  test('the header line shows the command with each secret <redacted>; no output, report or record holds one', async () => {
    const dir = folder();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/agent?code=${QUERY_KEY}`;
    const args = [url, '--header-env', 'x-api-key=API_KEY', '--start', commandWithSecrets(port, 'ok'), '--case', 'typed', '--verbose'];
    const result = await runCli([...args, ...everyReport(dir)], { cwd: dir, env: ENV });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /agent: .*pipeline\.mjs" \d+ ok <redacted> --key=<redacted> <redacted> \(started by --start/);
    assert.match(result.stderr, /pipeline agent: pid \d+ listening/, 'the agent ran, and its output is shown (--verbose)');
    assertNoSecret(result, dir);
  });

  test('a secret written into the command, set to a secret-named variable: <redacted> in the header and wherever the agent echoes it', async () => {
    const dir = folder();
    const port = await freePort();
    const written = 'sk-proj-WRITTEN-5e0c7f21';
    // The agent prints the key it was given, as a misconfigured agent's startup log might.
    const agent = `${JSON.stringify(process.execPath)} -e "console.log('using key ' + process.env.OPENAI_API_KEY)" && ${JSON.stringify(process.execPath)} ${JSON.stringify(PIPELINE_AGENT)} ${port} ok`;
    // A placeholder under a secret name is too short to be taken for one: MODE=... and TOKEN=test stay as written.
    const command = `OPENAI_API_KEY=${written} ANTHROPIC_KEY=${written}-2 DB_PASS=${written}-3 TOKEN=test MODE=verbose sh -c ${JSON.stringify(agent)}`;
    const result = await runCli(
      [`http://127.0.0.1:${port}/agent`, '--start', command, '--case', 'typed', '--verbose', ...everyReport(dir)],
      { cwd: dir },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /agent: OPENAI_API_KEY=<redacted> ANTHROPIC_KEY=<redacted> DB_PASS=<redacted> TOKEN=test MODE=verbose sh -c .* \(started by --start/,
    );
    assert.match(result.stderr, /using key <redacted>/, "the agent's own output, shown by --verbose");
    assertNoSecret(result, dir, [written]);
  });

  test('a command that exits before the agent answers: exit 2, its last lines shown, no secret', async () => {
    const dir = folder();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/agent?code=${QUERY_KEY}`;
    const result = await runCli([url, '--header-env', 'x-api-key=API_KEY', '--start', commandWithSecrets(port, 'exits'), '--json'], {
      cwd: dir,
      env: ENV,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /agent: .*pipeline\.mjs" \d+ exits <redacted> --key=<redacted> <redacted> \(started by --start/);
    assert.match(result.stdout + result.stderr, /missing OPENAI_API_KEY, giving up/);
    assertNoSecret(result, dir);
  });

  test('--reuse-existing: the line that says the command was not started shows it redacted', async () => {
    const dir = folder();
    const old = await startReferenceAgent();
    try {
      const port = Number(new URL(old.url).port);
      const url = `${old.url}?code=${QUERY_KEY}`;
      const args = [
        url,
        '--header-env',
        'x-api-key=API_KEY',
        '--start',
        commandWithSecrets(port, 'ok'),
        '--reuse-existing',
        '--case',
        'typed',
      ];
      const result = await runCli(args, { cwd: dir, env: ENV });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /not starting .*pipeline\.mjs" \d+ ok <redacted> --key=<redacted> <redacted>$/m);
      assertNoSecret(result, dir);
    } finally {
      await old.close();
    }
  });
});
