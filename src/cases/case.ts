/**
 * A case of the check, as the best conformance suites write one: an id, the requirement it checks
 * in words, where it runs, and `run(context)`, which plays its conversations through the context.
 * The context sends each message, judges the answer and records the turn; the runner (src/run/)
 * plans, schedules and assembles the report. Every case is listed in `registry.ts` (the quality and
 * extended ones through `case-modules.ts`, which `npm run build` writes from their files).
 */
import type { Reply } from '../core/answer.js';
import type { Finding, RuleFacts, RuleId, Severity } from '../core/findings.js';
import type { CaseReport, ExploreReport, ExploreStep, LatencyFigures } from '../core/report.js';
import type { AgentRequest, PersonMessage } from '../core/request.js';
import type { Contract, PlatformRules } from '../contract/contract.js';
import type { HttpOutcome } from '../http/client.js';

/** `channel`: played on every channel of the run; `run`: once per run, on its first channel. */
export type CaseScope = 'channel' | 'run';

/**
 * `contract`: the contract's fixed cases, played on every run, all their conversations at once (up
 * to --concurrency); `extended`: the contract's extended cases (--extended, or --case ID), played
 * with the fixed ones, in the same way; `quality`: the checks beyond the contract (--quality),
 * played one case after another in the registry's order, each case on its channels at once;
 * `custom`: a case of your own (defineCase, the `customCases` option), played with the fixed ones;
 * `scenario`: the opening of a team's scenario file (--scenarios), played after them on its own channels;
 * `explore`: generated conversations (--explore), played after those, one channel at a time, each
 * channel's conversations up to --concurrency at once.
 */
export type CaseGroup = 'contract' | 'extended' | 'quality' | 'custom' | 'scenario' | 'explore';

/**
 * A rule a case declares: its id, and what it requires. A built-in case's rules are stated in the
 * contract (`x-rules`), by id; a case of your own states its own level and statement (and, if it
 * has one, the section of your own document that states it).
 */
export interface CaseRule extends Partial<Omit<RuleFacts, 'section'>> {
  id: string;
  section?: string;
}

export interface Case<Id extends string = string> {
  /** Stable in every output format: `typed`, `quality/retry`. */
  id: Id;
  /** The requirement it checks, in words. */
  description: string;
  scope: CaseScope;
  group: CaseGroup;
  /**
   * A quality or extended case's place among its group's cases, in play and in every report: lowest
   * first (quality/auth 10 … quality/latency 1000, last). Every case of src/cases/quality/ and
   * src/cases/extended/ declares its own (the build refuses one without, or one another case has).
   */
  order?: number;
  /** Played once whatever --runs says: a case that sends nothing of its own (quality/latency). */
  playsOnce?: boolean;
  /** The case's own settings, by name (`budgetMs`), read in `run` with `context.setting(name)`. */
  settings?: Readonly<Record<string, CaseSetting>>;
  /** The rules of the case's own findings, beside the common checks' (which every turn is judged by). */
  rules?: readonly CaseRule[];
  /** Conversations the case keeps in flight at once, given its settings (the run opens that many connections). */
  conversationsAtOnce?(setting: (name: string) => JsonValue): number;
  /**
   * Of scope `channel`: whether it is played on a channel, from the channel's display rules (the
   * contract's, or a --limits file's; undefined for a custom channel without limits). Every channel when left out.
   */
  playsOn?(platform: PlatformRules | undefined): boolean;
  /** The channels it is played on whatever the run's are (a team scenario's own `channels`). */
  channels?: readonly string[];
  /** A quality case played on one channel after another, not on all at once: its request is large (quality/large-attachment's 7 MB). */
  oneChannelAtATime?: boolean;
  run(context: CaseContext): Promise<CaseOutcome | void>;
}

/**
 * A quality case's row in docs/checks.md's table of the quality cases, which `npm run build` writes
 * from the registry (scripts/checks-doc.ts): Markdown, one line each, links relative to docs/.
 */
export interface QualityCaseDoc {
  /** Where it plays: `once, first channel`, `every channel`, or which channels. */
  runs: string;
  /** What it sends. */
  sends: string;
  /** What passes and what is found, naming its rule. */
  finding: string;
}

/** An extended case's row in docs/checks.md's table of the extended cases (as `QualityCaseDoc`). */
export interface ExtendedCaseDoc {
  /** What the person does: `sends only a voice note: …`. */
  does: string;
}

/** A case of src/cases/quality/: its `order` and its row in docs/checks.md (`doc`) are its own to give. */
export interface QualityCase<Id extends string = string> extends Case<Id> {
  order: number;
  doc: QualityCaseDoc;
}

/** A case of src/cases/extended/: its `order` and its row in docs/checks.md (`doc`) are its own to give. */
export interface ExtendedCase<Id extends string = string> extends Case<Id> {
  order: number;
  doc: ExtendedCaseDoc;
}

