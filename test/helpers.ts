import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The suite's agents listen on loopback, and the check reads proxy variables as curl does, which
 * sends even 127.0.0.1 through a proxy unless NO_PROXY says otherwise. A machine's own proxy
 * variables must not carry the suite's requests: loopback is added to its no-proxy list (whichever
 * of no_proxy and NO_PROXY it sets), for the checks run here and the commands they start. The
 * tests about proxies give the check an environment of their own.
 */
const LOOPBACK = '127.0.0.1,localhost,::1';
for (const name of ['no_proxy', 'NO_PROXY']) {
  const list = process.env[name];
  if (list !== undefined && list.trim() !== '' && list.trim() !== '*') process.env[name] = `${list},${LOOPBACK}`;
}
if (!process.env.no_proxy?.trim() && !process.env.NO_PROXY?.trim()) process.env.NO_PROXY = LOOPBACK;
export const CLI = fileURLToPath(new URL('../bin/check-endpoint.cjs', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, whatever its exit code, and collects what it prints. */
export function runCommand(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string | Buffer; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    // With timeoutMs, a command that hangs is killed then (SIGKILL: one may not heed SIGTERM): its code is null, which no test expects.
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      cwd: options.cwd ?? ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs, killSignal: 'SIGKILL' as const } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input);
  });
}

/** Runs the built command (npm test builds first) and collects what it prints; no colour unless asked. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string | Buffer; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return runCommand(process.execPath, [CLI, ...args], {
    env: env as NodeJS.ProcessEnv,
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
}

/** Whether a process of this id is still running (a test's agent, a check's child). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A loopback port that nothing listens on now: bound, then closed. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('no port was bound');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

/** The first port of the system's ephemeral range, from which listen(0) (freePort, every test's server) takes its ports. */
function firstEphemeralPort(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(first)) return first;
  } catch {
    // Not Linux: macOS and Windows hand out ports from 49152 on; Linux's default range starts at 32768.
  }
  return 32_768;
}

/** The least port portNothingListensOn picks: above the well-known and most services' ports. */
const LEAST_UNLISTENED_PORT = 10_000;

/**
 * A free port below the ephemeral range, for an agent that must never be reached there. A port of
 * freePort's is free only when asked: while a test waits on it, a server another test file starts
 * may be handed the same port, and the check reaches that server instead (seen once in CI: exit 1
 * where the test waited for exit 2). No listen(0) hands out a port below the range.
 */
export async function portNothingListensOn(): Promise<number> {
  const below = firstEphemeralPort();
  if (below <= LEAST_UNLISTENED_PORT) throw new Error(`the ephemeral ports start at ${below}: no port below them is left for a test`);
  for (;;) {
    const port = LEAST_UNLISTENED_PORT + Math.floor(Math.random() * (below - LEAST_UNLISTENED_PORT));
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }
}

/** The flags that write every output of a check into `dir` (and the JSON on stdout): for tests that look for a secret in all of them. */
export function everyReport(dir: string): string[] {
  return [
    '--json',
    '--har',
    join(dir, 'a.har'),
    '--junit',
    join(dir, 'a.xml'),
    '--html',
    join(dir, 'a.html'),
    '--report-dir',
    join(dir, 'r'),
  ];
}

/** The folders temporaryFolder made, removed when the test file's process exits. */
const temporaryFolders: string[] = [];
process.once('exit', () => {
  for (const folder of temporaryFolders) rmSync(folder, { recursive: true, force: true });
});

/** A new folder in the system's temporary one, named from `prefix`, removed when the test file ends. */
export function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  temporaryFolders.push(folder);
  return folder;
}

/** How a report records a file over 1 KB of base64 (src/run/recorded-request.ts): its size and SHA-256, worked out here from its bytes. */
export function recordedDigest(bytes: Buffer): { dataBytes: number; dataSha256: string } {
  return { dataBytes: bytes.length, dataSha256: createHash('sha256').update(bytes).digest('hex') };
}
