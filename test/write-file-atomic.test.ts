/**
 * Report files, the baseline and the last run's record are written atomically: a child process
 * writing a large report over and over is killed by SIGKILL at random moments, and the file at the
 * target's name is always a whole one, the old or a new. The same harness finds the file a plain
 * write leaves when it is killed halfway (opened with truncation, half written), so it can tell
 * the difference.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { build } from 'esbuild';
import { ROOT } from './helpers.js';
import { writeFileAtomic } from '../src/commands/write-file-atomic.js';

/** About 1 MB, a large report: a write of it takes many system calls, so a kill can land in the middle of one. */
const FILLER_LENGTH = 1024 * 1024;
/** Kills, and how many writers are killed at once. */
const KILLS = 40;
const AT_ONCE = 4;

/** A report of version `version`, which says its version at both ends. */
function reportText(version: number, filler: string): string {
  return `${JSON.stringify({ version, filler, end: version })}\n`;
}

/**
 * The writer: rewrites `target` with versions 1, 2, 3, ... until killed. After the first write it
 * says how long that one took, so that the kill can land anywhere in the next few, however busy
 * the machine is.
 */
const WRITER = `
import { promises as fs } from 'node:fs';
import { writeFileAtomic } from './write-file-atomic.mjs';
const [target, how, fillerLength] = process.argv.slice(2);
const write = how === 'atomic' ? writeFileAtomic : (file, content) => fs.writeFile(file, content);
const filler = 'x'.repeat(Number(fillerLength));
const report = (version) => JSON.stringify({ version, filler, end: version }) + '\\n';
if (how === 'halfway') {
  // What a plain fs.writeFile does, stopped in the middle: the file truncated, half of the new one written.
  const handle = await fs.open(target, 'w');
  const next = report(1);
  await handle.write(next.slice(0, next.length / 2));
  process.stdout.write('0\\n');
  setInterval(() => {}, 1000); // alive until killed
  await new Promise(() => {});
}
const started = performance.now();
await write(target, report(1));
process.stdout.write(String(performance.now() - started) + '\\n');
for (let version = 2; ; version++) await write(target, report(version));
`;

let folder = '';
before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'check-endpoint-atomic-'));
  await build({
    entryPoints: [join(ROOT, 'src/commands/write-file-atomic.ts')],
    outfile: join(folder, 'write-file-atomic.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  writeFileSync(join(folder, 'writer.mjs'), WRITER);
});
after(() => rmSync(folder, { recursive: true, force: true }));

/** Starts the writer on `target`, kills it by SIGKILL at a random moment of its next three writes, and waits for its end. */
function writeAndKill(target: string, how: 'atomic' | 'halfway'): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(folder, 'writer.mjs'), target, how, String(FILLER_LENGTH)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.on('error', reject);
    child.stdout.once('data', (firstWriteMs: Buffer) => setTimeout(() => child.kill('SIGKILL'), Math.random() * 3 * Number(firstWriteMs)));
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the writer ended by itself: ${code}`))));
  });
}

/** The version of the report at `file`, or undefined when what is there is not one whole report. */
function wholeVersion(file: string): number | undefined {
  try {
    const { version, filler, end } = JSON.parse(readFileSync(file, 'utf8')) as { version: unknown; filler: unknown; end: unknown };
    const whole = typeof version === 'number' && end === version && typeof filler === 'string' && filler.length === FILLER_LENGTH;
    return whole ? version : undefined;
  } catch {
    return undefined;
  }
}

describe('a write killed by SIGKILL at a random moment', { timeout: 180_000 }, () => {
  test(`writeFileAtomic: over ${KILLS} kills, the file at the name is always whole, the old one or a new one`, async () => {
    const targets = Array.from({ length: AT_ONCE }, (_, writer) => join(folder, `atomic-${writer}`, 'report.json'));
    for (const target of targets) {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, reportText(0, 'x'.repeat(FILLER_LENGTH)));
    }
    const versions: number[] = [];
    for (let round = 0; round < KILLS / AT_ONCE; round++) {
      await Promise.all(targets.map((target) => writeAndKill(target, 'atomic')));
      for (const target of targets) {
        const version = wholeVersion(target);
        assert.notEqual(version, undefined, `after round ${round + 1}, ${target} is cut short`);
        versions.push(version!);
      }
    }
    assert.ok(
      versions.every((version) => version > 0),
      `the first write always finished: ${versions.join(', ')}`,
    );
    // What a kill leaves behind is only temporary files, named so, beside it.
    const stray = targets.flatMap((target) => readdirSync(dirname(target)).filter((name) => name !== 'report.json'));
    assert.ok(
      stray.every((name) => /^\.report\.json\.\d+\.[0-9a-f]{12}\.tmp$/.test(name)),
      stray.join(', '),
    );
  });

  test('the harness tells: a plain write killed halfway leaves a cut file at the name', async () => {
    const target = join(folder, 'plain.json');
    writeFileSync(target, reportText(0, 'x'.repeat(FILLER_LENGTH)));
    assert.equal(wholeVersion(target), 0);
    await writeAndKill(target, 'halfway');
    assert.equal(wholeVersion(target), undefined, 'the harness did not see the cut file');
  });

  test('a failed write leaves the old file and no temporary one', async () => {
    const target = join(folder, 'failing');
    rmSync(target, { recursive: true, force: true });
    mkdirSync(join(target, 'a-folder-in-the-way'), { recursive: true });
    await assert.rejects(writeFileAtomic(join(target, 'a-folder-in-the-way'), 'content'), /EISDIR|ENOTEMPTY|EEXIST/);
    assert.deepEqual(readdirSync(target), ['a-folder-in-the-way']);
  });
});

/** The id of a process that has ended: a child run to its end. */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(child.pid!));
  });
}

describe('what a killed writer leaves behind', () => {
  test('a write removes the stale temporary files of dead writers in its folder, and keeps those of live ones', async () => {
    const target = join(folder, 'stale', 'report.json');
    mkdirSync(dirname(target), { recursive: true });
    const dead = await deadPid();
    const live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const planted = {
        deadSameName: `.report.json.${dead}.0123456789ab.tmp`,
        deadOtherReport: `.traffic.har.${dead}.ba9876543210.tmp`,
        ownProcess: `.junit.xml.${process.pid}.00112233aabb.tmp`,
        liveChild: `.report.html.${live.pid}.ffeeddccbbaa.tmp`,
        notOurs: `.notes.${dead}.tmp`,
      };
      for (const name of Object.values(planted)) writeFileSync(join(dirname(target), name), 'partial');
      await writeFileAtomic(target, 'whole');
      assert.deepEqual(
        readdirSync(dirname(target)).sort(),
        [planted.ownProcess, planted.liveChild, planted.notOurs, 'report.json'].sort(),
        "the dead writers' files are gone; the live ones' and a name not of our pattern are kept",
      );
    } finally {
      live.kill('SIGKILL');
    }
  });

  test('a replaced file keeps its mode: a private report stays private', async () => {
    const target = join(folder, 'mode', 'report.json');
    mkdirSync(dirname(target), { recursive: true });
    for (const mode of [0o600, 0o640, 0o444]) {
      writeFileSync(target, 'old');
      chmodSync(target, mode);
      await writeFileAtomic(target, 'new');
      assert.equal(statSync(target).mode & 0o777, mode, `mode ${mode.toString(8)}`);
      assert.equal(readFileSync(target, 'utf8'), 'new');
    }
    rmSync(target);
    await writeFileAtomic(target, 'first');
    assert.equal(statSync(target).mode & 0o777, 0o666 & ~process.umask(), 'a new file takes the umask as ever');
  });
});