/** A value a case setting holds: any JSON value. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * A setting a case declares, by name (`budgetMs`): any JSON value, with its default and what it
 * takes. It is given as `caseSettings: { "quality/latency": { budgetMs: 2000 } }` to the library,
 * `"cases": { … }` in the config file and `--case-setting quality/latency.budgetMs=2000` on the
 * command line (src/cases/case-settings.ts resolves it), and read in `run` with
 * `context.setting(name)`.
 */
export interface CaseSetting<T extends JsonValue = JsonValue> {
  /** What it sets, as help says it. */
  description: string;
  default: T;
  /**
   * What a value given must be, as "must be …" (the message adds what came); undefined when the
   * value is taken. Left out: a number setting takes a positive number (see `integer`, `max`), any
   * other takes a value of its default's JSON type.
   */
  validate?(value: JsonValue): string | undefined;
  /** A number setting: a whole number (else any positive number). */
  integer?: boolean;
  /** A number setting: the largest value taken. */
  max?: number;
  /** An older way to give a number setting: its own option field and flag, in its own unit. */
  option?: SettingOption;
  /**
   * The earlier form of a number setting of your own: its name is also an option of checkEndpoint
   * (`greetingTurns: 3`); `flag` and `placeholder` are kept for that form and read nowhere else.
   */
  flag?: string;
  placeholder?: string;
}

/** A number setting's own option field and flag: quality/latency's budgetMs is also `latencyBudgetSeconds`, `--latency-budget`. */
export interface SettingOption {
  /** The option field: `latencyBudgetSeconds`. */
  field: string;
  /** The command line's flag, without `--`: `latency-budget`; none for a case of your own. */
  flag?: string;
  /** How help writes the value: SECONDS, N. */
  placeholder: string;
  /** What it sets, as help says it. */
  description: string;
  /** Its default, in its own unit. */
  default: number;
  integer?: boolean;
  /** The largest value taken, in its own unit. */
  max?: number;
  /** The setting's value for one of the option's: 1000 for seconds to milliseconds. Default 1. */
  scale?: number;
}

/** What a case says of itself beyond its turns. */
export interface CaseOutcome {
  /** Findings about the case as a whole, not one turn (reported with turn null). */
  findings?: readonly Finding[];
  /** quality/latency's figures. */
  latency?: LatencyFigures;
  /** explore's figures and the conversations it found failing. */
  explore?: ExploreReport;
  /** The case ended before it finished (the run was halted): without a failure it is reported as not run, never as passed. */
  cutShort?: boolean;
}

/** The run's settings a case may read. The token itself is never given to a case. */
export interface RunSettings {
  /** Seconds the agent has for each answer. */
  timeoutSeconds: number;
  /** The token's environment variable, and whether it holds a token (sent with every message). */
  tokenEnv: string;
  tokenSet: boolean;
  /** Conversations in flight at once (--concurrency). */
  concurrency: number;
  /** Warnings fail a case too (--strict). */
  strict: boolean;
  /** --explore's settings: its budget, seed, shrinking, and the conversations kept from earlier runs. */
  explore: ExploreSettings;
}

/** What --explore is told: how far it goes, its seed, and what it plays first. */
export interface ExploreSettings {
  /** Messages it may send on each channel (--explore-turns). */
  turns: number;
  /** The seed of its choices (--seed): the same seed and agent give the same requests. */
  seed: number;
  /** Shrink each failure to its smallest conversation (--no-shrink turns it off). */
  shrink: boolean;
  /** Conversations found failing by earlier runs (.check-endpoint/explore.json), played first. */
  kept: readonly KeptConversation[];
  /** Play only the kept conversations (--failed), exploring nothing new. */
  keptOnly: boolean;
}

/** A failing conversation kept from an earlier run: its channel, the problem it showed, and its steps. */
export interface KeptConversation {
  channel: string;
  /** The place of the problem it showed (rule, severity, pointer shape): what it must fail with to fail still. */
  problem: string;
  /** The problem's rule and place, for people: `schema /replies/0/buttons`. */
  title: string;
  steps: readonly ExploreStep[];
}

/** A message of the conversation already exchanged, as later turns see it. */
export interface PastTurn {
  messageId: string;
  message: PersonMessage;
  /** The agent's replies when its answer matched the schema; undefined when it was unusable. */
  replies: readonly Reply[] | undefined;
  /** The ids the checker gave the agent's replies, one per reply, in order. */
  agentMessageIds: readonly string[];
}

/** One conversation of a case: its id, and what has been said in it. */
export interface Conversation {
  readonly id: string;
  /** The id the person's `turn`th message (1-based) gets. */
  messageId(turn: number): string;
  /** The person's message ids so far. */
  readonly personMessageIds: readonly string[];
  readonly past: readonly PastTurn[];
}

