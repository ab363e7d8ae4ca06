/**
 * Files an agent writes into its own folder as it answers (a conversation log, uploads, a cache)
 * are no edit, but --watch sees them change: each run would start the next. A burst of changes
 * that began while a run played is taken for the agent's writing: the first time, it is played
 * again with a note; should the same files change while that run plays too, they are left out from
 * then on, and the note says so and how to leave them out from the start (--watch-ignore or a
 * .gitignore line, src/commands/ignore-rules.ts). One save during a run is still played: only
 * the same file changing while two runs in a row played, and at no other time, is left out.
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
}

/** `a`, `a and b`, `a, b and 2 more`. */
function named(files: readonly string[]): string {
  if (files.length <= 2) return files.join(' and ');
  return `${files.slice(0, 2).join(', ')} and ${files.length - 2} more`;
}

export function agentWrites(): AgentWrites {
  /** When the last run played: `to` is Infinity while it still plays. */
  let run: { from: number; to: number } | undefined;
  /** What changed while the last run played, and only then. */
  let suspected = new Set<string>();
  const writtenByTheAgent = new Set<string>();

  return {
    playing(at) {
      run = { from: at, to: Number.POSITIVE_INFINITY };
    },
    played(at) {
      if (run) run.to = at;
    },
    sort(changed, since) {
      const files = changed.filter((file) => !writtenByTheAgent.has(file));
      if (run === undefined || since < run.from || since > run.to) {
        suspected = new Set();
        return { files, notes: [] };
      }
      const notes: string[] = [];
      const again = files.filter((file) => suspected.has(file));
      const fresh = files.filter((file) => !suspected.has(file));
      if (again.length) {
        for (const file of again) writtenByTheAgent.add(file);
        notes.push(
          `--watch: ${named(again)} changed while each of the last two runs played: the agent writes ${again.length > 1 ? 'them' : 'it'}, left out from now on (--watch-ignore ${again[0]}, or a .gitignore line, leaves ${again.length > 1 ? 'such files' : 'it'} out from the start)`,
        );
      }
      if (fresh.length)
        notes.push(
          `--watch: ${named(fresh)} changed while the check played; if the agent writes ${fresh.length > 1 ? 'them' : 'it'}, --watch-ignore ${fresh[0]} or a .gitignore line leaves ${fresh.length > 1 ? 'such files' : 'it'} out`,
        );
      suspected = new Set(fresh);
      return { files: fresh, notes };
    },
  };
}
