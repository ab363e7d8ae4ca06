import type { Finding, RuleId, RuleLevel, Severity } from './findings.js';
import type { RecordedRequest } from './request.js';

/** The version of the report format (`spec/report.schema.json`); it changes only when the shape does. */
export const REPORT_FORMAT_VERSION = 1;

/**
 * A finding as reported: where in the run it happened, besides where in the answer. A finding over a
 * platform's count or length carries its `limit` (Finding), which the HTML page draws by.
 */
export interface ReportedFinding extends Finding {
  /**
   * The turn's index in its case, counted from 0 (the first turn is 0), or null for a finding about
   * the whole run. The text, HTML and JUnit outputs count turns from 1: their `turn 1` is `turn: 0`.
   */
  turn: number | null;
  /** The reply's index in the answer's `replies`, or null when the finding is not about one reply. */
  reply: number | null;
  /**
   * On the findings of a failed turn: a curl command that sends that turn's request again (the
   * token named by its variable, never its value); null elsewhere.
   */
  reproduce: string | null;
  /**
   * With --runs above 1, on a case's findings (each distinct finding once): in how many of its
   * plays it came, and the first play that had it (its `turn` and `reply` are that play's).
   */
  plays?: number;
  play?: number;
  /** The id of the distinct problem it is one instance of (the report's `problems`). */
  problem?: string;
}

/**
 * A distinct problem: the findings alike but for their place and the values they quote (see
 * core/problems.ts), said once, with where it came and its first finding as the example.
 */
export interface ProblemReport {
  /** Derived from the problem's key (rule, severity, pointer shape, message and hint templates): the same in every run. */
  id: string;
  /** Its number in this report's list, from 1: errors first, then the problem in most cases. The text output names problems by it. */
  number: number;
  /**
   * What it is called in every run that has it in the same places, as the --watch changes line names
   * it: its rule, pointer and channels (`platform /replies/0/list/button on whatsapp`), with its id's
   * digits when another problem of the run has the same (core/problems.ts `problemName`).
   */
  name: string;
  rule: RuleId;
  severity: Severity;
  /** Its findings' JSON pointer when they all have the same; else its shape, each index as `*` (`/replies/*\/text`). */
  path: string;
  /** Its first finding's message and hint. */
  message: string;
  hint: string | null;
  /** How many findings it stands for, and in how many cases (a case on a channel counts once). */
  findings: number;
  cases: number;
  /** Each case on each channel where it came, with the turns (from 0, as `turn`) it came on. */
  where: { case: string; channel: string; turns: number[] }[];
  /** Where its first finding came: the case, channel, turn (from 0), reply, pointer (and play, with --runs above 1). */
  example: {
    case: string;
    channel: string;
    turn: number | null;
    reply: number | null;
    path: string;
    play?: number;
    /** The value at its pointer in its answer, said short (`"See the whole menu today!" (25 characters)`: core/value-at.ts); absent when the pointer names the whole body or nothing. */
    value?: string;
  };
  /** Only on a problem its case declared a cause for: each distinct instance it holds, in the order they came (its findings name it by `problem`). */
  instances?: string[];
}

export interface TurnReport {
  messageId: string;
  /**
   * The request body as sent (headers, and so the token, are never reported), an attachment's data
   * over 1 KB recorded by its size and digest (`RecordedAttachment`); in quality/malformed, which
   * sends damaged bodies on purpose, the valid request each was made from.
   */
  request: RecordedRequest;
  /**
   * The body exactly as sent, when it is not `request` as JSON: only in quality/malformed (a body
   * that is not JSON, one with no `message`, one of the wrong types).
   */
  sentBody?: string;
  /**
   * How the authorization header differed from the usual (the configured token, or none when no
   * token is set): `none`, sent without one; `wrong-token`, sent with a made-up token (its value is
   * never reported). Only in quality/auth.
   */
  authorization?: 'none' | 'wrong-token';
  /** The HTTP status, or null when no answer came. */
  status: number | null;
  latencyMs: number;
  /** The parsed answer body, or null when there was none or it was not JSON. */
  answer: unknown;
  findings: ReportedFinding[];
}

export type CaseStatus = 'passed' | 'failed' | 'not-run';

/** A case over its plays: `passing` passed every play, `flaky` some, `failing` none; `not-run` did not finish them. */
export type CaseLabel = 'passing' | 'flaky' | 'failing' | 'not-run';

/** One play of a case (--runs plays each case several times): its own conversation, its own verdict. */
export interface PlayReport {
  /** 1 to --runs. */
  play: number;
  conversationId: string;
  passed: boolean;
  status: CaseStatus;
  durationMs: number;
  turns: TurnReport[];
  findings: ReportedFinding[];
}

