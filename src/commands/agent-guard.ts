/**
 * The --start agent dies with the check, even when the check is killed by SIGKILL (which no
 * handler of its own can see): a guard, a tiny Node process in a session of its own, holds the read
 * end of a pipe from the check. However the check ends, the kernel closes its end of the pipe; the
 * guard then stops the agent's process group as the check would (SIGTERM, then SIGKILL for what is
 * left after the grace) and exits. A check that stops the agent itself releases the guard, which
 * exits without a signal. Where the guard cannot run, the next --start names what holds the port
 * (port-holder.ts).
 */
import { Socket } from 'node:net';

/** The guard, run with `node -e`: argv[1] the group's id, argv[2] the grace in ms. Plain JavaScript, no imports. */
const GUARD_SOURCE = `
const group = Number(process.argv[1]);
const graceMs = Number(process.argv[2]);
let released = false;
const signal = (name) => { try { process.kill(-group, name); return true; } catch { return false; } };
for (const name of ['SIGINT', 'SIGHUP', 'SIGTERM']) process.on(name, () => {});
process.stdin.on('error', () => {});
process.stdin.on('data', (chunk) => { if (String(chunk).includes('release')) released = true; });
process.stdin.on('end', () => {
  if (released || !signal('SIGTERM')) process.exit(0);
  const deadline = Date.now() + graceMs;
  setInterval(() => {
    if (!signal(0)) process.exit(0);
    if (Date.now() >= deadline) { signal('SIGKILL'); process.exit(0); }
  }, 50);
});
`;

export interface AgentGuard {
  /** The check stopped the group itself: the guard exits without a signal. */
  release(): void;
}

/** Starts a guard over process group `group`; it never keeps the check's own process alive. */
export function guardProcessGroup(group: number, graceMs: number): AgentGuard {
  const { NODE_OPTIONS: _options, ...env } = process.env;
  const guard = process
    .getBuiltinModule('node:child_process')
    .spawn(process.execPath, ['-e', GUARD_SOURCE, String(group), String(graceMs)], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env,
    });
  // A guard that cannot start leaves the check as it was: it stops the agent itself on every end but SIGKILL.
  guard.on('error', () => {});
  guard.stdin?.on('error', () => {});
  guard.unref();
  if (guard.stdin instanceof Socket) guard.stdin.unref();
  return { release: () => guard.stdin?.end('release\n') };
}
