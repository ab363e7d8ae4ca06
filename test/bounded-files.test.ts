/**
 * The command's own JSON files (the config file, the last run's record) are read with bounds: a
 * regular file only (not /dev/zero, a FIFO, a folder), at most 1 MiB (at the limit read, one byte
 * over refused), nested at most 64 levels, a UTF-8 byte order mark skipped; an absolute --config
 * path is the file it names. Each refusal is a sentence naming the file and what it is.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readConfigFile } from '../src/cli/config-file.js';
import { MAX_JSON_FILE_BYTES } from '../src/commands/read-json-file.js';
import { UsageError } from '../src/core/usage-error.js';
import { runCli } from './helpers.js';

const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-bounded-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const URL = 'http://127.0.0.1:9/agent';

/** A config of exactly `bytes` bytes: the URL, padded with spaces. */
function configOfSize(bytes: number): string {
  const text = JSON.stringify({ url: URL });
  return text.slice(0, -1) + ' '.repeat(bytes - text.length) + '}';
}

/** A FIFO at `file`, where the platform makes them; false where it does not. */
function makeFifo(file: string): boolean {
  try {
    execFileSync('mkfifo', [file]);
    return true;
  } catch {
    return false;
  }
}

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (cause) {
    assert.ok(cause instanceof UsageError, String(cause));
    return cause.message;
  }
  assert.fail('it was read');
}

