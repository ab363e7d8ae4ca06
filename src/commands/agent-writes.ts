/**
 * Files an agent writes into its own folder as it answers (a conversation log, uploads, a cache)
 * are no edit, but --watch sees them change: each run would start the next. A burst of changes
 * that began while a run played is taken for the agent's writing: the first time, it is played
 * again with a note; should the same files change while that run plays too, they are left out from
 * then on, and the note says so and how to leave them out from the start (--watch-ignore or a
 * .gitignore line, src/commands/ignore-rules.ts). One save during a run is still played: only
 * the same file changing while two runs in a row played, and at no other time, is left out. Two
 * bursts while one run plays (two saves during a slow compile) are one; a file git tracks is the
 * developer's source, never left out by this guess; and what is left out is watched again once
 * the developer plays again with Enter (`watchAgain`), as its note says.
 */

/** What a burst of changes comes to: the files to play again for (none: no run), and the notes to print before. */
export interface SortedChanges {
  files: string[];
  notes: string[];
}

export interface AgentWrites {
  /** A run starts playing (the check's process is started). */
  playing(at: number): void;
  /** The run has ended. */
  played(at: number): void;
  /** A burst of changes to these files (relative to the watched folder), the first at `since`. */
  sort(files: readonly string[], since: number): SortedChanges;
  /** The developer played again (Enter): what was left out is watched again; the note, if any, says so. */
  watchAgain(): string | undefined;
}

/** `a`, `a and b`, `a, b and 2 more`. */
function named(files: readonly string[]): string {
  if (files.length <= 2) return files.join(' and ');
  return `${files.slice(0, 2).join(', ')} and ${files.length - 2} more`;
}

/** `tracked(file)`: whether git tracks the file (relative to the watched folder): such a file is never taken for the agent's writing. */
export function agentWrites(tracked: (file: string) => boolean = () => false): AgentWrites {
  /** When the last run played, counted from 1: `to` is Infinity while it still plays. */
  let run: { number: number; from: number; to: number } | undefined;
  /** What changed while a run played, and only then, with that run's number. */
  let suspected = new Map<string, number>();
  const writtenByTheAgent = new Set<string>();

  return {
    playing(at) {
      run = { number: (run?.number ?? 0) + 1, from: at, to: Number.POSITIVE_INFINITY };
    },
    watchAgain() {
      if (writtenByTheAgent.size === 0) return undefined;
      const files = [...writtenByTheAgent];
      writtenByTheAgent.clear();
      suspected = new Map();
      return `--watch: watching ${named(files)} again`;
    },
    played(at) {
      if (run) run.to = at;
    },
    sort(changed, since) {
      const files = changed.filter((file) => !writtenByTheAgent.has(file));
      if (run === undefined || since < run.from || since > run.to) {
        suspected = new Map();
        return { files, notes: [] };
      }
      const current = run.number;
      const notes: string[] = [];
      // Only a file that changed while the run before this one played too, and that git does not track.
      const again = files.filter((file) => suspected.get(file) === current - 1 && !tracked(file));
      const fresh = files.filter((file) => !again.includes(file));
      if (again.length) {
        for (const file of again) writtenByTheAgent.add(file);
        notes.push(
          `--watch: ${named(again)} changed while each of the last two runs played: the agent writes ${again.length > 1 ? 'them' : 'it'}, left out from now on; Enter plays again and watches ${again.length > 1 ? 'them' : 'it'} again (--watch-ignore ${again[0]}, or a .gitignore line, leaves ${again.length > 1 ? 'such files' : 'it'} out from the start)`,
        );
      }
      const noted = fresh.filter((file) => suspected.get(file) !== current && !tracked(file));
      if (noted.length)
        notes.push(
          `--watch: ${named(noted)} changed while the check played; if the agent writes ${noted.length > 1 ? 'them' : 'it'}, --watch-ignore ${noted[0]} or a .gitignore line leaves ${noted.length > 1 ? 'such files' : 'it'} out`,
        );
      // Two bursts while one run plays are one: a file keeps the first run it was suspected in.
      const next = new Map([...suspected].filter(([, number]) => number === current));
      for (const file of fresh) if (!next.has(file)) next.set(file, current);
      suspected = next;
      return { files: fresh, notes };
    },
  };
}
