/**
 * Go agents for the tests: whether Go is here (Debian's golang-go, 1.19; .ci/run installs it as
 * root), the environment `go build` runs in (offline: GOTOOLCHAIN=local, GOPROXY=off; the modules
 * have no requirements), and the project's own Go menu agent (fixtures/agents/go-menu.patch: the café's
 * Go agent with issue 54's three defects) built into a temporary folder and served on a loopback
 * port. Where Go is missing a test says it is skipped and why (goMissing), never passed.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { freePort, ROOT, runCommand } from './helpers.js';

/** Why the Go tests cannot run here, or undefined when `go` is on PATH. */
export function goMissing(): string | undefined {
  const probe = spawnSync('go', ['version'], { encoding: 'utf8' });
  return probe.error || probe.status !== 0 ? 'needs Go (apt-get install golang-go; .ci/run installs it as root)' : undefined;
}

/** Whether the nearest folder of `path` that exists is writable. */
function writable(path: string): boolean {
  let folder = path;
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** go build's environment: offline, this Go only, and a build cache under the OS tmp dir when the usual one cannot be written. */
export function goEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GOTOOLCHAIN: 'local', GOPROXY: 'off' };
  const home = process.env.HOME;
  const cache = process.env.GOCACHE ?? process.env.XDG_CACHE_HOME ?? (home ? join(home, '.cache') : undefined);
  if (cache === undefined || !writable(cache)) env.GOCACHE = join(tmpdir(), 'check-endpoint-go-cache');
  if (!process.env.GOPATH && (!home || !writable(join(home, 'go')))) env.GOPATH = join(tmpdir(), 'check-endpoint-gopath');
  return env;
}

/** The café's Go agent, the example. */
const CAFE_GO_FOLDER = join(ROOT, 'examples/http-agent-go');
/** The project's own Go fixture: a patch on the café's Go agent, a menu of three defects. */
export const GO_MENU_PATCH = join(ROOT, 'fixtures/agents/go-menu.patch');

/** The variables the café's Go agent reads, left out of the machine's environment so that none of them changes what it answers. */
const AGENT_VARIABLES = ['PORT', 'HOST', 'FLOW_FRAMEWORK_AGENT_TOKEN', 'FAKE_MODEL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'MODEL'];

/**
 * Builds the Go menu agent (`go build` into a temporary folder), starts it with FAKE_MODEL=1 (no
 * model, no network) on a free loopback port, and waits until it answers HEAD. close() stops it
 * and removes the folder.
 */
export async function startGoMenuAgent(): Promise<RunningAgent> {
  const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-go-menu-'));
  // The example copied, then the fixture's patch applied to it (git apply works outside a repository).
  for (const file of ['main.go', 'go.mod']) copyFileSync(join(CAFE_GO_FOLDER, file), join(folder, file));
  const patched = await runCommand('git', ['apply', GO_MENU_PATCH], { cwd: folder });
  assert.equal(
    patched.code,
    0,
    `expected ${GO_MENU_PATCH} to apply to ${CAFE_GO_FOLDER}/main.go; git apply exited ${patched.code}:\n${patched.stdout}${patched.stderr}` +
      'the example changed where the patch touches it: make the same change in a patched copy and write the patch again (its head says how)',
  );
  const binary = join(folder, 'cafe-menu-agent');
  const built = await runCommand('go', ['build', '-o', binary, '.'], { cwd: folder, env: goEnv() });
  assert.equal(
    built.code,
    0,
    `expected go build of the patched café agent to succeed; it exited ${built.code}:\n${built.stdout}${built.stderr}`,
  );
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of AGENT_VARIABLES) delete env[name];
  const child: ChildProcess = spawn(binary, [], {
    cwd: folder,
    env: { ...env, FAKE_MODEL: '1', PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  let failure: Error | undefined;
  child.on('error', (error) => (failure = error));
  child.on('exit', (code, signal) => (failure ??= new Error(`the Go menu agent exited (${code ?? signal}) before it answered:\n${log}`)));
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}/agent`;
  // Waits for the agent to listen: at most 20 s, then says what it logged.
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (failure) {
      await close();
      throw failure;
    }
    try {
      const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(2000) });
      if (response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await close();
      throw new Error(`the Go menu agent did not answer HEAD ${url} within 20 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, close };
}
