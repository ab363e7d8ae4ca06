/**
 * The package installed straight from its repository, as `npm install git+https://…/check-endpoint.git`
 * does: here a `git+file://` repository holding this working tree (its tracked and not ignored
 * files, so what is tested is what would be pushed), installed into a fresh folder that has neither
 * TypeScript nor esbuild. npm clones it, installs its dev dependencies in the clone (from the npm
 * cache `npm ci` filled), runs its `prepare` (the build), and packs what `files` names. The result
 * must be a built command and library; and a package without its build must say so, never a version.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { type CliResult, ROOT } from './helpers.js';
import { commitEverything, copyWorkingTree } from './working-tree-copy.js';
import { ALL_PASSED, escaped, npm, npx, runAsUser } from './installed-package.js';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** `check-endpoint serve-example` of the installed package, on a free port, until killed. */
async function serveExample(cwd: string): Promise<{ url: string; child: ChildProcessWithoutNullStreams }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.FLOW_FRAMEWORK_AGENT_TOKEN;
  const child = spawn(process.execPath, [join(cwd, 'node_modules/check-endpoint/bin/check-endpoint.cjs'), 'serve-example', '--port', '0'], {
    cwd,
    env,
  });
  let printed = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const listening = /listening at (http:\/\/\S+)/.exec(printed);
      if (listening?.[1]) resolve(listening[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve-example exited ${code}: ${printed}`)));
  });
  return { url, child };
}

describe('installed from its git repository', { timeout: 300_000 }, () => {
  const temporary: string[] = [];
  let project = '';
  let installed = '';
  let example: { url: string; child: ChildProcessWithoutNullStreams } | undefined;
  let reference: RunningAgent | undefined;
  let spec = '';
  let npxCheck: CliResult | undefined;

  before(async () => {
    const repository = mkdtempSync(join(tmpdir(), 'check-endpoint-repository-'));
    temporary.push(repository);
    copyWorkingTree(repository);
    commitEverything(repository);
    project = mkdtempSync(join(tmpdir(), 'check-endpoint-git-install-'));
    temporary.push(project);
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'git-install-test', version: '0.0.0', private: true, type: 'module' })}\n`,
    );
    spec = `git+${pathToFileURL(repository).href}`;
    reference = await startReferenceAgent();
    const noPackageFolder = mkdtempSync(join(tmpdir(), 'check-endpoint-no-package-'));
    temporary.push(noPackageFolder);
    // The README's two forms at once: installed into a project, and run by npx from a folder with no package.json.
    const [install, npxRun] = await Promise.all([
      runAsUser(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', spec], project),
      runAsUser(
        npx,
        ['--yes', '--prefer-offline', '--package', spec, 'check-endpoint', reference.url, '--channel', 'all'],
        noPackageFolder,
      ),
    ]);
    npxCheck = npxRun;
    assert.equal(install.code, 0, `${install.stdout}\n${install.stderr}`);
    installed = join(project, 'node_modules/check-endpoint');
    example = await serveExample(project);
  });

  after(async () => {
    example?.child.kill();
    await reference?.close();
    for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
  });

  test('gives the built package, and puts neither TypeScript nor esbuild nor tsx into the project', () => {
    for (const built of ['dist/cli.cjs', 'dist/cli.cache', 'dist/index.js', 'dist/report.js', 'dist/types/index.d.ts']) {
      assert.ok(existsSync(join(installed, built)), `the git install has ${built}`);
    }
    assert.equal(existsSync(join(installed, 'src')), false, 'no sources: only what `files` names');
    for (const tool of ['typescript', 'esbuild', 'tsx']) assert.equal(existsSync(join(project, 'node_modules', tool)), false, tool);
  });

  test('npx check-endpoint --version and --help answer from the installed copy', async () => {
    const version = await runAsUser(npx, ['check-endpoint', '--version'], project);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout, `${VERSION}\n`);
    const help = await runAsUser(npx, ['check-endpoint', '--help'], project);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /check-endpoint <url>/);
  });

  test('its check-endpoint serve-example passes its own check on every channel', async () => {
    const check = await runAsUser(npx, ['check-endpoint', example!.url, '--channel', 'all'], project);
    assert.equal(check.code, 0, `${check.stdout}\n${check.stderr}`);
    assert.ok(check.stdout.split('\n').includes(ALL_PASSED), check.stdout);
  });

  test('npx --yes --package git+… check-endpoint, from a folder with no package.json, checks an agent and names itself so', () => {
    assert.equal(npxCheck!.code, 0, `${npxCheck!.stdout}\n${npxCheck!.stderr}`);
    assert.ok(npxCheck!.stdout.split('\n').includes(ALL_PASSED), npxCheck!.stdout);
    assert.ok(
      npxCheck!.stderr.includes(`recorded in .check-endpoint/last-run.json: npx --yes --package ${spec} check-endpoint show`),
      npxCheck!.stderr,
    );
  });

  test("import { checkEndpoint } from 'check-endpoint' checks the same agent", async () => {
    writeFileSync(
      join(project, 'check.js'),
      [
        "import { checkEndpoint } from 'check-endpoint';",
        'const report = await checkEndpoint(process.argv[2], { channels: ["web"] });',
        'console.log(report.outcome, report.exitCode);',
        '',
      ].join('\n'),
    );
    const result = await runAsUser(process.execPath, ['check.js', example!.url], project);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'passed 0\n');
  });

  test('its declarations compile in a TypeScript project: without @types/node under skipLibCheck, and with it in full', () => {
    writeFileSync(
      join(project, 'check.ts'),
      [
        "import { checkEndpoint, type Report } from 'check-endpoint';",
        "import { renderJunit } from 'check-endpoint/report';",
        "const report: Report = await checkEndpoint('http://127.0.0.1:8080/agent', { channels: ['web'] });",
        "const passed: boolean = report.outcome === 'passed';",
        'console.log(passed, renderJunit(report, { startedAt: new Date() }).length);',
        '',
      ].join('\n'),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const common = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', 'check.ts'];
    // The project has no @types/node, and nothing above it in tmpdir() has one.
    assert.equal(existsSync(join(project, 'node_modules/@types/node')), false);
    execFileSync(process.execPath, [tsc, ...common, '--skipLibCheck'], { cwd: project, encoding: 'utf8' });
    // With @types/node (a Node TypeScript project's own), every declaration is checked.
    execFileSync(process.execPath, [tsc, ...common, '--typeRoots', join(ROOT, 'node_modules/@types'), '--types', 'node'], {
      cwd: project,
      encoding: 'utf8',
    });
  });

  test('a copy without its build says so and exits 2, even for --version: installed, it says to install again; in a clone, to build', async () => {
    const unbuiltInstall = join(project, 'unbuilt/node_modules/check-endpoint');
    const unbuiltClone = join(project, 'unbuilt-clone');
    for (const copy of [unbuiltInstall, unbuiltClone]) {
      mkdirSync(copy, { recursive: true });
      cpSync(join(installed, 'bin'), join(copy, 'bin'), { recursive: true });
      cpSync(join(installed, 'package.json'), join(copy, 'package.json'));
    }
    for (const args of [['--version'], ['--help']]) {
      const asInstalled = await runAsUser(process.execPath, [join(unbuiltInstall, 'bin/check-endpoint.cjs'), ...args], project);
      assert.equal(asInstalled.code, 2, asInstalled.stdout);
      assert.equal(asInstalled.stdout, '');
      assert.match(
        asInstalled.stderr,
        /dist\/cli\.cjs is missing: this install of check-endpoint was never built: a git install builds in its `prepare` script, which did not run \(npm install --ignore-scripts, /,
      );
      const inClone = await runAsUser(process.execPath, [join(unbuiltClone, 'bin/check-endpoint.cjs'), ...args], project);
      assert.equal(inClone.code, 2, inClone.stdout);
      assert.equal(inClone.stdout, '');
      assert.match(inClone.stderr, new RegExp(`is missing: run \`npm run build\` in ${escaped(unbuiltClone)} first`));
    }
  });
});
