/**
 * A key in the URL's query (Azure Functions' `?code=`) reaches the agent, and no output holds it:
 * not the lines printed, the JSON, the JUnit, HAR or HTML files, the report folder, the last run's
 * record, nor an answer that echoes it. The --json document of a run that could not be made writes
 * the target redacted too, credentials (user:pass@) and all.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { everyReport, runCli, temporaryFolder } from './helpers.js';

const KEY = 'AZSECRETKEY123';
const seenPaths: string[] = [];
let server: Server;
let url: string;

before(async () => {
  server = createServer((request, response) => {
    seenPaths.push(request.url ?? '');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text =
        request.method === 'POST' ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message: { text: string } }).message.text : '';
      // The typed question fails, echoing the key, so there is a finding, an excerpt and a reproduce line.
      const failing = text.includes('open today');
      response.writeHead(failing ? 500 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(failing ? { error: `no agent for key ${KEY}` } : { replies: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agent?code=${KEY}&v=2`;
});
after(() => server.close());

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('a key in the query is sent to the agent and written nowhere', async () => {
  const folder = temporaryFolder('check-endpoint-query-');
  const result = await runCli([url, '--case', 'typed', ...everyReport(folder)], { cwd: folder });
  assert.equal(result.code, 1, result.stderr);
  assert.ok(seenPaths.length > 0 && seenPaths.every((path) => path === `/api/agent?code=${KEY}&v=2`), seenPaths.join(' '));
  const report = JSON.parse(result.stdout) as { target: string; cases: { findings: { message: string; reproduce: string | null }[] }[] };
  assert.equal(report.target, `${new URL(url).origin}/api/agent?code=<redacted>&v=<redacted>`);
  assert.match(report.cases[0]!.findings[0]!.message, /no agent for key <redacted>/);
  assert.match(report.cases[0]!.findings[0]!.reproduce ?? '', /code=<redacted>/);
  const files = filesUnder(folder);
  assert.ok(files.some((file) => file.endsWith('last-run.json')) && files.some((file) => file.endsWith('.har')), files.join(' '));
  for (const [where, text] of [
    ['stdout', result.stdout],
    ['stderr', result.stderr],
    ...files.map((file) => [file, readFileSync(file, 'utf8')]),
  ]) {
    assert.ok(!text!.includes(KEY), `${where} holds the key`);
  }
});

describe('every --json document writes the target redacted, on every exit', () => {
  const QUERY_KEY = 'SECRETQ1';
  const PASSWORD = 'pass-SECRET777';
  const USER = 'agent-user-5e1';
  let reference: RunningAgent;
  let folder: string;
  let targets: { given: string; shown: string }[];
  before(async () => {
    reference = await startReferenceAgent();
    const { host } = new URL(reference.url);
    targets = [
      { given: `${reference.url}?code=${QUERY_KEY}`, shown: `http://${host}/agent?code=<redacted>` },
      { given: `http://${USER}:${PASSWORD}@${host}/agent`, shown: `http://<redacted>@${host}/agent` },
    ];
    folder = mkdtempSync(join(tmpdir(), 'check-endpoint-error-target-'));
  });
  after(async () => {
    await reference.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function documentOf(args: string[], code: number, env: Record<string, string | undefined> = {}): Promise<{ target: string }> {
    const result = await runCli([...args, '--json'], { cwd: folder, env: { FLOW_FRAMEWORK_AGENT_TOKEN: undefined, ...env } });
    assert.equal(result.code, code, result.stderr);
    for (const secret of [QUERY_KEY, PASSWORD, USER]) {
      assert.ok(!result.stdout.includes(secret) && !result.stderr.includes(secret), `${args.join(' ')}: ${secret} is printed`);
    }
    return JSON.parse(result.stdout) as { target: string };
  }

  test('a channel that does not exist (--channel whatsap): exit 2', async () => {
    for (const { given, shown } of targets) {
      assert.equal((await documentOf([given, '--channel', 'whatsap'], 2)).target, shown);
    }
  });

  test('an unset --token-env: exit 2', async () => {
    for (const { given, shown } of targets) {
      assert.equal(
        (await documentOf([given, '--token-env', 'CHECK_ENDPOINT_UNSET_TOKEN'], 2, { CHECK_ENDPOINT_UNSET_TOKEN: undefined })).target,
        shown,
      );
    }
  });

  test('--failed with no last run, and with nothing left to rerun: exit 2, then 0', async () => {
    for (const { given, shown } of targets) assert.equal((await documentOf([given, '--failed'], 2)).target, shown);
    // A passing run leaves nothing to play again.
    assert.equal(
      (await runCli([targets[0]!.given, '--case', 'typed'], { cwd: folder, env: { FLOW_FRAMEWORK_AGENT_TOKEN: undefined } })).code,
      0,
    );
    for (const { given, shown } of targets) assert.equal((await documentOf([given, '--failed'], 0)).target, shown);
  });
});