export interface CaseReport {
  id: string;
  channel: string;
  conversationId: string;
  /** No finding of severity error (and none at all under --strict). */
  passed: boolean;
  /** `not-run`: not played, or not to its end (the agent stopped answering, or the run was interrupted). */
  status: CaseStatus;
  /** It failed, and a --baseline entry lists every one of its failing findings: it does not fail the run. */
  expected: boolean;
  durationMs: number;
  turns: TurnReport[];
  /** Every finding of the case's turns. */
  findings: ReportedFinding[];
  /** quality/latency only: the answer times of the channel's turns over the run. */
  latency?: LatencyFigures;
  /** explore only: what it covered on the channel, and each failure found as its smallest conversation. */
  explore?: ExploreReport;
  /** How many times the case was played on the channel (--runs; quality/latency, which sends nothing, once). */
  runs: number;
  /** How many of those plays passed. */
  passedRuns: number;
  label: CaseLabel;
  /**
   * Every play. The case's own `conversationId`, `turns` and `findings` are its one play's when
   * runs is 1; above 1, a pattern over the plays' conversations, the turns of the first play that
   * failed (or of the first play), and each distinct finding of all plays once, with its count.
   */
  plays: PlayReport[];
}

/**
 * One person message of an explored conversation, as data that can be kept and played again: what
 * is typed, the files sent, the choice tapped and which earlier answer offered it, the message quoted.
 */
export interface ExploreStep {
  /** What the person types: `""` for a tap, or for files without a caption (else the caption). */
  text: string;
  /** Files sent with it, by kind and media type (the bytes are the checker's own sample of that type). */
  files?: { kind: 'image' | 'audio' | 'video' | 'document'; mime: string }[];
  /** A tap: the choice, and the person's message (1-based) whose answer offered it; none for a choice never offered. */
  tap?: { id: string; title: string; offeredAt?: number };
  /** A quote: of the person's own message `turn` (1-based), or of the agent's reply `reply` (0-based) to it. */
  quote?: { from: 'person' | 'agent'; turn: number; reply?: number };
}

/** A conversation --explore found failing, shrunk to the smallest that still fails with its problem. */
export interface ExploredFailure {
  /** The problem it shows (the report's `problems`), with its rule and place for people: `schema /replies/0/buttons`. */
  problem: string;
  title: string;
  /** What a conversation must fail with to show it again: its rule, severity and pointer shape (`platform error /replies/*\/buttons/*`). */
  place: string;
  /** `explored`: found by this run; `kept`: kept from an earlier run and failing again. */
  source: 'explored' | 'kept';
  /** Its messages, as data (played again by --failed and the next --explore), and in words, numbered from 1. */
  steps: ExploreStep[];
  described: string[];
  /** Its turns in the case's `turns`: from `firstTurn`, `steps.length` of them (the last fails). */
  firstTurn: number;
  /** How it was shrunk: from how many messages, in how many plays, and why it stopped short, if it did; null when not shrunk. */
  shrink: { fromMessages: number; plays: number; gaveUp: string | null } | null;
  /** When the failure did not come back when its conversation was played again: that second play's turns in `turns` (it passed). */
  flaky: { firstTurn: number; messages: number } | null;
  /**
   * A command that plays the exploration again with the same seed (the same requests, so the same
   * failure); null for a handler checked in this process. After a run of the command, `--failed`
   * plays just this conversation (kept in .check-endpoint/explore.json).
   */
  replay: string | null;
}

/** A conversation kept from an earlier run, played again: failing still, passing now, or no longer playable as kept. */
export interface KeptReplay {
  problem: string;
  title: string;
  outcome: 'failed' | 'passed' | 'path-changed';
  /** For `path-changed`: what the agent no longer offers. */
  note: string | null;
  messages: number;
}

/** What --explore did on a channel: its budget and seed, what it covered, what it never reached, and what it found. */
export interface ExploreReport {
  seed: number;
  /** --explore-turns. */
  turnBudget: number;
  /** Messages sent exploring (kept conversations and shrinking not counted), in how many conversations. */
  turns: number;
  conversations: number;
  /** Of the distinct choices (buttons and list rows, by id) the answers offered, how many were tapped. */
  choices: { offered: number; tapped: number };
  /** Menu states reached (answers offering the same choices are one), and the longest conversation, in messages. */
  states: number;
  deepest: number;
  /** Conversations of each phase: message shapes, crawl paths, walks. */
  phases: { shapes: number; crawl: number; walks: number };
  /** Why it stopped: its budget was spent, everything was played (--failed), or the run was halted. */
  stoppedBy: 'turns' | 'done' | 'halted';
  /** What it never reached, in words: choices never tapped, shapes it could not send. */
  notReached: string[];
  /** Messages sent shrinking failures. */
  shrinkTurns: number;
  found: ExploredFailure[];
  /** The conversations kept from earlier runs, played first. */
  kept: KeptReplay[];
}

/** Answer times over a channel's turns (nearest-rank percentiles), and the --latency-budget they are held to. */
export interface LatencyFigures {
  /** How many turns the figures are taken over. */
  turns: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** --latency-budget in milliseconds: a p95 above it is a warning. */
  budgetMs: number;
}

export interface ChannelReport {
  name: string;
  /** The platform's name, or null for a custom channel. */
  title: string | null;
  /** Where its display limits come from: the contract, a --limits file, or none known (schema only). */
  limits: 'spec' | 'file' | 'none';
}

