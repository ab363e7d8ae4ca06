/**
 * Every line that names the command names it as this process was started (src/core/command-name.ts),
 * so it runs as written: the built command spawned each way a person starts it, each saying how to
 * run it again in the line that says the run was recorded, and that line's command run as printed.
 * The npx --package <tarball> form is held by test/pack.test.ts, which has the tarball.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { commandOf } from '../src/core/command-name.js';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { CLI, ROOT, runCommand } from './helpers.js';

/** The command a run names, from the line on stderr that says it was recorded. */
function namedCommand(stderr: string): string | undefined {
  return /^recorded in \.check-endpoint\/last-run\.json: (.*) show prints it, --failed plays again what did not pass$/m.exec(stderr)?.[1];
}

describe('the command, started each way, names itself as it was started', { timeout: 60_000 }, () => {
  let agent: RunningAgent;
  let folder = '';
  /** PATH without any folder that holds a check-endpoint: only the forms set up here can be found. */
  const plainPath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.includes('node_modules'))
    .join(delimiter);
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', PATH: plainPath };
  delete env.FLOW_FRAMEWORK_AGENT_TOKEN;
  delete env.npm_config_package;

  before(async () => {
    agent = await startReferenceAgent();
    folder = mkdtempSync(join(tmpdir(), 'check-endpoint-command-name-'));
    // An install as npm lays one out: node_modules/.bin/check-endpoint, a link to the package's bin.
    mkdirSync(join(folder, 'app/node_modules/.bin'), { recursive: true });
    symlinkSync(CLI, join(folder, 'app/node_modules/.bin/check-endpoint'));
    mkdirSync(join(folder, 'elsewhere'));
    // A global install: a check-endpoint on PATH, linked to the bin.
    mkdirSync(join(folder, 'global-bin'));
    symlinkSync(CLI, join(folder, 'global-bin/check-endpoint'));
  });
  after(async () => {
    await agent.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Runs the check of the typed case from `cwd`; the command it names for itself. */
  async function named(command: string, args: string[], cwd: string, extraPath?: string): Promise<string | undefined> {
    const result = await runCommand(command, [...args, agent.url, '--case', 'typed'], {
      cwd,
      env: { ...env, ...(extraPath ? { PATH: `${extraPath}${delimiter}${plainPath}` } : {}) },
    });
    assert.equal(result.code, 0, result.stderr);
    return namedCommand(result.stderr);
  }

  /** The named command, run as printed through a shell from the same folder: `show` answers from the record. */
  async function runsAsPrinted(command: string, cwd: string, extraPath?: string): Promise<void> {
    const shown = await runCommand('sh', ['-c', `${command} show`], {
      cwd,
      env: { ...env, ...(extraPath ? { PATH: `${extraPath}${delimiter}${plainPath}` } : {}) },
    });
    assert.equal(shown.code, 0, `${command} show: ${shown.stderr}`);
    assert.match(shown.stdout, /^1 of 1 case passed\.$/m, shown.stdout);
  }

  test('node bin/check-endpoint.cjs, from the clone: that path, relative', async () => {
    assert.equal(await named(process.execPath, ['bin/check-endpoint.cjs'], ROOT), 'node bin/check-endpoint.cjs');
  });

  test('node <path>/bin/check-endpoint.cjs, from another folder: the path in full', async () => {
    const cwd = join(folder, 'elsewhere');
    const command = await named(process.execPath, [CLI], cwd);
    assert.equal(command, `node ${CLI}`);
    await runsAsPrinted(command!, cwd);
  });

  test('node_modules/.bin/check-endpoint, from the folder it is installed in: npx check-endpoint, which resolves to that install', async () => {
    const cwd = join(folder, 'app');
    assert.equal(await named(join(cwd, 'node_modules/.bin/check-endpoint'), [], cwd), 'npx check-endpoint');
  });

  test('node_modules/.bin/check-endpoint, from another folder: its path, never a bare npx check-endpoint', async () => {
    const cwd = join(folder, 'elsewhere');
    const command = await named(join(folder, 'app/node_modules/.bin/check-endpoint'), [], cwd);
    assert.equal(command, join(folder, 'app/node_modules/.bin/check-endpoint'));
    await runsAsPrinted(command!, cwd);
  });

  test('a global install, found on PATH: check-endpoint', async () => {
    const cwd = join(folder, 'elsewhere');
    const globalBin = join(folder, 'global-bin');
    const command = await named('check-endpoint', [], cwd, globalBin);
    assert.equal(command, 'check-endpoint');
    await runsAsPrinted(command!, cwd, globalBin);
  });

  test('help, usage errors and show name it the same way', async () => {
    const cwd = join(folder, 'elsewhere');
    const help = await runCommand(process.execPath, [CLI, '--help'], { cwd, env });
    assert.match(help.stdout, new RegExp(`^Usage: node ${CLI.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} <url> \\[flags\\]$`, 'm'));
    const missing = await runCommand(process.execPath, ['bin/check-endpoint.cjs'], { cwd: ROOT, env });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^Run node bin\/check-endpoint\.cjs --help for usage\.$/m);
  });
});

