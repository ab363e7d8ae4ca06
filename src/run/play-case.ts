/**
 * Plays one case on one channel: gives the testCase its context (conversations, and `exchange`,
 * which sends a message, judges the answer and records the turn), then assembles its report.
 */
import { type Finding, RULES, type RuleId } from '../core/findings.js';
import { now } from '../core/clock.js';
import { type ConversationPlace, agentMessageId, conversationId, conversationPattern, personMessageId } from '../core/ids.js';
import type { CaseReport } from '../core/report.js';
import type { AgentRequest } from '../core/request.js';
import type { AgentTransport, SendOptions } from '../http/transport.js';
import type {
  JsonValue,
  Conversation,
  ExchangedTurn,
  Expectation,
  PastTurn,
  Case,
  CaseContext,
  CaseOutcome,
  SentMessage,
  SentTurn,
  Turn,
} from '../cases/case.js';
import { type InProcessTarget, checkTurn } from '../validate/judge-exchange.js';
import { reportedAnswer } from '../validate/outcome-summary.js';
import { type PlayedCase, type RecordedTurn, assemblePlay, notRunPlay } from './assemble.js';
import { type AgentLiveness, stoppedFinding } from './liveness.js';
import { type CheckPlan, channelRules, sentCredentials } from './plan.js';
import type { ReproduceTarget } from './reproduce-target.js';
import { recordedRequest } from './recorded-request.js';
import { requestBody } from './request-body.js';
import { turnContext } from './turn-context.js';

/** What every case of a run shares. */
export interface RunState {
  plan: CheckPlan;
  client: AgentTransport;
  /** What a failed turn's reproduce line sends, and where: the agent's URL; none for a handler checked in this process. */
  reproduce: ReproduceTarget | undefined;
  /** A handler checked in this process, and the path its requests go to; undefined for an agent's URL. */
  inProcess: InProcessTarget | undefined;
  runId: string;
  /** How this process was started (core/command-name.ts): what the hints' and replay lines' commands are written as. */
  command: string;
  /** The cases of the run finished so far. */
  finishedCases(): readonly CaseReport[];
  liveness: AgentLiveness;
  /** Aborted when the run is interrupted. */
  signal: AbortSignal | undefined;
  /** Whether the run sends nothing new: it was interrupted, the agent stopped answering, or --max-failures was reached. */
  halted(): boolean;
  /** Told of a turn whose findings fail its case (for --max-failures). */
  turnFailed(caseId: string, channel: string): void;
}

/**
 * A case cut short: the run was interrupted, or the agent stopped answering. A case whose turn
 * found the agent gone keeps its turns, the last with the stop's finding, and when that turn was
 * sent (`sentAt`): of all such cases the runner keeps the one sent first, the turn the agent died
 * on; the others are reported as not run, like any case cut short.
 */
class CaseCutShort extends Error {
  constructor(readonly sentAt?: number) {
    super('the case was cut short');
  }
}

/** A play as played: its report, and, for a play whose turn found the agent gone, when that turn was sent. */
export interface PlayOutcome {
  report: PlayedCase;
  stoppedTurnSentAt?: number;
}

/** Which play of a case this is: the play's number, of how many. */
export interface PlayNumber {
  play: number;
  runs: number;
}

/**
 * A turn as sent and answered. Its request becomes what reports keep (recordedRequest: a large
 * attachment's data as its size and digest) only when the turns are read, for the case's report:
 * never for a conversation forgotten before then, as --explore forgets each one that passed. Its
 * data is held meanwhile by the conversation's past anyway (PastTurn's message). A passing explore
 * run so digests nothing, and never loads node:crypto: 16 ms of a Node 24 profile of 1,000 turns.
 */
type AnsweredTurn = Omit<RecordedTurn, 'request'> & { request: AgentRequest };

/** A conversation as the context keeps it: what the testCase sees, and the turns recorded in it. */
class ConversationState implements Conversation {
  readonly id: string;
  readonly personMessageIds: string[] = [];
  /** The turns answered so far, at the place they were sent in (a later one may be answered first). */
  readonly #past: PastTurn[] = [];
  readonly #turns: AnsweredTurn[] = [];
  /** How many turns have been sent: the next one's place. */
  sent = 0;

  get past(): PastTurn[] {
    return this.#past.filter((turn) => turn !== undefined);
  }

  get turns(): RecordedTurn[] {
    return this.#turns.filter((turn) => turn !== undefined).map((turn) => ({ ...turn, request: recordedRequest(turn.request) }));
  }

  /** Records the turn sent `place`th (0-based) once it is answered. */
  record(place: number, past: PastTurn, turn: AnsweredTurn): void {
    this.#past[place] = past;
    this.#turns[place] = turn;
  }

  constructor(readonly place: ConversationPlace) {
    this.id = conversationId(place);
  }

  messageId(turn: number): string {
    return personMessageId(this.place, turn);
  }
}

