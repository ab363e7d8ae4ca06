/**
 * `--start "COMMAND"`: the agent, run by the check. The command runs through the shell in a process
 * group of its own, so that stopping it stops everything it started; its output is kept (the last
 * 50 lines) for a failing run, the report folder's agent.log and the finding of a dead agent.
 */
import type { ChildProcess } from 'node:child_process';
import { redactText } from '../http/redact.js';
import { type AgentGuard, guardProcessGroup } from './agent-guard.js';

/** Lines of the agent's output kept, and the longest line kept whole (a line without end is cut). */
const KEPT_LINES = 50;
const LONGEST_LINE = 2000;
/** How long the group has after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 5000;

/**
 * The agent's environment: the check's, less what npx sets for the check itself. Run by `npx
 * --package <tarball> check-endpoint`, the check has npm_config_package, and an `npx tsx …` in the
 * agent's command would read it and run from that tarball instead.
 */
export function agentEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { npm_config_package: _package, ...rest } = env;
  return rest;
}

export interface AgentExitInfo {
  /** `its process exited with code 3`, `its process was killed by SIGKILL`. */
  description: string;
  lastLines: readonly string[];
}

export class AgentProcess {
  readonly #child: ChildProcess;
  readonly #lines: string[] = [];
  #backgrounded = false;
  readonly #partial = { stdout: '', stderr: '' };
  readonly #secrets: readonly string[];
  readonly #onLine: ((line: string) => void) | undefined;
  #exit: AgentExitInfo | undefined;
  readonly #guard: AgentGuard | undefined;
  readonly exited: Promise<void>;

  /**
   * Starts `command` through the shell; `secrets` (the token, secret headers) are redacted from what
   * it prints. `onLine` gets every line it prints, redacted (for the agent's log file).
   */
  constructor(
    readonly command: string,
    secrets: readonly string[],
    onLine?: (line: string) => void,
  ) {
    this.#onLine = onLine;
    this.#secrets = secrets.filter((secret) => secret !== '');
    this.#child = process
      .getBuiltinModule('node:child_process')
      .spawn(command, { shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: agentEnvironment(process.env) });
    // Even a SIGKILL of the check stops the group: a guard process stops it once the check is gone.
    this.#guard = this.#child.pid === undefined ? undefined : guardProcessGroup(this.#child.pid, STOP_GRACE_MS);
    for (const stream of ['stdout', 'stderr'] as const) {
      this.#child[stream]?.setEncoding('utf8');
      this.#child[stream]?.on('data', (chunk: string) => this.#take(stream, chunk));
    }
    this.exited = new Promise((resolve) => {
      this.#child.on('error', (cause) => {
        this.#exit ??= { description: `its command could not start (${cause.message})`, lastLines: this.lastLines() };
        resolve();
      });
      this.#child.on('exit', (code, signal) => {
        this.#flush();
        // A command that put the agent in the background (`node agent.mjs &`) returns at once, with
        // code 0, its group still running: the agent is its own child, up and starting, not gone.
        if (code === 0 && this.#groupAlive()) {
          this.#backgrounded = true;
          resolve();
          return;
        }
        const how = code !== null ? `exited with code ${code}` : `was killed by ${signal ?? 'a signal'}`;
        this.#exit ??= { description: `its process ${how}`, lastLines: this.lastLines() };
        resolve();
      });
    });
    // Should the check itself end abruptly, the agent's group does not outlive it.
    process.once('exit', this.#killGroupNow);
  }

  /** Whether the command returned at once, leaving the agent running in its group (a trailing `&`). */
  backgrounded(): boolean {
    return this.#backgrounded;
  }

  /** How the process ended, once it has. */
  exit(): AgentExitInfo | undefined {
    return this.#exit;
  }

  /** The last lines the agent printed (stdout and stderr as they came), secrets redacted. */
  lastLines(): string[] {
    return [...this.#lines];
  }

  /** Stops the whole group: SIGTERM, then SIGKILL for whatever is left after 5 s. Resolves when none is left. */
  async stop(): Promise<void> {
    this.#signalGroup('SIGTERM');
    const deadline = Date.now() + STOP_GRACE_MS;
    while (this.#groupAlive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (this.#groupAlive()) this.#signalGroup('SIGKILL');
    while (this.#groupAlive()) await new Promise((resolve) => setTimeout(resolve, 20));
    await this.exited;
    this.#guard?.release();
    process.removeListener('exit', this.#killGroupNow);
  }

  readonly #killGroupNow = (): void => this.#signalGroup('SIGKILL');

  #signalGroup(signal: NodeJS.Signals): void {
    if (this.#child.pid === undefined) return;
    try {
      process.kill(-this.#child.pid, signal);
    } catch {
      // ESRCH: no process of the group is left.
    }
  }

  #groupAlive(): boolean {
    if (this.#child.pid === undefined) return false;
    try {
      process.kill(-this.#child.pid, 0);
      return true;
    } catch {
      return false;
    }
  }

  #take(stream: 'stdout' | 'stderr', chunk: string): void {
    const text = this.#partial[stream] + chunk;
    const lines = text.split(/\r?\n/);
    const rest = lines.pop() ?? '';
    for (const line of lines) this.#keep(line);
    // A line that never ends is kept in pieces, never grown without bound.
    this.#partial[stream] = rest.length > LONGEST_LINE ? (this.#keep(rest), '') : rest;
  }

  #flush(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.#partial[stream] !== '') this.#keep(this.#partial[stream]);
      this.#partial[stream] = '';
    }
  }

  #keep(line: string): void {
    let clean = line;
    for (const secret of this.#secrets) clean = redactText(clean, secret);
    this.#onLine?.(clean);
    this.#lines.push(clean.length > LONGEST_LINE ? `${clean.slice(0, LONGEST_LINE)}…` : clean);
    if (this.#lines.length > KEPT_LINES) this.#lines.shift();
  }
}