describe('the config file', () => {
  test('--config with an absolute path reads that file, whatever the current folder holds', () => {
    const elsewhere = join(folder, 'elsewhere');
    const cwd = join(folder, 'cwd', 'tmp', 'x');
    mkdirSync(elsewhere, { recursive: true });
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(elsewhere, 'c.json'), JSON.stringify({ url: URL }));
    // What join(cwd, file) would read: a different agent's config of the same path under the cwd.
    mkdirSync(join(cwd, elsewhere), { recursive: true });
    writeFileSync(join(cwd, elsewhere, 'c.json'), JSON.stringify({ url: 'http://127.0.0.1:1/wrong' }));
    assert.equal(readConfigFile(join(elsewhere, 'c.json'), cwd)?.url, URL);
    assert.equal(readConfigFile('c.json', elsewhere)?.url, URL, 'a relative one from the current folder, as ever');
  });

  test('/dev/zero, a folder and a FIFO are refused as what they are, without reading them', (t) => {
    if (existsSync('/dev/zero'))
      assert.equal(
        refusal(() => readConfigFile('/dev/zero')),
        'cannot read the config file /dev/zero: it is a device; give a regular file',
      );
    assert.match(
      refusal(() => readConfigFile(folder)),
      /: it is a folder/,
    );
    const fifo = join(folder, 'config.fifo');
    if (!makeFifo(fifo)) return t.skip('mkfifo is not on this platform');
    // With no writer, an open for reading would wait forever; the test's end is the proof it did not.
    assert.equal(
      refusal(() => readConfigFile(fifo)),
      `cannot read the config file ${fifo}: it is a named pipe (FIFO); give a regular file`,
    );
  });

  test('1 MiB is read; one byte more is refused, saying the bound', () => {
    writeFileSync(join(folder, 'at-limit.json'), configOfSize(MAX_JSON_FILE_BYTES));
    assert.equal(readConfigFile('at-limit.json', folder)?.url, URL);
    writeFileSync(join(folder, 'over.json'), configOfSize(MAX_JSON_FILE_BYTES + 1));
    assert.equal(
      refusal(() => readConfigFile('over.json', folder)),
      'cannot read the config file over.json: it is larger than 1048576 bytes (1 MiB), the most read of such a file',
    );
  });

  test('nested 100,000 levels: a clear error, not a stack overflow; 64 levels of a wrong value are judged as ever', () => {
    writeFileSync(join(folder, 'deep.json'), `{"url":"${URL}","channel":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    assert.equal(
      refusal(() => readConfigFile('deep.json', folder)),
      'deep.json nests deeper than 64 levels, which no such file does',
    );
    writeFileSync(join(folder, 'deep-64.json'), `{"url":"${URL}","channel":${'['.repeat(63)}${']'.repeat(63)}}`);
    assert.match(
      refusal(() => readConfigFile('deep-64.json', folder)),
      /"channel" takes a string or a list of strings/,
    );
  });

  test('a UTF-8 byte order mark is skipped', () => {
    writeFileSync(join(folder, 'bom.json'), `\uFEFF${JSON.stringify({ url: URL })}`);
    assert.equal(readConfigFile('bom.json', folder)?.url, URL);
  });
});

describe('the last run record', () => {
  const ENV = { GITHUB_ACTIONS: undefined };

  /** A folder whose record is made by `make(file)`. */
  function withRecord(name: string, make: (file: string) => boolean | void): string | undefined {
    const cwd = join(folder, name);
    mkdirSync(join(cwd, '.check-endpoint'), { recursive: true });
    return make(join(cwd, '.check-endpoint', 'last-run.json')) === false ? undefined : cwd;
  }

  test('show and --failed refuse a record that is a device, a FIFO, too large or too deep, saying so', async (t) => {
    const cases: [string, (file: string) => boolean | void, RegExp][] = [
      ['device', (file) => (existsSync('/dev/zero') ? symlinkSync('/dev/zero', file) : false), /it is a device; give a regular file/],
      ['fifo', makeFifo, /it is a named pipe \(FIFO\); give a regular file/],
      ['large', (file) => writeFileSync(file, ' '.repeat(MAX_JSON_FILE_BYTES + 1)), /it is larger than 1048576 bytes \(1 MiB\)/],
      [
        'deep',
        (file) => writeFileSync(file, `{"version":1,"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
        /nests deeper than 64 levels/,
      ],
    ];
    for (const [name, make, message] of cases) {
      const cwd = withRecord(name, make);
      if (cwd === undefined) {
        t.diagnostic(`${name}: not on this platform`);
        continue;
      }
      for (const args of [['show'], [URL, '--failed']]) {
        const result = await runCli(args, { cwd, env: ENV });
        assert.equal(result.code, 2, `${name} ${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, /\.check-endpoint\/last-run\.json/);
        assert.match(result.stderr, message, `${name} ${args.join(' ')}`);
        assert.doesNotMatch(result.stderr, /Maximum call stack|internal error/);
      }
    }
  });
});

describe('every other file the check reads (issue 52, 5): a device, a FIFO or a file too large is a problem naming it, never a hang', () => {
  const ENV = { GITHUB_ACTIONS: undefined, FLOW_FRAMEWORK_AGENT_TOKEN: undefined };
  const DEVICE = /it is a device; give a regular file/;
  const FIFO = /it is a named pipe \(FIFO\); give a regular file/;

  /** A folder of its own for `name`, with a FIFO `pipe` (false where mkfifo is not). */
  function place(name: string): { cwd: string; pipe: string | undefined } {
    const cwd = join(folder, 'reads', name);
    mkdirSync(cwd, { recursive: true });
    const pipe = join(cwd, 'pipe');
    return { cwd, pipe: makeFifo(pipe) ? pipe : undefined };
  }

  /** Runs the command in `cwd`; a hang is ended after 30 s, and fails as code null. */
  async function refused(args: string[], cwd: string, message: RegExp, file: string): Promise<void> {
    const result = await runCli(args, { cwd, env: ENV, timeoutMs: 30_000 });
    assert.equal(result.code, 2, `${args.join(' ')}: exit ${result.code}\n${result.stderr}`);
    assert.ok(result.stderr.includes(file), `${args.join(' ')} names ${file}: ${result.stderr}`);
    assert.match(result.stderr, message, args.join(' '));
    assert.doesNotMatch(result.stderr, /internal error|Invalid string length/);
  }

  test('.env, read by default, a link to /dev/zero; --dotenv a FIFO', async (t) => {
    if (!existsSync('/dev/zero')) return t.skip('no /dev/zero here');
    const { cwd, pipe } = place('dotenv');
    symlinkSync('/dev/zero', join(cwd, '.env'));
    await refused([URL], cwd, DEVICE, '.env');
    if (pipe) await refused([URL, '--dotenv', pipe], cwd, FIFO, pipe);
  });

  test('--spec /dev/zero, a FIFO, and a spec whose $ref names /dev/zero', async (t) => {
    if (!existsSync('/dev/zero')) return t.skip('no /dev/zero here');
    const { cwd, pipe } = place('spec');
    await refused([URL, '--spec', '/dev/zero'], cwd, DEVICE, '/dev/zero');
    if (pipe) await refused([URL, '--spec', pipe], cwd, FIFO, pipe);
    symlinkSync('/dev/zero', join(cwd, 'zero.yaml'));
    writeFileSync(
      join(cwd, 'spec.yaml'),
      'openapi: 3.1.0\ninfo: { title: x, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    X: { $ref: "./zero.yaml" }\n',
    );
    await refused([URL, '--spec', 'spec.yaml'], cwd, DEVICE, 'zero.yaml');
  });

  test('--limits and --baseline: /dev/zero and a FIFO', async (t) => {
    if (!existsSync('/dev/zero')) return t.skip('no /dev/zero here');
    const { cwd, pipe } = place('limits');
    await refused([URL, '--limits', 'whatsapp=/dev/zero'], cwd, DEVICE, '/dev/zero');
    await refused([URL, '--baseline', '/dev/zero'], cwd, DEVICE, '/dev/zero');
    if (!pipe) return;
    await refused([URL, '--limits', `whatsapp=${pipe}`], cwd, FIFO, pipe);
    await refused([URL, '--baseline', pipe], cwd, FIFO, pipe);
  });

  test('validate FILE: /dev/zero and a FIFO', async (t) => {
    if (!existsSync('/dev/zero')) return t.skip('no /dev/zero here');
    const { cwd, pipe } = place('validate');
    await refused(['validate', '/dev/zero'], cwd, DEVICE, '/dev/zero');
    if (pipe) await refused(['validate', pipe], cwd, FIFO, pipe);
  });
});