export interface Report {
  version: typeof REPORT_FORMAT_VERSION;
  /** How many times each case was played on each channel (--runs). */
  runs: number;
  tool: { name: 'check-endpoint'; version: string };
  spec: { version: string; source: string };
  target: string;
  /** Only for a handler checked in this process (the library's `checkEndpoint(handler)`): how it was reached. */
  transport?: TransportReport;
  channels: ChannelReport[];
  /**
   * passed: every case passed; failed: a case failed (or did not run: the agent stopped
   * answering); error: the check could not run; interrupted: SIGINT or SIGTERM ended the run.
   */
  outcome: 'passed' | 'failed' | 'error' | 'interrupted';
  /** 0 passed, 1 failed, 2 could not run, 130 interrupted by SIGINT (or the library's `signal`), 143 by SIGTERM. */
  exitCode: 0 | 1 | 2 | 130 | 143;
  /** Why the check could not run, when outcome is error. */
  error: { message: string } | null;
  /** Why the run ended before every case was played, else null. */
  stopped: RunStop | null;
  counts: { cases: number; passed: number; failed: number; notRun: number; errors: number; warnings: number };
  cases: CaseReport[];
  /**
   * The distinct problems of the cases' findings, each once (core/problems.ts), in the order the
   * text output numbers them. Every report a check writes has it; older reports may not.
   */
  problems?: ProblemReport[];
  /** What a --baseline file did: null without one. */
  baseline: BaselineOutcome | null;
  /** The team's scenario files (--scenarios): each checked, and its opening's cases; absent when none were asked for. */
  scenarios?: ScenariosReport;
  /** What each rule of the run's cases requires, by rule id: the common checks' and the cases' own. */
  rules: Record<string, RuleReport>;
}

/** A rule as the report states it: its level and the contract's section (a case of your own may name none), and the requirement. */
export interface RuleReport {
  level: RuleLevel;
  section: string | null;
  statement: string;
}

/** How a handler was reached, and the checks that only make sense over the agent's own socket: never silently skipped. */
export interface TransportReport {
  /** `fetch-handler`: called in this process, no socket at all; `node-listener`: served by the checker on a loopback port for the run. */
  kind: 'fetch-handler' | 'node-listener';
  /** Each check not applicable to it (`proxy`, `tls`, `reproduce`, ...), and why. */
  notApplicable: { check: string; reason: string }[];
}

export interface RunStop {
  reason: 'agent-stopped' | 'interrupted' | 'max-failures';
  /**
   * For people, after "N of M cases finished before": `the agent stopped answering (connection refused …)`,
   * `the run was interrupted by SIGINT`, `the run stopped at --max-failures 1 (5 cases failed, 17 cases not played)`.
   */
  message: string;
}

/** A baseline's effect on the run: which entries matched failures, and which are stale. */
export interface BaselineOutcome {
  file: string;
  entries: string[];
  /** Entries that matched at least one failure of this run. */
  matched: string[];
  /** Entries that matched nothing although their cases ran: they fail the run, so the list only shrinks. */
  stale: string[];
  /** Entries about cases or channels this run did not check (a narrower --case or --channel). */
  unchecked: string[];
}

/** A problem with a scenario file, found before anything is sent. */
export interface ScenarioProblem {
  /** The file, as the user named it; `scenarios[N]` for one the library was given as an object. */
  file: string;
  /** 1-based; 0 where no position is known (an object, or the file as a whole). */
  line: number;
  column: number;
  /** Where in the scenario, as a JSON pointer: `/opening/1/after_ms`; `""` for the file as a whole. */
  pointer: string;
  /** What was expected, and what came. */
  message: string;
  /** How to fix it. */
  fix: string;
}

/** One scenario file: its problems, or how its opening went. */
export interface ScenarioFileReport {
  file: string;
  /** The scenario's id, or null where the file has none that can be used. */
  id: string | null;
  /**
   * `invalid`: the file has problems and was not played; `passed` / `failed`: its opening's cases
   * on every channel; `not-run`: none of them was played (the run stopped first); `valid`: checked
   * by `scenarios --lint`, which plays nothing.
   */
  status: 'passed' | 'failed' | 'invalid' | 'not-run' | 'valid';
  problems: ScenarioProblem[];
  /** The case its opening was played as, in `cases` (`scenario/latte-correction`), or null when it was not played. */
  caseId: string | null;
  /** The channels it was played on. */
  channels: string[];
  /** The person's messages of its opening, as sent ({{now …}} rendered). */
  opening: string[];
  /** History items in the file, not sent: an endpoint has no store to write them into. */
  historyNotSent: number;
}

/** The team's scenarios of a run. */
export interface ScenariosReport {
  /** The folder read, or null for scenarios given to the library as objects. */
  folder: string | null;
  files: ScenarioFileReport[];
  /** Keys this checker does not read, each once with where it stands: not errors, Flow's format is larger than what is public. */
  notChecked: { key: string; places: { file: string; line: number; column: number }[] }[];
  /** Files in the folder not read (`*.yml`: scenario files end in `.yaml`). */
  ignored: string[];
}