describe("a hint's command, as the process was started", { timeout: 60_000 }, () => {
  let agent: RunningAgent;
  let folder = '';
  before(async () => {
    // Markdown on SMS: a finding whose hint suggests `check-endpoint limits sms --prompt`.
    agent = await serveAgent(() => ({ replies: [{ type: 'message', text: 'We are **open** until 6pm.' }] }));
    folder = mkdtempSync(join(tmpdir(), 'check-endpoint-hint-command-'));
  });
  after(async () => {
    await agent.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** The --json report's problems, checked from `cwd` with the bin at `bin`. */
  async function problems(bin: string, cwd: string): Promise<{ id: string; hint: string }[]> {
    const result = await runCommand(process.execPath, [bin, agent.url, '--channel', 'sms', '--case', 'typed', '--json'], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
    });
    assert.equal(result.code, 0, 'a warning passes');
    return (JSON.parse(result.stdout) as { problems: { id: string; hint: string }[] }).problems;
  }

  test('names the command each way it was started, and the problem keeps one id', async () => {
    const fromClone = await problems('bin/check-endpoint.cjs', ROOT);
    const fromElsewhere = await problems(CLI, folder);
    const markdown = fromClone.find((problem) => problem.hint.includes('limits sms --prompt'));
    assert.ok(markdown, JSON.stringify(fromClone));
    assert.match(markdown.hint, /`node bin\/check-endpoint\.cjs limits sms --prompt`/);
    const same = fromElsewhere.find((problem) => problem.id === markdown.id);
    assert.ok(same, 'the same problem id from another folder');
    assert.ok(same.hint.includes(`\`node ${CLI} limits sms --prompt\``), same.hint);
    assert.doesNotMatch(same.hint, /`check-endpoint /);
  });
});

describe('commandOf, from what it reads of the process', () => {
  const BIN = '/pkg/check-endpoint/bin/check-endpoint.cjs';
  const links: Record<string, string> = {
    [BIN]: BIN,
    '/home/me/.npm/_npx/ab12/node_modules/.bin/check-endpoint': BIN,
    '/work/app/node_modules/.bin/check-endpoint': BIN,
  };
  const facts = {
    script: undefined,
    packageBin: BIN,
    cwd: '/work/app',
    path: '/usr/bin',
    npxPackage: undefined,
    npxCachePackages: undefined,
    realpath: (file: string) => links[file],
  };

  test('npx --package <tarball>: the same form, with the package as given (or as npx cached it); never a registry name', () => {
    const script = '/home/me/.npm/_npx/ab12/node_modules/.bin/check-endpoint';
    const outside = { ...facts, cwd: '/work/python-agent', script };
    assert.equal(
      commandOf({ ...outside, npxPackage: './check-endpoint-0.1.0.tgz' }),
      'npx --yes --package ./check-endpoint-0.1.0.tgz check-endpoint',
    );
    assert.equal(
      commandOf({ ...outside, npxPackage: '/tmp/my tools/check-endpoint-0.1.0.tgz' }),
      "npx --yes --package '/tmp/my tools/check-endpoint-0.1.0.tgz' check-endpoint",
    );
    // `npx ./check-endpoint-0.1.0.tgz`: npm passes no npm_config_package; its cache's package.json names what was given.
    assert.equal(
      commandOf({ ...outside, npxCachePackages: ['./check-endpoint-0.1.0.tgz'] }),
      'npx --yes --package ./check-endpoint-0.1.0.tgz check-endpoint',
    );
    // Neither says it: the cached command by its path, never a name the registry would resolve.
    assert.equal(commandOf(outside), script);
    assert.equal(commandOf({ ...outside, npxCachePackages: ['./a.tgz', './b.tgz'] }), script);
  });

  test('the library, in a project that installed it: npx check-endpoint; elsewhere, the bin by its path', () => {
    assert.equal(commandOf({ ...facts, script: '/work/app/test/agent.test.js' }), 'npx check-endpoint');
    assert.equal(commandOf({ ...facts, cwd: '/work/other', script: '/work/other/test.js' }), `node ${BIN}`);
  });
});
