/**
 * One report file that cannot be written (a folder at its name, a folder the user cannot write in,
 * a path under a regular file, GITHUB_STEP_SUMMARY naming a folder, `.check-endpoint` being a file)
 * loses neither the other reports, nor the record, nor the run's verdict: every other file is
 * written, each one that is not is named with its reason in words, --json still carries the cases,
 * and the exit code is 2 (the record alone, which no flag asks for, leaves the run's own code).
 * And a run removes the temporary files a killed run left where it writes. Through the built
 * command, against the reference agent on loopback, each in a folder of its own.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { exitCodeWith } from '../src/commands/check.js';
import { runCli } from './helpers.js';
import { REPORT_DIR_FILES } from './contract-ids.js';

const ENV = { FLOW_FRAMEWORK_AGENT_TOKEN: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined };
const folders: string[] = [];
let agent: RunningAgent;

function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-unwritable-'));
  folders.push(folder);
  return folder;
}

before(async () => {
  agent = await startReferenceAgent();
});
after(async () => {
  await agent.close();
  for (const folder of folders) {
    chmodSync(folder, 0o700);
    for (const entry of readdirSync(folder)) if (existsSync(join(folder, entry))) chmodSync(join(folder, entry), 0o700);
    rmSync(folder, { recursive: true, force: true });
  }
});

/** The --json document of a run: its outcome and how many cases it reports. */
function verdict(stdout: string): { outcome: string; cases: number; exitCode: number } {
  const report = JSON.parse(stdout) as { outcome: string; cases: unknown[]; exitCode: number };
  return { outcome: report.outcome, cases: report.cases.length, exitCode: report.exitCode };
}

/** The lines naming files not written, and no system code standing alone without words. */
function unwrittenLines(stderr: string): string[] {
  const lines = stderr.split('\n').filter((line) => line.startsWith('check-endpoint: could not'));
  for (const line of lines) assert.doesNotMatch(line, /: E[A-Z]+$/, `a reason in words, not a bare code: ${line}`);
  return lines;
}

/**
 * A folder this process cannot create a file in: a folder of mode 555 for a user, and for root
 * (whom modes do not stop) a folder of /sys, which refuses even root. Undefined when neither holds.
 */
function unwritableFolder(): string | undefined {
  const folder = join(newFolder(), 'read-only');
  mkdirSync(folder);
  chmodSync(folder, 0o555);
  for (const candidate of [folder, '/sys/kernel']) {
    try {
      writeFileSync(join(candidate, '.probe'), '');
      rmSync(join(candidate, '.probe'), { force: true });
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'EACCES') return candidate;
    }
  }
  return undefined;
}

