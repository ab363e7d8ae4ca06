/**
 * One conversation of the chat page: its ids, its turns as the check records them, and `send`,
 * which makes a step into a request, sends it, judges the answer with the check's own judge
 * (judge-exchange.ts) and reports the turn as the check's --json does (assemble.ts reportedTurn).
 * Its messages are sent one at a time, as the contract says: a message sent while the last is
 * unanswered (a double text) waits for that answer, and how soon after the last it was sent is kept
 * (a scenario's `after_ms`).
 */
import { now } from '../core/clock.js';
import { type ConversationPlace, agentMessageId, conversationId, newRunId, personMessageId } from '../core/ids.js';
import type { TurnReport } from '../core/report.js';
import type { AgentRequest } from '../core/request.js';
import type { PastTurn } from '../cases/case.js';
import type { AgentTransport, HttpOutcome } from '../http/transport.js';
import { checkTurn } from '../validate/judge-exchange.js';
import type { InProcessTarget } from '../validate/status-hints.js';
import { reportedTurn } from '../run/assemble.js';
import type { CheckPlan } from '../run/plan.js';
import { recordedRequest } from '../run/recorded-request.js';
import { requestBody } from '../run/request-body.js';
import { turnContext } from '../run/turn-context.js';
import type { ReproduceTarget } from '../run/reproduce-target.js';
import { type ChatStep, messageOf } from './chat-step.js';

/** The case id the chat's conversations are named by: `whatsapp:chk_5acff5cd.chat.1`. */
export const CHAT_CASE = 'chat';

/** What every conversation of one chat server shares: the planned options, the agent's transport, how a turn is reproduced. */
export interface ChatLink {
  plan: CheckPlan;
  transport: AgentTransport;
  /** Where a reproduce line sends a turn: the agent's URL; none for a handler in this process. */
  reproduce: ReproduceTarget | undefined;
  inProcess: InProcessTarget | undefined;
  /** How this process was started, for the commands hints name. */
  command: string;
}

/** One turn as the page shows it: the check's report of it, and what the details pane shows. */
export interface ChatTurn {
  step: ChatStep;
  report: TurnReport;
  past: PastTurn;
  /** The body exactly as sent (its download), and the headers as recorded (secrets `<redacted>`). */
  body: string | Buffer;
  sentHeaders: Readonly<Record<string, string>>;
  /** The answer's headers (the agent's echo of a secret already redacted by the transport); none without an answer. */
  answerHeaders: Readonly<Record<string, string>> | undefined;
  /** Sent while the last message was still unanswered: how many ms after that one it was sent (a double text). */
  afterMs: number | undefined;
}

export type SendResult = { turn: ChatTurn; index: number } | { refused: string };

export class ChatConversation {
  readonly place: ConversationPlace;
  readonly conversationId: string;
  readonly turns: ChatTurn[] = [];
  /** The sends in order: each waits for the one before. */
  #queue: Promise<unknown> = Promise.resolve();
  #unanswered = 0;
  #lastSentAt: number | undefined;

  constructor(
    readonly link: ChatLink,
    readonly channel: string,
  ) {
    this.place = { runId: newRunId(), channel, caseId: CHAT_CASE, number: 1, several: false };
    this.conversationId = conversationId(this.place);
  }

  /** The messages sent and not answered yet. */
  get unanswered(): number {
    return this.#unanswered;
  }

  /** Sends a step once every message before it is answered. */
  send(step: ChatStep): Promise<SendResult> {
    const arrived = now();
    const afterMs = this.#unanswered > 0 && this.#lastSentAt !== undefined ? Math.round(arrived - this.#lastSentAt) : undefined;
    this.#lastSentAt = arrived;
    this.#unanswered++;
    const played = this.#queue.then(() => this.#play(step, afterMs));
    this.#queue = played.catch(() => undefined);
    return played.finally(() => {
      this.#unanswered--;
    });
  }

  async #play(step: ChatStep, afterMs: number | undefined): Promise<SendResult> {
    const made = messageOf(
      step,
      this.turns.map((turn) => turn.past),
    );
    if ('refused' in made) return made;
    const { plan, transport } = this.link;
    const index = this.turns.length;
    const messageId = personMessageId(this.place, index + 1);
    const request: AgentRequest = { conversationId: this.conversationId, messageId, channel: this.channel, message: made.message };
    const body = requestBody(request);
    const requestBytes = Buffer.byteLength(body);
    const outcome = await transport.send({ method: 'POST', body });
    const personMessageIds = [...this.turns.map((turn) => turn.past.messageId), messageId];
    const verdict = checkTurn(
      outcome,
      turnContext(plan, this.channel, {
        personMessageIds,
        expectsReply: made.message.text !== '',
        requestBytes,
        inProcess: this.link.inProcess,
      }),
    );
    const recorded = {
      messageId,
      request: recordedRequest(request),
      status: outcome.kind === 'answer' ? outcome.status : null,
      latencyMs: outcome.latencyMs,
      answer: verdict.answer,
      findings: verdict.findings,
    };
    const report = reportedTurn(recorded, index, { id: CHAT_CASE, channel: this.channel }, this.link.command, this.link.reproduce);
    const turn: ChatTurn = {
      step,
      report,
      past: {
        messageId,
        message: made.message,
        replies: verdict.replies,
        agentMessageIds: (verdict.replies ?? []).map((_, reply) => agentMessageId(this.place, index + 1, reply)),
      },
      body,
      sentHeaders: transport.recordedHeaders({ method: 'POST', body }),
      answerHeaders: answerHeadersOf(outcome),
      afterMs,
    };
    this.turns.push(turn);
    return { turn, index };
  }
}

function answerHeadersOf(outcome: HttpOutcome): Record<string, string> | undefined {
  return outcome.kind === 'answer' ? outcome.headers : undefined;
}
