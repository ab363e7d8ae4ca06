/**
 * The --start agent's log file: everything it prints (secrets already redacted by AgentProcess),
 * line by line as it comes, in the report folder (`agent.log`) or, without one,
 * `.check-endpoint/agent.log`. Its terminal stays free for the check's own lines: the summary and
 * the record's path end the output. Bounded: past 10 MiB the log says it was cut and takes no more.
 */
import { mkdirSync, openSync, writeSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { STATE_FOLDER } from './last-run-file.js';

const MAX_LOG_BYTES = 10 * 1024 * 1024;

export interface AgentLog {
  /** Where the log is written, as the user named the folder. */
  file: string;
  /** Appends one line of the agent's output. */
  line(text: string): void;
  close(): void;
}

/** The log file's path: in the report folder when there is one, else in .check-endpoint. */
export function agentLogPath(reportDir: string | undefined): string {
  return join(reportDir ?? STATE_FOLDER, 'agent.log');
}

/** Opens (and empties) the log; a folder it cannot write in gives no log (undefined), never a failed run. */
export function openAgentLog(file: string): AgentLog | undefined {
  let fd: number;
  try {
    mkdirSync(dirname(file), { recursive: true });
    fd = openSync(file, 'w');
  } catch {
    return undefined;
  }
  let written = 0;
  let writable = true;
  let closed = false;
  return {
    file,
    line(text) {
      if (!writable || closed || written > MAX_LOG_BYTES) return;
      const entry = `${text}\n`;
      written += Buffer.byteLength(entry, 'utf8');
      try {
        writeSync(fd, written > MAX_LOG_BYTES ? `… the log stops here: it reached ${MAX_LOG_BYTES / 1024 / 1024} MiB\n` : entry);
      } catch {
        writable = false; // a full disk: the rest is not logged, the run goes on
      }
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        closeSync(fd);
      } catch {
        // Already gone: nothing left to flush.
      }
    },
  };
}
