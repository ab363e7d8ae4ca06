/**
 * A key in the URL's query (Azure Functions' `?code=`) reaches the agent, and no output holds it:
 * not the lines printed, the JSON, the JUnit, HAR or HTML files, the report folder, the last run's
 * record, nor an answer that echoes it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { everyReport, runCli } from './helpers.js';

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
  const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-query-'));
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
