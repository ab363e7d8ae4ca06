/**
 * The last run's record as spec/last-run.schema.json shapes it: the types alone, which the record's
 * writer, its reader, show and the merge of a partial run (merge-record.ts) share.
 */
import type { FindingCause, RuleId, Severity } from '../core/findings.js';
import type { CaseLabel, CaseStatus, ChannelReport, Report, RunStop } from '../core/report.js';

/** The record format's version: it changes only when the shape does. */
export const LAST_RUN_FORMAT_VERSION = 1;

export interface LastRunFinding {
  rule: RuleId;
  severity: Severity;
  path: string;
  message: string;
  hint: string | null;
  /** The turn's index in its case (0-based), or null for a finding about the whole case. */
  turn: number | null;
  /** With --runs above 1: in how many of the case's plays it came. */
  plays?: number;
  /** The cause its case declared, so that the record groups its problems as the run did. */
  cause?: FindingCause;
}

export interface LastRunCase {
  case: string;
  channel: string;
  status: CaseStatus;
  label: CaseLabel;
  /** Failed, but a --baseline entry expected it. */
  expected: boolean;
  runs: number;
  passedRuns: number;
  /** How many turns it played (of the first failed play, with --runs above 1). */
  turns: number;
  /** The rules of its findings, each once, errors' first. */
  rules: string[];
  findings: LastRunFinding[];
  /**
   * When it was played, ISO 8601 in UTC: the record's `finishedAt`, or, in a record a partial run
   * (`--failed`, a narrower `--case` or `--channel`) merged into, the end of the run that played it
   * last. Absent from records of older versions (then the record's `finishedAt`).
   */
  playedAt?: string;
}

export interface LastRun {
  version: typeof LAST_RUN_FORMAT_VERSION;
  tool: Report['tool'];
  target: string;
  /** When the run ended, ISO 8601 in UTC. */
  finishedAt: string;
  outcome: Report['outcome'];
  exitCode: Report['exitCode'];
  /** Why the check could not run (outcome `error`), else null. */
  error: string | null;
  stopped: RunStop | null;
  runs: number;
  channels: ChannelReport[];
  counts: Report['counts'];
  cases: LastRunCase[];
  /** The contract the run was judged by (absent from records of older versions). */
  spec?: Report['spec'];
  /**
   * The flags that decided what the run sent and how it judged it, as a config file's keys
   * (`quality`, `tokenEnv`, `headerEnv`): --failed plays with them again. Secrets only by their
   * variables' names, as the flags take them. Absent from records of older versions.
   */
  flags?: Record<string, string | number | boolean | string[]>;
}
