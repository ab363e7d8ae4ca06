/**
 * The checker's peak memory stays within its 150 MiB budget on the largest run it makes: every
 * case, extended and quality (a 5 MiB photo on each channel that takes images) on every channel,
 * writing every report file, against the reference agent in a process of its own. The files stay
 * within theirs: the HTML preview 5 MB, the HAR 15 MB (large bodies recorded by size and digest).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, ROOT, temporaryFolder } from './helpers.js';

const MIB = 1024 * 1024;

/** Runs a command, collecting stdout, and what test/peak-memory.cjs writes on descriptor 3 (maxRSS in KiB). */
function run(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; peakKiB: number }> {
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let rss = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stdio[3]!.on('data', (chunk: Buffer) => (rss += chunk.toString()));
  child.stderr!.resume();
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, peakKiB: Number(rss.trim()) })));
}

test('--quality --extended --channel all with every report: peak memory under 150 MiB, HTML under 5 MB, HAR under 15 MB', async () => {
  const folder = temporaryFolder('check-endpoint-memory-');
  const agent = spawn(process.execPath, [CLI, 'serve-example', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let printed = '';
      agent.stdout!.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const found = /http:\/\/127\.0\.0\.1:\d+\/agent/.exec(printed);
        if (found) resolve(found[0]);
      });
      agent.on('exit', () => reject(new Error(`serve-example ended: ${printed}`)));
    });
    const har = join(folder, 'run.har');
    const html = join(folder, 'run.html');
    const result = await run(
      [
        '-r',
        join(ROOT, 'test/peak-memory.cjs'),
        CLI,
        url,
        '--quality',
        '--extended',
        '--channel',
        'all',
        '--json',
        '--har',
        har,
        '--html',
        html,
      ],
      folder,
    );
    assert.equal(result.code, 0, result.stdout.slice(0, 2000));
    assert.equal((JSON.parse(result.stdout) as { counts: { cases: number } }).counts.cases > 45, true);
    const peakMiB = result.peakKiB / 1024;
    assert.ok(peakMiB > 0 && peakMiB < 150, `peak memory ${peakMiB.toFixed(1)} MiB`);
    assert.ok(statSync(html).size < 5_000_000, `the HTML preview is ${statSync(html).size} bytes`);
    assert.ok(statSync(har).size < 15_000_000, `the HAR is ${statSync(har).size} bytes`);
    assert.ok(statSync(har).size > MIB / 4, 'the HAR holds the run');
  } finally {
    agent.kill();
  }
});
