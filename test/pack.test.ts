/**
 * The package as published: `npm pack`, installed from the tarball into an empty folder (offline,
 * from the npm cache), must give a working `check-endpoint` command and library. Assumes
 * `npm run build` has run (`npm test` builds first).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type CliResult, ROOT, runCommand, freePort } from './helpers.js';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command to its end, whatever its exit code; no colour, no token, no update notices. */
function run(command: string, args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false', ...extraEnv };
  delete env.FORCE_COLOR;
  delete env.FLOW_FRAMEWORK_AGENT_TOKEN;
  return runCommand(command, args, { cwd, env });
}

describe('the packed package', { timeout: 180_000 }, () => {
  const temporary: string[] = [];
  let packed: { filename: string; files: { path: string }[] };
  let tarball = '';
  let app = '';
  let agent: RunningAgent | undefined;

  before(async () => {
    assert.ok(existsSync(join(ROOT, 'dist/cli.cjs')) && existsSync(join(ROOT, 'dist/index.js')), 'run npm run build first');
    const packDir = mkdtempSync(join(tmpdir(), 'check-endpoint-pack-'));
    temporary.push(packDir);
    // --ignore-scripts: the test uses the build that has run; `prepare` would rebuild dist/ (deleting
    // it first) while other test files run the built command.
    const pack = await run(npm, ['pack', '--pack-destination', packDir, '--ignore-scripts', '--json'], ROOT);
    assert.equal(pack.code, 0, pack.stderr);
    const [only] = JSON.parse(pack.stdout) as (typeof packed)[];
    assert.ok(only, pack.stdout);
    packed = only;
    tarball = join(packDir, packed.filename);
    assert.ok(existsSync(tarball), tarball);

    app = mkdtempSync(join(tmpdir(), 'check-endpoint-install-'));
    temporary.push(app);
    writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'pack-test', version: '0.0.0', private: true, type: 'module' })}\n`);
    const flags = ['--no-audit', '--no-fund'];
    let install = await run(npm, ['install', tarball, ...flags, '--offline'], app);
    if (install.code !== 0) install = await run(npm, ['install', tarball, ...flags, '--prefer-offline'], app);
    assert.equal(install.code, 0, install.stderr);

    agent = await startReferenceAgent();
  });

  after(async () => {
    await agent?.close();
    for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
  });

  test('holds the command, the bundle and the spec, and not the sources or tests', () => {
    const paths = packed.files.map((file) => file.path);
    for (const needed of [
      'package.json',
      'bin/check-endpoint.cjs',
      'dist/cli.cjs',
      'dist/cli.cache',
      'dist/index.js',
      'dist/types/index.d.ts',
      'spec/agent-endpoint.openapi.yaml',
      'spec/request.schema.json',
      'spec/response.schema.json',
      'fixtures/photo.jpg',
    ]) {
      assert.ok(paths.includes(needed), `the tarball has ${needed}`);
    }
    const stray = paths.filter((path) => /^(src|test|scripts|scratch|node_modules|fixtures\/agents)\//.test(path));
    assert.deepEqual(stray, [], 'no sources, tests or fixture agents in the tarball');
  });

  test('the installed check-endpoint passes the reference agent on every channel', async () => {
    const bin = join(app, 'node_modules/.bin/check-endpoint');
    assert.ok(existsSync(bin), bin);
    assert.ok(
      realpathSync(bin).startsWith(realpathSync(join(app, 'node_modules', 'check-endpoint')) + sep),
      'the installed copy, not the repo',
    );
    const check = await run(bin, [agent!.url, '--channel', 'all'], app, { CHECK_ENDPOINT_DEBUG: '1' });
    assert.equal(check.code, 0, `${check.stdout}\n${check.stderr}`);
    // The build's code cache ships, and this Node takes it.
    assert.match(check.stderr, /^check-endpoint: code cache used$/m);
    const lines = check.stdout.split('\n');
    assert.ok(lines.includes('25 of 25 cases passed.'), check.stdout);
    assert.equal(lines.filter((line) => line.startsWith('PASS ')).length, 25, check.stdout);
  });

  for (const job of ['github-actions.yml', 'gitlab-ci.yml']) {
    test(`the CI job of docs/ci/${job} runs as written: its check-endpoint line, the agent started by --start, the reports kept`, async () => {
      const text = readFileSync(join(ROOT, 'docs/ci', job), 'utf8');
      assert.ok(readFileSync(join(ROOT, 'README.md'), 'utf8').includes(text.trim()), `the README shows docs/ci/${job} as it is`);
      const line = text.split('\n').find((candidate) => candidate.includes('npx check-endpoint'));
      assert.ok(line, `a check-endpoint line in ${job}`);
      const command = line.replace(/^\s*(?:-\s+|run:\s+)/, '');
      const port = await freePort();
      const reports = join(app, 'check-endpoint-reports');
      rmSync(reports, { recursive: true, force: true });
      const result = await run('bash', ['-c', command], app, {
        AGENT_URL: `http://127.0.0.1:${port}/agent`,
        AGENT_COMMAND: `${process.execPath} ${join(ROOT, 'fixtures/agents/pipeline.mjs')} ${port} ok`,
        npm_config_offline: 'true',
      });
      assert.equal(result.code, 0, `${command}\n${result.stdout}\n${result.stderr}`);
      assert.ok(result.stdout.split('\n').includes('25 of 25 cases passed.'), result.stdout);
      for (const file of ['report.json', 'junit.xml', 'agent.log']) assert.ok(existsSync(join(reports, file)), file);
    });
  }

  test("import('check-endpoint') gives the library, and its spec files resolve through the exports", async () => {
    // A module inside the install folder, so that bare specifiers resolve as a user's code would.
    const probe = join(app, 'probe.mjs');
    writeFileSync(
      probe,
      [
        "import { readFileSync } from 'node:fs';",
        "import { fileURLToPath } from 'node:url';",
        "const library = await import('check-endpoint');",
        "const schemaUrl = import.meta.resolve('check-endpoint/spec/response.schema.json');",
        'const schema = JSON.parse(readFileSync(fileURLToPath(schemaUrl), "utf8"));',
        'const good = library.validateAnswer({ replies: [] }, { channel: "whatsapp" });',
        'const bad = library.validateAnswer({ replies: [{ type: "message", txt: "hi" }] }, { channel: "whatsapp" });',
        // The photo case reads fixtures/photo.jpg from the installed package when it plays.
        `const photoRun = await library.checkEndpoint(${JSON.stringify(agent!.url)}, { cases: ['photo'] });`,
        'console.log(JSON.stringify({',
        '  validateAnswer: typeof library.validateAnswer,',
        '  checkEndpoint: typeof library.checkEndpoint,',
        '  schemaPath: fileURLToPath(schemaUrl),',
        '  schemaId: schema.$id,',
        '  good,',
        '  badRules: bad.map((finding) => finding.rule),',
        '  photoRun: { outcome: photoRun.outcome, sentBytes: photoRun.cases.map((c) => c.turns[0].request.message.attachments[0].dataBytes) },',
        '}));',
      ].join('\n'),
    );
    const result = await run(process.execPath, [probe], app);
    assert.equal(result.code, 0, result.stderr);
    const seen = JSON.parse(result.stdout) as {
      validateAnswer: string;
      checkEndpoint: string;
      schemaPath: string;
      schemaId: unknown;
      good: unknown;
      badRules: string[];
      photoRun: { outcome: string; sentBytes: number[] };
    };
    assert.equal(seen.validateAnswer, 'function');
    assert.equal(seen.checkEndpoint, 'function', 'src/index.ts exports checkEndpoint (rebuild after adding it)');
    assert.equal(realpathSync(seen.schemaPath), realpathSync(join(app, 'node_modules/check-endpoint/spec/response.schema.json')));
    const shipped = JSON.parse(readFileSync(join(ROOT, 'spec/response.schema.json'), 'utf8')) as { $id: unknown };
    assert.equal(seen.schemaId, shipped.$id);
    assert.deepEqual(seen.good, [], 'an empty answer is valid');
    assert.ok(seen.badRules.length > 0 && seen.badRules.every((rule) => rule === 'schema'), `a typo is a schema finding: ${seen.badRules}`);
    assert.deepEqual(
      seen.photoRun,
      { outcome: 'passed', sentBytes: [statSync(join(ROOT, 'fixtures/photo.jpg')).size] },
      'the library sends the shipped photo',
    );
  });
});