/** A made-up token, never the real one. Like the real one, it is never printed or reported. */
function wrongToken(token: string | undefined): string {
  for (;;) {
    const made = `chk-wrong-${Array.from({ length: 4 }, () =>
      Math.floor(Math.random() * 0x100000000)
        .toString(16)
        .padStart(8, '0'),
    ).join('')}`;
    if (made !== token) return made;
  }
}

class PlayContext implements CaseContext {
  readonly #conversations = new Map<Conversation, ConversationState>();
  /** Conversations opened so far, forgotten ones included: the next one's number. */
  #opened = 0;
  readonly #finishedBefore: readonly CaseReport[];
  /** The conversation `send` talks in, once it has sent. */
  #sendConversation: Conversation | undefined;
  /** The case's own findings, from `expect`. */
  readonly expectations: Finding[] = [];

  constructor(
    readonly testCase: Case,
    readonly channel: string,
    readonly run: RunState,
    readonly playNumber: PlayNumber,
  ) {
    this.#finishedBefore = [...run.finishedCases()];
  }

  get runId(): string {
    return this.run.runId;
  }

  get contract(): CaseContext['contract'] {
    return this.run.plan.contract;
  }

  get settings(): CaseContext['settings'] {
    const { plan } = this.run;
    return {
      timeoutSeconds: plan.timeoutSeconds,
      tokenEnv: plan.tokenEnv,
      // An authorization header from --header-env counts as the token: quality/auth checks it is required.
      tokenSet: sentCredentials(plan).authorization !== undefined,
      concurrency: plan.concurrency,
      strict: plan.strict,
      explore: plan.explore,
    };
  }

  get platform(): CaseContext['platform'] {
    return channelRules(this.run.plan, this.channel);
  }

  get halted(): boolean {
    return this.run.halted();
  }

  progress(done: number, total: number, found: number): void {
    this.run.plan.hooks.onCaseProgress?.({ case: this.testCase.id, channel: this.channel, done, total, found });
  }

  forget(conversation: Conversation): void {
    this.#conversations.delete(conversation);
  }

  setting<T extends JsonValue = number>(name: string): T {
    const settings = this.run.plan.caseSettings[this.testCase.id] ?? {};
    if (!Object.hasOwn(settings, name)) throw new Error(`${this.testCase.id}: it reads the setting ${name}, which it does not declare`);
    // Vetted by the case's own declaration (case-settings.ts): of the type the case declared, which T names.
    return settings[name] as T;
  }

