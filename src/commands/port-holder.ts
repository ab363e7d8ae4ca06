/**
 * Which process listens on a loopback port, for `--start` to name what holds its agent's port (an
 * old agent left running, another program): its pid and command, read from /proc on Linux (the
 * listening socket's inode in /proc/net/tcp and tcp6, then the process with that socket open).
 * Elsewhere, or for another user's process, the words say how to find it instead.
 */
import { readFile, readdir, readlink } from 'node:fs/promises';
import { redactText } from '../http/redact.js';

/** The longest command shown. */
const LONGEST_COMMAND = 200;

export interface PortHolder {
  pid: number;
  /** Its command line, the secrets given redacted, control characters shown as spaces. */
  command: string;
}

/** The port of an http(s) URL, its scheme's default when none is written. */
export function portOf(url: URL): number {
  return url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** The inodes of the sockets listening on `port`, from /proc/net/tcp and tcp6 (state 0A is LISTEN). */
async function listeningInodes(port: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1]?.split(':');
      if (fields[3] === '0A' && local && parseInt(local[1] ?? '', 16) === port && fields[9] && fields[9] !== '0') inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** The process listening on `port` on this machine, when /proc shows it (Linux, a process of this user); undefined otherwise. */
export async function portHolder(port: number, secrets: readonly string[]): Promise<PortHolder | undefined> {
  const inodes = await listeningInodes(port);
  if (inodes.size === 0) return undefined;
  const pids = (await readdir('/proc').catch(() => [])).filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    for (const fd of fds) {
      const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode === undefined || !inodes.has(inode)) continue;
      return { pid: Number(pid), command: await commandOf(pid, secrets) };
    }
  }
  return undefined;
}

async function commandOf(pid: string, secrets: readonly string[]): Promise<string> {
  const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  let command = raw.replace(/\0+$/, '').replaceAll('\0', ' ');
  for (const secret of secrets) if (secret !== '') command = redactText(command, secret);
  // A command line may hold anything: it is shown on one line, cut short.
  command = command.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return command.length > LONGEST_COMMAND ? `${command.slice(0, LONGEST_COMMAND)}…` : command || '(command unknown)';
}

/** One sentence naming what holds `port` and how to stop it; with no holder known, how to find it. */
export function holderSentence(port: number, holder: PortHolder | undefined): string {
  if (holder) return `port ${port} is held by process ${holder.pid} (${holder.command}): stop it with \`kill ${holder.pid}\``;
  return `to find what holds port ${port}: \`lsof -nP -iTCP:${port} -sTCP:LISTEN\` (or \`ss -ltnp 'sport = :${port}'\`), then stop it`;
}