/** What the context hands a case's own judging: the exchange, and the common checks' verdict on it. */
export interface JudgedExchange {
  outcome: HttpOutcome;
  /** The size of the request body sent, in bytes. */
  sentBytes: number;
  /** The common checks' findings: timeout, status, json, schema, platform, reference. */
  findings: readonly Finding[];
  /** The parsed answer body, or null. */
  answer: unknown;
  replies: readonly Reply[] | undefined;
}

/** One message to send, and how its answer is judged. */
export interface Turn {
  conversation: Conversation;
  message: PersonMessage;
  /** The person typed something that deserves an answer: no reply at all is a warning. */
  expectsReply: boolean;
  /** Send it again under an id already used (a platform's retry); by default the conversation's next id. */
  messageId?: string;
  /** Fields beyond the contract's, added at the request's top (quality/forward-compat). */
  extraFields?: Readonly<Record<string, unknown>>;
  /** A body other than the request as JSON (quality/malformed damages it on purpose). */
  body?: (request: AgentRequest) => string;
  /** How the authorization header differs from the run's token: left out, or a made-up token. */
  authorization?: 'none' | 'wrong-token';
  /**
   * How the answer is judged. Left out: by the common checks. `refine`: the common checks, then
   * the case's own look at them (its rule in place of `status`, say). `outcome`: by the case alone,
   * from what came back (an answer to a request meant to be refused is not judged as replies).
   */
  judge?: { refine: (judged: JudgedExchange) => Finding[] } | { outcome: (outcome: HttpOutcome) => Finding[] };
}

/** A message a case of your own sends, as `send` takes it: the request's `message`, its text by default empty. */
export type SentMessage = Partial<PersonMessage>;

/** A turn sent by `send`, as judged: what came back, and the common checks' findings. */
export interface SentTurn {
  messageId: string;
  /** The HTTP status, or null when no answer came. */
  status: number | null;
  /** The agent's replies when the answer matched the schema, else undefined. */
  replies: readonly Reply[] | undefined;
  findings: readonly Finding[];
  /** The parsed answer body, or null. */
  answer: unknown;
}

/** A finding of the case's own, as `expect` takes it. */
export interface Expectation {
  rule: RuleId;
  /** What was expected and what came, in a sentence. */
  message: string;
  /** Default `error`. */
  severity?: Severity;
  /** A JSON pointer into the answer, if the finding is about one; default `""`. */
  path?: string;
  hint?: string | null;
}

/** A turn as exchanged and judged. */
export interface ExchangedTurn extends JudgedExchange {
  messageId: string;
  /** The findings recorded for the turn. */
  findings: readonly Finding[];
}

export interface CaseContext {
  /** The channel this case is played on. */
  readonly channel: string;
  /** What the channel's platform shows and takes (the contract's, or a --limits file's); undefined for a custom channel without limits. */
  readonly platform: PlatformRules | undefined;
  /** This run's id: fresh for every run. */
  readonly runId: string;
  readonly settings: RunSettings;
  /**
   * The value of one of the case's own settings (its `settings`), as the run was given it or by
   * default, vetted by its declaration (so of the declared type: `T` is the caller's word for it).
   */
  setting<T extends JsonValue = number>(name: string): T;
  /** The contract the run checks against (quality/malformed breaks its request schema). */
  readonly contract: Contract;
  /** Opens the case's conversation. */
  openConversation(): Conversation;
  /** Opens several conversations at once (their message ids name the conversation). */
  openConversations(count: number): Conversation[];
  /**
   * Sends one message, judges the answer, records the turn. Turns are recorded in the order they
   * were sent, even when a later one is answered first.
   */
  exchange(turn: Turn): Promise<ExchangedTurn>;
  /** Waits `ms` milliseconds (none when 0 or less); ends the case at once when the run is interrupted. */
  wait(ms: number): Promise<void>;
  /**
   * Sends the person's next message in the case's conversation (opened on the first send), judged
   * by the common checks as every built-in case's turns are; resolves with the judged turn.
   */
  send(message: SentMessage): Promise<SentTurn>;
  /**
   * The case's own expectation: when `holds` is false, the finding is recorded on the case (turn
   * null), under a rule the case declares in `rules` (or a common one). Returns `holds`.
   */
  expect(holds: boolean, finding: Expectation): boolean;
  /** The cases of this run that finished before this one started. */
  finishedCases(): readonly CaseReport[];
  /** Whether the run sends nothing new now: interrupted, the agent gone, or --max-failures reached. */
  readonly halted: boolean;
  /** Tells the run how far the case has gone: `done` of `total` (explore: turns of its budget), `found` problems so far. */
  progress(done: number, total: number, found: number): void;
  /** Leaves a conversation out of the case's report (its turns are not kept): --explore keeps only the conversations that failed. */
  forget(conversation: Conversation): void;
}
