/**
 * The package as published: `npm pack`, installed from the tarball into an empty folder (offline,
 * from the npm cache) without a warning, must give a working `check-endpoint` command and library;
 * `npx --package <tarball>` from a folder with no package.json (with an npm cache of its own, as on
 * a fresh machine: its dependencies come from the registry) must run it too, as the CI recipes for
 * an agent in any language do. Assumes `npm run build` has run (`npm test` builds first).
 */
import assert from 'node:assert/strict';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ROOT, freePort } from './helpers.js';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { CHANNELS, FIXED_CASE_IDS } from './contract-ids.js';
import { copyWorkingTree } from './working-tree-copy.js';
import { ALL_PASSED, escaped, npm, npx, runAsUser } from './installed-package.js';

describe('the packed package', { timeout: 180_000 }, () => {
  const temporary: string[] = [];
  let packed: { filename: string; files: { path: string }[] };
  let tarball = '';
  let app = '';
  let agent: RunningAgent | undefined;
  let installWarnings: string[] = [];
  /** An npm cache of the npx runs' own, empty at first, as on a fresh machine. */
  let npmCache = '';

  /** An empty folder, no package.json in it or above it, as an agent's repository in another language is. */
  function emptyFolder(): string {
    const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-no-package-'));
    temporary.push(folder);
    return folder;
  }

  let besideTarball = '';
  /**
   * The folder the README's `npx --package ./check-endpoint-0.1.0.tgz` lines run in: no package.json,
   * the tarball beside them as the README has it, and the agent.py a --start line names (the minimal
   * Python agent, which listens on PORT). One for every such line: npx installs a tarball once per
   * path, and a line run after another shows what a user's second run shows.
   */
  function folderBesideTarball(): string {
    if (besideTarball === '') {
      besideTarball = emptyFolder();
      copyFileSync(tarball, join(besideTarball, 'check-endpoint-0.1.0.tgz'));
      copyFileSync(join(ROOT, 'examples/minimal/agent.py'), join(besideTarball, 'agent.py'));
    }
    return besideTarball;
  }

  before(async () => {
    assert.ok(existsSync(join(ROOT, 'dist/cli.cjs')) && existsSync(join(ROOT, 'dist/index.js')), 'run npm run build first');
    const packDir = mkdtempSync(join(tmpdir(), 'check-endpoint-pack-'));
    temporary.push(packDir);
    // Packed as a user packs it, scripts and all (prepack builds, then packs package.json without
    // prepare; postpack puts it back), but in a copy of the working tree: a build here would delete
    // and rewrite dist/ while other test files run the built command. The copy has the build too, as
    // a user's clone has after npm test: prepack's build finds it made from the same sources
    // (scripts/build-key.ts) and does not build again. test/git-install.test.ts builds from nothing.
    const clone = mkdtempSync(join(tmpdir(), 'check-endpoint-clone-'));
    temporary.push(clone);
    copyWorkingTree(clone);
    cpSync(join(ROOT, 'dist'), join(clone, 'dist'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
    const manifestBefore = readFileSync(join(clone, 'package.json'));
    const pack = await runAsUser(npm, ['pack', '--pack-destination', packDir, '--json'], clone);
    assert.equal(pack.code, 0, pack.stderr);
    assert.match(pack.stdout, /^dist\/ was built from these sources by this Node \(dist\/build-key\.txt\): not built again$/m);
    assert.deepEqual(readFileSync(join(clone, 'package.json')), manifestBefore, 'postpack put package.json back as it was');
    assert.equal(existsSync(join(clone, 'package.json.unpacked')), false);
    // The build's own lines come first on stdout; npm's JSON is the array at the end.
    const json = pack.stdout.slice(Math.max(0, pack.stdout.search(/^\[$/m)));
    const [only] = JSON.parse(json) as (typeof packed)[];
    assert.ok(only, pack.stdout);
    packed = only;
    tarball = join(packDir, packed.filename);
    assert.ok(existsSync(tarball), tarball);

    app = mkdtempSync(join(tmpdir(), 'check-endpoint-install-'));
    temporary.push(app);
    writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'pack-test', version: '0.0.0', private: true, type: 'module' })}\n`);
    const flags = ['--no-audit', '--no-fund'];
    let install = await runAsUser(npm, ['install', tarball, ...flags, '--offline'], app);
    if (install.code !== 0) install = await runAsUser(npm, ['install', tarball, ...flags, '--prefer-offline'], app);
    assert.equal(install.code, 0, install.stderr);
    installWarnings = install.stderr.split('\n').filter((line) => /^npm warn/i.test(line));

    npmCache = mkdtempSync(join(tmpdir(), 'check-endpoint-npm-cache-'));
    temporary.push(npmCache);
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
      'bin/bundle-end.cjs',
      'dist/cli.cjs',
      'dist/cli.cache',
      'dist/index.js',
      'dist/report.js',
      'dist/types/index.d.ts',
      'dist/types/reports.d.ts',
      'spec/agent-endpoint.openapi.yaml',
      'spec/request.schema.json',
      'spec/response.schema.json',
      'fixtures/photo.jpg',
    ]) {
      assert.ok(paths.includes(needed), `the tarball has ${needed}`);
    }
    const stray = paths.filter(
      (path) =>
        /^(src|test|scripts|scratch|node_modules|fixtures\/agents|dist\/types\/action)\//.test(path) || path === 'dist/build-key.txt',
    );
    assert.deepEqual(
      stray,
      [],
      "no sources, tests, fixture agents, the action's declarations (the action is not the package's) or the build's key in the tarball",
    );
  });

  test("installs without a warning, and its package.json runs no script on install: no install script, and no prepare (the clone's build)", () => {
    assert.deepEqual(installWarnings, []);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/check-endpoint/package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    // prepare (the clone's build, for a git install) is left out of the tarball's package.json by scripts/packed-manifest.ts.
    const onInstall = Object.keys(manifest.scripts ?? {}).filter((name) => /^(pre|post)?(install|prepare)$/.test(name));
    assert.deepEqual(onInstall, []);
    const cloneManifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.equal(cloneManifest.scripts.prepare, 'npm run build', 'the clone keeps it');
  });

  test('a pack that did not finish (its package.json.unpacked left behind) stops the next one, which says what to do, and touches neither file', async () => {
    const clone = mkdtempSync(join(tmpdir(), 'check-endpoint-unfinished-pack-'));
    temporary.push(clone);
    mkdirSync(join(clone, 'scripts'));
    copyFileSync(join(ROOT, 'scripts/packed-manifest.ts'), join(clone, 'scripts/packed-manifest.ts'));
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
    // Left by the pack that failed, and package.json edited since (a version bumped): neither is the right one to take for sure.
    const left = '{ "name": "check-endpoint", "version": "0.1.0", "scripts": { "prepare": "npm run build" } }\n';
    const edited = '{ "name": "check-endpoint", "version": "0.2.0", "scripts": {} }\n';
    writeFileSync(join(clone, 'package.json.unpacked'), left);
    writeFileSync(join(clone, 'package.json'), edited);
    const strip = await runAsUser(process.execPath, ['--import', 'tsx', 'scripts/packed-manifest.ts', 'strip'], clone);
    assert.equal(strip.code, 1);
    assert.match(
      strip.stderr,
      /package\.json\.unpacked is left from a pack that did not finish .*delete package\.json\.unpacked, and pack again/,
    );
    assert.deepEqual(
      [readFileSync(join(clone, 'package.json'), 'utf8'), readFileSync(join(clone, 'package.json.unpacked'), 'utf8')],
      [edited, left],
    );
  });

  test('npx --package <tarball> runs it from a folder with no package.json', async () => {
    const folder = emptyFolder();
    const check = await runAsUser(npx, ['--yes', '--package', tarball, 'check-endpoint', agent!.url, '--channel', 'all'], folder, {
      npm_config_cache: npmCache,
    });
    assert.equal(check.code, 0, `${check.stdout}\n${check.stderr}`);
    assert.ok(check.stdout.split('\n').includes(ALL_PASSED), check.stdout);
    assert.equal(
      existsSync(join(folder, 'package.json')) || existsSync(join(folder, 'node_modules')),
      false,
      'nothing installed into the folder',
    );
    // It names itself as it was started (src/core/command-name.ts), never as a bare npx check-endpoint.
    assert.match(
      check.stderr,
      new RegExp(
        `^recorded in \\.check-endpoint/last-run\\.json: npx --yes --package ${escaped(tarball)} check-endpoint show prints it`,
        'm',
      ),
    );
  });

  /** The run named itself as `npx --package ./check-endpoint-0.1.0.tgz`, and `show` run so in `folder` answers: its stdout. */
  async function namedAsTarballAndShown(stderr: string, folder: string): Promise<string> {
    assert.match(
      stderr,
      /^recorded in \.check-endpoint\/last-run\.json: npx --yes --package \.\/check-endpoint-0\.1\.0\.tgz check-endpoint show prints it/m,
    );
    const shown = await runAsUser('bash', ['-c', 'npx --yes --package ./check-endpoint-0.1.0.tgz check-endpoint show'], folder, {
      npm_config_cache: npmCache,
    });
    assert.equal(shown.code, 0, shown.stderr);
    return shown.stdout;
  }

  test('npx <tarball> (the package given in place, which npm does not pass on): named with --package, and that runs', async () => {
    const folder = folderBesideTarball();
    const check = await runAsUser(npx, ['--yes', './check-endpoint-0.1.0.tgz', agent!.url, '--case', 'typed'], folder, {
      npm_config_cache: npmCache,
    });
    assert.equal(check.code, 0, `${check.stdout}\n${check.stderr}`);
    const shown = await namedAsTarballAndShown(check.stderr, folder);
    assert.match(shown, /^1 of 1 case passed\.$/m);
  });

  test('each npx --package ./check-endpoint-0.1.0.tgz line of the README and docs/ runs as written, and names itself so', async () => {
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ];
    const lines = pages.flatMap((page) =>
      readFileSync(join(ROOT, page), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('npx --yes --package ./check-endpoint-0.1.0.tgz check-endpoint ')),
    );
    assert.ok(lines.length >= 2, `the README's install line and docs/ci.md's: ${lines.length}`);
    for (const line of lines) {
      const folder = folderBesideTarball();
      // Port 8080 is the agent's: a free one for an agent the line starts, else the reference agent's.
      const port = line.includes('--start') ? await freePort() : Number(new URL(agent!.url).port);
      const result = await runAsUser('bash', ['-c', line.replaceAll('8080', String(port))], folder, { npm_config_cache: npmCache });
      assert.equal(result.code, 0, `${line}\n${result.stdout}\n${result.stderr}`);
      await namedAsTarballAndShown(result.stderr, folder);
    }
  });

  test('the installed check-endpoint passes the reference agent on every channel', async () => {
    const bin = join(app, 'node_modules/.bin/check-endpoint');
    assert.ok(existsSync(bin), bin);
    assert.ok(
      realpathSync(bin).startsWith(realpathSync(join(app, 'node_modules', 'check-endpoint')) + sep),
      'the installed copy, not the repo',
    );
    const check = await runAsUser(bin, [agent!.url, '--channel', 'all'], app, { CHECK_ENDPOINT_DEBUG: '1' });
    assert.equal(check.code, 0, `${check.stdout}\n${check.stderr}`);
    // The build's code cache ships, and this Node takes it.
    assert.match(check.stderr, /^check-endpoint: code cache used$/m);
    // Run from the folder that installed it, it names itself npx check-endpoint, which resolves to that install.
    assert.match(check.stderr, /^recorded in \.check-endpoint\/last-run\.json: npx check-endpoint show prints it/m);
    const lines = check.stdout.split('\n');
    assert.ok(lines.includes(ALL_PASSED), check.stdout);
    assert.equal(lines.filter((line) => line.startsWith('PASS ')).length, CHANNELS.length * FIXED_CASE_IDS.length, check.stdout);
  });

  // The GitHub jobs use the action instead (test/action.test.ts runs their check steps).
  for (const job of ['gitlab-ci.yml']) {
    test(`the CI job of docs/ci/${job} runs as written: its check-endpoint line, the agent started by --start, the reports kept`, async () => {
      const text = readFileSync(join(ROOT, 'docs/ci', job), 'utf8');
      assert.ok(readFileSync(join(ROOT, 'docs/ci.md'), 'utf8').includes(text.trim()), `docs/ci.md shows docs/ci/${job} as it is`);
      const line = text.split('\n').find((candidate) => candidate.includes('npx check-endpoint'));
      assert.ok(line, `a check-endpoint line in ${job}`);
      const command = line.replace(/^\s*(?:-\s+|run:\s+)/, '');
      const port = await freePort();
      const reports = join(app, 'check-endpoint-reports');
      rmSync(reports, { recursive: true, force: true });
      const result = await runAsUser('bash', ['-c', command], app, {
        AGENT_URL: `http://127.0.0.1:${port}/agent`,
        AGENT_COMMAND: `${process.execPath} ${join(ROOT, 'fixtures/agents/pipeline.mjs')} ${port} ok`,
        npm_config_offline: 'true',
      });
      assert.equal(result.code, 0, `${command}\n${result.stdout}\n${result.stderr}`);
      assert.ok(result.stdout.split('\n').includes(ALL_PASSED), result.stdout);
      for (const file of ['report.json', 'junit.xml', 'agent.log']) assert.ok(existsSync(join(reports, file)), file);
    });
  }

  for (const job of ['gitlab-ci-python.yml']) {
    test(`the Python CI job of docs/ci/${job} runs as written from a folder with no package.json: the Python agent started by --start, the reports and the HTML kept`, async () => {
      const text = readFileSync(join(ROOT, 'docs/ci', job), 'utf8');
      const line = text.split('\n').find((candidate) => candidate.includes('check-endpoint "$AGENT_URL"'));
      assert.ok(line, `a check-endpoint line in ${job}`);
      const command = line.replace(/^\s*(?:-\s+|run:\s+)/, '');
      assert.match(command, /^npx --yes --package "\$CHECK_ENDPOINT_PACKAGE" check-endpoint /);
      assert.ok(
        readFileSync(join(ROOT, 'README.md'), 'utf8').includes(command),
        `the README shows the check line of docs/ci/${job} as it is`,
      );
      const folder = emptyFolder();
      const port = await freePort();
      const result = await runAsUser('bash', ['-c', command], folder, {
        CHECK_ENDPOINT_PACKAGE: tarball,
        AGENT_URL: `http://127.0.0.1:${port}/agent`,
        AGENT_COMMAND: `python3 ${join(ROOT, 'fixtures/agents/python/agent.py')} --port ${port}`,
        npm_config_cache: npmCache,
      });
      assert.equal(result.code, 0, `${command}\n${result.stdout}\n${result.stderr}`);
      assert.ok(result.stdout.split('\n').includes(ALL_PASSED), result.stdout);
      const reports = join(folder, 'check-endpoint-reports');
      for (const file of ['report.json', 'junit.xml', 'agent.log', 'report.html']) assert.ok(existsSync(join(reports, file)), file);
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
    const result = await runAsUser(process.execPath, [probe], app);
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

  test('the library checks handlers in this process: a fetch handler with no listen() anywhere, a Node listener and an Express app; assertEndpoint; check-endpoint/report', async () => {
    const folder = join(app, 'reports-for-format');
    rmSync(folder, { recursive: true, force: true });
    const cli = await runAsUser(
      join(app, 'node_modules/.bin/check-endpoint'),
      [agent!.url, '--case', 'typed', '--report-dir', folder],
      app,
    );
    assert.equal(cli.code, 0, cli.stderr);
    const script = join(app, 'in-process.mjs');
    writeFileSync(
      script,
      `import net from 'node:net';
import { readFileSync } from 'node:fs';
const listen = net.Server.prototype.listen;
let listens = 0;
net.Server.prototype.listen = function (...args) {
  listens++;
  return listen.apply(this, args);
};
const { checkEndpoint, assertEndpoint, defineScenario } = await import('check-endpoint');
const { formatReport, renderJunit, renderHtmlReport, HarRecorder } = await import('check-endpoint/report');
const { default: express } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'node_modules/express/index.js')).href)});
const THANKS = [{ type: 'message', text: 'Thanks! A barista will answer in a minute.' }];
const FOUR = [{ type: 'message', text: 'Which size?', buttons: ['s', 'm', 'l', 'xl'].map((id) => ({ id, label: id })) }];
const fetchAgent = (replies) => (request) => request.method === 'POST' ? Response.json({ replies }) : new Response(null, { status: 204 });
const quiet = { env: {} };
const fetched = await checkEndpoint(fetchAgent(THANKS), quiet);
const listensForFetch = listens;
const plain = await checkEndpoint((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ replies: THANKS })));
}, quiet);
const web = express();
web.use(express.json());
web.post('/agent', (req, res) => res.json({ replies: THANKS }));
const expressed = await checkEndpoint({ listener: web, path: '/agent' }, quiet);
const asserted = await assertEndpoint(fetchAgent(THANKS), quiet);
const rejection = await assertEndpoint(fetchAgent(FOUR), { ...quiet, cases: ['typed'] }).catch((cause) => cause);
const thanks = defineScenario({
  id: 'acme/says-thanks',
  description: 'Greeted, the agent thanks the person.',
  rules: [{ id: 'acme/thanks', level: 'must', statement: 'A greeting is answered with thanks.' }],
  async run(context) {
    const turn = await context.send({ text: 'hello' });
    context.expect(JSON.stringify(turn.replies ?? []).includes('Thanks'), { rule: 'acme/thanks', message: 'expected thanks' });
  },
});
const custom = await checkEndpoint(fetchAgent(THANKS), { ...quiet, scenarios: [thanks], cases: ['acme/says-thanks'] });
const report = JSON.parse(readFileSync(${JSON.stringify(join(folder, 'report.json'))}, 'utf8'));
console.log(JSON.stringify({
  fetched: [fetched.outcome, fetched.target, fetched.counts.passed],
  listensForFetch,
  plain: [plain.outcome, plain.transport.kind, plain.counts.passed],
  expressed: expressed.cases.map((c) => [c.id, c.status, [...new Set(c.findings.map((f) => f.rule))].join()]),
  listensInAll: listens,
  asserted: asserted.outcome,
  custom: custom.cases.map((c) => [c.id, c.channel, c.status]),
  rejection: { name: rejection.name, code: rejection.code, message: rejection.message },
  formatted: formatReport(report, { tokenNote: 'token: none (FLOW_FRAMEWORK_AGENT_TOKEN is not set)' }),
  writers: [typeof renderJunit, typeof renderHtmlReport, typeof HarRecorder],
}));
`,
    );
    const result = await runAsUser(process.execPath, [script], app);
    assert.equal(result.code, 0, result.stderr);
    const seen = JSON.parse(result.stdout) as {
      fetched: unknown[];
      listensForFetch: number;
      plain: unknown[];
      expressed: unknown[];
      listensInAll: number;
      asserted: string;
      custom: string[][];
      rejection: { name: string; code: string; message: string };
      formatted: string;
      writers: string[];
    };
    assert.deepEqual(seen.fetched, ['passed', 'in-process fetch handler', 5]);
    assert.equal(seen.listensForFetch, 0, 'a fetch handler is checked with no listen() call');
    assert.deepEqual(seen.plain, ['passed', 'node-listener', 5]);
    // express.json() at its default limit (100 kB) refuses the phone-sized photo, and nothing else.
    assert.deepEqual(seen.expressed, [
      ['typed', 'passed', ''],
      ['double-text', 'passed', ''],
      ['photo', 'failed', 'status'],
      ['button-tap', 'passed', ''],
      ['no-reply', 'passed', ''],
    ]);
    assert.equal(seen.listensInAll, 2, 'the listener and the Express app were each served once');
    assert.equal(seen.asserted, 'passed');
    assert.deepEqual(
      seen.custom,
      [['acme/says-thanks', 'whatsapp', 'passed']],
      'a case of your own, on a fetch handler, reported by its id',
    );
    assert.equal(seen.rejection.name, 'AssertionError');
    assert.equal(seen.rejection.code, 'ERR_ASSERTION');
    assert.ok(seen.rejection.message.includes('4 buttons; WhatsApp shows at most 3, so this reply is not sent'), seen.rejection.message);
    assert.equal(seen.formatted, cli.stdout.replace(/^wrote .*\n/gm, ''), "formatReport gives the command's text");
    assert.deepEqual(seen.writers, ['function', 'function', 'function']);
  });

  test("check-endpoint/report's types resolve for a TypeScript user", async () => {
    writeFileSync(
      join(app, 'types.ts'),
      [
        "import { type Report, formatReport, renderJunit } from 'check-endpoint/report';",
        "import { assertEndpoint, checkEndpoint } from 'check-endpoint';",
        'export async function check(): Promise<string> {',
        "  const report: Report = await checkEndpoint((request: Request) => new Response(request.method), { cases: ['typed'] });",
        "  await assertEndpoint({ listener: (_req, res) => res.end(), path: '/agent' });",
        '  return formatReport(report, { color: false }) + renderJunit(report, { startedAt: new Date() });',
        '}',
      ].join('\n'),
    );
    const compilerOptions = {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      lib: ['es2024', 'dom'],
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
    };
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['types.ts'] }));
    const tsc = await runAsUser(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], app);
    assert.equal(tsc.code, 0, `${tsc.stdout}\n${tsc.stderr}`);
  });
});
