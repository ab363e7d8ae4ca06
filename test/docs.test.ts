/**
 * The README and docs/: the README stays a one-read page (under 250 lines), docs/cli.md is the
 * option table's (as spec/config.schema.json is), every relative link leads to a file, and every
 * command in a ```sh block runs as written, from a folder where `check-endpoint` is the command as
 * a user has it (on PATH, as a global install; `npx check-endpoint`, as a project's install; `node
 * bin/check-endpoint.cjs` and `examples/`, as in a clone). The agent a command names at
 * http://127.0.0.1:8080 is the reference agent on a free port (a test may not hold port 8080), or,
 * where the block starts its own agent (a line ending in &), that agent on a free port.
 * Commands that cannot run here are listed below with where they run instead.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliReference } from '../src/cli/cli-reference.js';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { CLI, ROOT, freePort, runCommand } from './helpers.js';

/** The pages whose commands are run: the README and every page of docs/. */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Commands run elsewhere, not here: why, and where. */
const RUN_ELSEWHERE: readonly { command: RegExp; where: string }[] = [
  {
    command: /^npm (install|test|start|ci|pack|run)\b/,
    where: 'the project set-up and this test suite itself (.ci/run runs npm ci and npm test)',
  },
  { command: /--package /, where: 'test/pack.test.ts, which has the tarball' },
];

interface Block {
  page: string;
  line: number;
  commands: string[];
}

/** The ```sh blocks of a page: each line a command (comments and blank lines left out). */
function shBlocks(page: string): Block[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  let current: Block | undefined;
  lines.forEach((text, index) => {
    if (current === undefined && text.trim() === '```sh') current = { page, line: index + 1, commands: [] };
    else if (current !== undefined && text.trim() === '```') {
      blocks.push(current);
      current = undefined;
    } else if (current !== undefined && text.trim() !== '' && !text.trim().startsWith('#')) current.commands.push(text);
  });
  return blocks;
}

describe('the README and docs/', () => {
  test('the README is one read: under 250 lines', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
    assert.ok(lines < 250, `README.md has ${lines} lines`);
  });

  test('docs/cli.md is written from the option table (npm run build writes it)', () => {
    assert.equal(readFileSync(join(ROOT, 'docs/cli.md'), 'utf8'), cliReference());
  });

  test("every error class a page names in code is one the library exports (or JavaScript's or node:assert's own)", () => {
    const exported = readFileSync(join(ROOT, 'src/index.ts'), 'utf8');
    const unknown: string[] = [];
    for (const page of PAGES) {
      for (const match of readFileSync(join(ROOT, page), 'utf8').matchAll(/`([A-Z][A-Za-z]*Error)`/g)) {
        const name = match[1]!;
        // JavaScript's, node:assert's, and express's (quoted from its 413 page by troubleshooting.md).
        if (['TypeError', 'Error', 'AssertionError', 'PayloadTooLargeError'].includes(name)) continue;
        if (!new RegExp(`export \\{ ${name} \\}`).test(exported)) unknown.push(`${page}: ${name}`);
      }
    }
    assert.deepEqual(unknown, []);
  });

  test('every relative link of a page leads to a file or folder', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      // Inline code and code blocks hold examples of Markdown (`[label](url)`), not links.
      const text = readFileSync(join(ROOT, page), 'utf8')
        .replace(/```[^]*?```/g, '')
        .replace(/`[^`\n]*`/g, '');
      for (const match of text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        // ARCHITECTURE.md and CONTRIBUTING.md come with their own change (see the merge notes).
        if (/^(\.\.\/)?(ARCHITECTURE|CONTRIBUTING)\.md$/.test(target)) continue;
        if (!existsSync(join(ROOT, dirname(page), target))) broken.push(`${page}: ${target}`);
      }
    }
    assert.deepEqual(broken, []);
  });
});

describe('every command in a ```sh block of the README and docs/ runs as written', { timeout: 180_000 }, () => {
  let agent: RunningAgent;
  let folder = '';
  let globalBin = '';

  before(async () => {
    agent = await startReferenceAgent();
    folder = mkdtempSync(join(tmpdir(), 'check-endpoint-docs-'));
    // The clone's files a command names, and the command installed as npm lays it out.
    for (const name of ['bin', 'examples', 'fixtures']) symlinkSync(join(ROOT, name), join(folder, name));
    mkdirSync(join(folder, 'node_modules/.bin'), { recursive: true });
    symlinkSync(CLI, join(folder, 'node_modules/.bin/check-endpoint'));
    globalBin = mkdtempSync(join(tmpdir(), 'check-endpoint-docs-bin-'));
    symlinkSync(CLI, join(globalBin, 'check-endpoint'));
  });
  after(async () => {
    await agent.close();
    rmSync(folder, { recursive: true, force: true });
    rmSync(globalBin, { recursive: true, force: true });
  });

  for (const page of PAGES) {
    for (const block of shBlocks(page)) {
      const runnable = block.commands.filter((command) => !RUN_ELSEWHERE.some((elsewhere) => elsewhere.command.test(command.trim())));
      if (runnable.length === 0) continue;
      test(`${block.page}:${block.line}`, async () => {
        const startsAgent = runnable.some((command) => command.trim().endsWith('&'));
        const port = startsAgent ? await freePort() : Number(new URL(agent.url).port);
        const script = ['set -e', "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT"];
        for (const command of runnable) {
          script.push(command.replaceAll('8080', String(port)));
          // An agent started in the background: wait until it answers.
          if (command.trim().endsWith('&'))
            script.push(`for i in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.1; done`);
        }
        const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', PATH: `${globalBin}${delimiter}${process.env.PATH ?? ''}` };
        delete env.FLOW_FRAMEWORK_AGENT_TOKEN;
        const result = await runCommand('bash', ['-c', script.join('\n')], { cwd: folder, env });
        assert.equal(result.code, 0, `${runnable.join('\n')}\n${result.stdout}\n${result.stderr}`);
      });
    }
  }
});