  async send(message: SentMessage): Promise<SentTurn> {
    this.#sendConversation ??= this.openConversation();
    const text = message.text ?? '';
    const turn = await this.exchange({ conversation: this.#sendConversation, message: { ...message, text }, expectsReply: text !== '' });
    const { messageId, outcome, replies, findings, answer } = turn;
    return { messageId, status: outcome.kind === 'answer' ? outcome.status : null, replies, findings, answer };
  }

  expect(holds: boolean, expectation: Expectation): boolean {
    this.vetRule(expectation.rule);
    if (!holds) {
      const { rule, message, severity = 'error', path = '', hint = null } = expectation;
      this.expectations.push({ rule, severity, message, path, hint });
    }
    return holds;
  }

  /** A finding of the case's own names a common rule or one the case declares. */
  vetRule(rule: RuleId): void {
    const common: readonly string[] = RULES;
    if (!common.includes(rule) && !this.testCase.rules?.some((declared) => declared.id === rule)) {
      throw new Error(`${this.testCase.id}: a finding names the rule "${rule}", which the case does not declare in its rules`);
    }
  }

  /** A case's one conversation is numbered by its play: `….typed.1` … `….typed.N`. */
  openConversation(): Conversation {
    return this.#open(false, this.playNumber.play + this.#opened);
  }

  /** Several at once are numbered on from the play's first: play 2 of 8 conversations holds 9 to 16. */
  openConversations(count: number): Conversation[] {
    const first = (this.playNumber.play - 1) * count + this.#opened + 1;
    return Array.from({ length: count }, (_, index) => this.#open(true, first + index));
  }

  #open(several: boolean, number: number): Conversation {
    const { play, runs } = this.playNumber;
    const place = {
      runId: this.runId,
      channel: this.channel,
      caseId: this.testCase.id,
      number,
      several,
      ...(runs > 1 ? { play } : {}),
    };
    const state = new ConversationState(place);
    this.#conversations.set(state, state);
    this.#opened++;
    return state;
  }

  finishedCases(): readonly CaseReport[] {
    return this.#finishedBefore;
  }

  async wait(ms: number): Promise<void> {
    if (ms > 0) {
      const { signal } = this.run;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
    if (this.run.halted()) throw new CaseCutShort();
  }

  async exchange(turn: Turn): Promise<ExchangedTurn> {
    const state = this.#conversations.get(turn.conversation);
    if (!state) throw new Error(`${this.testCase.id}: a turn names a conversation this case did not open`);
    const { plan, client, liveness, signal } = this.run;
    if (this.run.halted()) throw new CaseCutShort();
    const messageId = turn.messageId ?? state.messageId(state.personMessageIds.length + 1);
    if (!state.personMessageIds.includes(messageId)) state.personMessageIds.push(messageId);
    const request: AgentRequest = {
      conversationId: state.id,
      messageId,
      channel: this.channel,
      ...turn.extraFields,
      message: turn.message,
    };
    const sentBody = turn.body?.(request);
    const authorization: SendOptions['authorization'] =
      turn.authorization === 'none' ? 'none' : turn.authorization === 'wrong-token' ? { wrongToken: wrongToken(plan.token) } : 'token';
    const place = state.sent++;
    const sentAt = now();
    const body = sentBody ?? requestBody(request);
    const sentBytes = Buffer.byteLength(body);
    const outcome = await client.send({ method: 'POST', body, authorization });
    if (signal?.aborted) throw new CaseCutShort();
    const stopped = outcome.kind === 'network' ? await liveness.confirm(outcome.message) : liveness.ended();

    let findings: readonly Finding[];
    let answer: unknown;
    let replies: ExchangedTurn['replies'];
    if (stopped) {
      findings = [stoppedFinding(stopped)];
      answer = null;
      replies = undefined;
    } else if (turn.judge && 'outcome' in turn.judge) {
      findings = turn.judge.outcome(outcome);
      answer = reportedAnswer(outcome);
      replies = undefined;
    } else {
      const verdict = checkTurn(
        outcome,
        turnContext(plan, this.channel, {
          personMessageIds: [...state.personMessageIds],
          expectsReply: turn.expectsReply,
          requestBytes: sentBytes,
          inProcess: this.run.inProcess,
        }),
      );
      ({ answer, replies } = verdict);
      findings = turn.judge ? turn.judge.refine({ outcome, sentBytes, ...verdict }) : verdict.findings;
    }

    if (findings.some((finding) => finding.severity === 'error' || plan.strict)) this.run.turnFailed(this.testCase.id, this.channel);
    const turnNumber = place + 1;
    const past = {
      messageId,
      message: request.message,
      replies,
      agentMessageIds: (replies ?? []).map((_, reply) => agentMessageId(state.place, turnNumber, reply)),
    };
    state.record(place, past, {
      messageId,
      request,
      ...(sentBody !== undefined ? { sentBody } : {}),
      ...(turn.authorization !== undefined ? { authorization: turn.authorization } : {}),
      status: outcome.kind === 'answer' ? outcome.status : null,
      latencyMs: outcome.latencyMs,
      answer,
      findings,
    });
    if (stopped) throw new CaseCutShort(sentAt);
    return { messageId, outcome, sentBytes, findings, answer, replies };
  }

  /** The case's conversation id: its one conversation's, or a pattern over several (or over the run, with none). */
  conversationId(): string {
    const states = [...this.#conversations.values()];
    if (states.length === 1) return states[0]!.id;
    return conversationPattern(this.runId, this.channel, states.length > 1 ? this.testCase.id : undefined);
  }

  /** Every turn, conversation by conversation in the order they were opened. */
  turns(): RecordedTurn[] {
    return [...this.#conversations.values()].flatMap((state) => state.turns);
  }
}

/** The id a play's conversation gets, for a play that is not played. */
export function playConversationId(testCase: Case, channel: string, runId: string, play: number): string {
  return conversationId({ runId, channel, caseId: testCase.id, number: play, several: false });
}

/** Plays the case once; a play cut short is reported as not run, or, where it found the agent gone, with its turns so far. */
export async function playCase(testCase: Case, channel: string, run: RunState, playNumber: PlayNumber): Promise<PlayOutcome> {
  const started = now();
  const context = new PlayContext(testCase, channel, run, playNumber);
  try {
    return { report: assembleOf(context, started, (await testCase.run(context)) ?? {}) };
  } catch (cause) {
    if (!(cause instanceof CaseCutShort)) throw cause;
    if (cause.sentAt === undefined) return { report: notRunPlay(testCase.id, channel, playNumber.play, context.conversationId()) };
    return { report: assembleOf(context, started, {}), stoppedTurnSentAt: cause.sentAt };
  }
}

function assembleOf(context: PlayContext, started: number, outcome: CaseOutcome): PlayedCase {
  const { testCase, channel } = context;
  const { plan } = context.run;
  for (const finding of outcome.findings ?? []) context.vetRule(finding.rule);
  const caseFindings = [...context.expectations, ...(outcome.findings ?? [])];
  return assemblePlay(
    {
      id: testCase.id,
      channel,
      conversationId: context.conversationId(),
      started,
      turns: context.turns(),
      ...(caseFindings.length ? { caseFindings } : {}),
      ...(outcome.latency ? { latency: outcome.latency } : {}),
      ...(outcome.explore ? { explore: outcome.explore } : {}),
      ...(outcome.cutShort ? { cutShort: true } : {}),
    },
    context.playNumber.play,
    plan.strict,
    context.run.command,
    context.run.reproduce,
  );
}