describe('a report file that cannot be written', () => {
  test('--junit naming a folder: the report folder, the record and --json are all there; exit 2 names it in words', async () => {
    const folder = newFolder();
    mkdirSync(join(folder, 'adir'));
    const result = await runCli([agent.url, '--junit', 'adir', '--report-dir', 'reports', '--json'], { cwd: folder, env: ENV });
    assert.equal(result.code, 2, result.stderr);
    assert.deepEqual(verdict(result.stdout), { outcome: 'passed', cases: 5, exitCode: 0 });
    assert.deepEqual(readdirSync(join(folder, 'reports')).sort(), REPORT_DIR_FILES);
    assert.ok(existsSync(join(folder, '.check-endpoint/last-run.json')), 'the run is recorded');
    assert.deepEqual(unwrittenLines(result.stderr), [
      'check-endpoint: could not write adir (--junit): it is a folder, not a file: name a file in it (EISDIR)',
    ]);
    assert.match(result.stderr, /that file was not written; every other report asked for was, and the run's verdict stands \(exit 2/);
  });

  test('a path under a regular file: the other report is written; the file in the way is named', async () => {
    const folder = newFolder();
    writeFileSync(join(folder, 'afile'), 'not a folder');
    const result = await runCli([agent.url, '--quiet', '--junit', 'afile/junit.xml', '--har', 'traffic.har'], { cwd: folder, env: ENV });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stdout, /5 of 5 cases passed/);
    assert.ok(existsSync(join(folder, 'traffic.har')), 'the HAR is written');
    assert.deepEqual(unwrittenLines(result.stderr), [
      `check-endpoint: could not write afile/junit.xml (--junit): ${join(folder, 'afile')} is a file, not a folder (EEXIST)`,
    ]);
  });

  test('a folder this user cannot write in: permission denied, the other report written', async (t) => {
    const readOnly = unwritableFolder();
    if (readOnly === undefined) return t.skip('no folder here refuses this user (neither a mode 555 folder nor /sys/kernel)');
    const folder = newFolder();
    const result = await runCli([agent.url, '--quiet', '--junit', join(readOnly, 'junit.xml'), '--html', 'page.html'], {
      cwd: folder,
      env: ENV,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.ok(existsSync(join(folder, 'page.html')), 'the HTML is written');
    const [line, ...more] = unwrittenLines(result.stderr);
    assert.deepEqual(more, []);
    assert.match(line!, /could not write .*junit\.xml \(--junit\): permission denied.* \(EACCES\)$/);
  });

  test('GITHUB_STEP_SUMMARY naming a folder: the annotations and the reports are written, the summary named', async () => {
    const folder = newFolder();
    mkdirSync(join(folder, 'summary'));
    const result = await runCli([agent.url, '--quiet', '--junit', 'junit.xml'], {
      cwd: folder,
      env: { ...ENV, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(folder, 'summary') },
    });
    assert.equal(result.code, 2, result.stderr);
    assert.ok(existsSync(join(folder, 'junit.xml')));
    assert.deepEqual(unwrittenLines(result.stderr), [
      `check-endpoint: could not write ${join(folder, 'summary')} (GITHUB_STEP_SUMMARY): it is a folder, not a file: name a file in it (EISDIR)`,
    ]);
  });

  test('.check-endpoint being a file: the reports are written, the record is said not to be, the run keeps its exit code', async () => {
    const folder = newFolder();
    writeFileSync(join(folder, '.check-endpoint'), 'in the way');
    const result = await runCli([agent.url, '--quiet', '--junit', 'junit.xml', '--json'], { cwd: folder, env: ENV });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(verdict(result.stdout), { outcome: 'passed', cases: 5, exitCode: 0 });
    assert.ok(existsSync(join(folder, 'junit.xml')));
    assert.deepEqual(unwrittenLines(result.stderr), [
      `check-endpoint: could not record this run in .check-endpoint/last-run.json: ${join(folder, '.check-endpoint')} is a file, not a folder (EEXIST)`,
    ]);
  });

  test('the exit code: 2 when a report is missing, but an interrupted run keeps its own', () => {
    assert.equal(exitCodeWith({ outcome: 'passed', exitCode: 0 }, false), 0);
    assert.equal(exitCodeWith({ outcome: 'failed', exitCode: 1 }, false), 1);
    assert.equal(exitCodeWith({ outcome: 'passed', exitCode: 0 }, true), 2);
    assert.equal(exitCodeWith({ outcome: 'failed', exitCode: 1 }, true), 2);
    assert.equal(exitCodeWith({ outcome: 'interrupted', exitCode: 130 }, true), 130);
  });
});

describe('a path two flags ask for', () => {
  test('--report-dir D with --html D/report.html (the CI recipe): report.html is written, and said, once', async () => {
    const folder = newFolder();
    const result = await runCli([agent.url, '--report-dir', 'reports', '--html', 'reports/report.html'], { cwd: folder, env: ENV });
    assert.equal(result.code, 0, result.stderr);
    const wrote = `${result.stdout}${result.stderr}`.split('\n').filter((line) => line.startsWith('wrote '));
    assert.deepEqual(
      wrote.filter((line) => line.endsWith('report.html')),
      [`wrote ${join('reports', 'report.html')}`],
    );
    assert.deepEqual(readdirSync(join(folder, 'reports')).sort(), REPORT_DIR_FILES);
  });
});

describe('temporary files a killed run left', () => {
  test('a run removes those of dead writers in the folders it writes to, and keeps a live one', async () => {
    const folder = newFolder();
    mkdirSync(join(folder, 'reports'));
    // An id no process has: past the largest Linux allows (4194304), the others' at most 99999 on macOS.
    const dead = 2 ** 31 - 1;
    const stale = [join('reports', `.traffic.har.${dead}.0123456789ab.tmp`), `.junit.xml.${dead}.ba9876543210.tmp`];
    const alive = join('reports', `.report.json.${process.pid}.00112233aabb.tmp`);
    for (const file of [...stale, alive]) writeFileSync(join(folder, file), 'partial');
    const result = await runCli([agent.url, '--quiet', '--report-dir', 'reports', '--junit', 'junit.xml'], { cwd: folder, env: ENV });
    assert.equal(result.code, 0, result.stderr);
    for (const file of stale) assert.ok(!existsSync(join(folder, file)), `${file} is removed`);
    assert.ok(existsSync(join(folder, alive)), "the test runner's own (alive) is kept");
  });
});

describe('a report folder the system will not make', () => {
  test('--report-dir /proc/1/x: said in words, exit 2, at once (it spun at full CPU, deaf to SIGTERM)', async (t) => {
    if (!existsSync('/proc/1')) return t.skip('no /proc here');
    const folder = newFolder();
    const result = await runCli([agent.url, '--quiet', '--case', 'typed', '--report-dir', '/proc/1/x'], {
      cwd: folder,
      env: ENV,
      timeoutMs: 30_000,
    });
    assert.equal(result.code, 2, `exit ${result.code}: ${result.stderr}`);
    assert.match(
      result.stderr,
      /could not write \/proc\/1\/x\/\S+ \(--report-dir\): the folder \/proc\/1\/x cannot be made: \/proc\/1 takes no new folders/,
    );
  });
});
