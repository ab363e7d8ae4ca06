/**
 * The names the checker gives things: channels as the request schema allows them, and the ids of a
 * run's conversations and messages. Every id carries the run's id, so runs never share history.
 */

/** A channel's name, as spec/request.schema.json allows a custom one: a lower case letter, then up to 31 of a-z, 0-9, _ and -. */
export const CHANNEL_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** A case's id: lower case letters, digits, _ and -, with one / at most (`typed`, `quality/retry`, `acme/greeting`). */
export const CASE_ID = /^[a-z][a-z0-9_-]{0,47}(\/[a-z][a-z0-9_-]{0,47})?$/;

/** A fresh run id: eight hex digits (node:crypto would cost start-up time; this needs no secrecy). */
export function newRunId(): string {
  return Math.floor(Math.random() * 0x100000000)
    .toString(16)
    .padStart(8, '0');
}

/** A case id as it appears inside conversation and message ids: `quality/retry` is `quality-retry`. */
export function caseSlug(caseId: string): string {
  return caseId.replace('/', '-');
}

/** Where one conversation stands in a run: its channel, its case, and its number in the case. */
export interface ConversationPlace {
  runId: string;
  channel: string;
  caseId: string;
  /** 1 for a case's only conversation; 1, 2, ... for a case of several. */
  number: number;
  /** The case holds several conversations at once: message ids name the conversation (`.c3`). */
  several: boolean;
  /** With --runs above 1, the play (1-based): message ids name it too (`.r2`), each play its own conversation. */
  play?: number;
}

/** `whatsapp:chk_5a6abc7b.typed.1`, `whatsapp:chk_5a6abc7b.quality-retry.1`; play 3 of a case is `….typed.3`. */
export function conversationId(place: ConversationPlace): string {
  return `${place.channel}:chk_${place.runId}.${caseSlug(place.caseId)}.${place.number}`;
}

/** The conversation ids of a case of several conversations (`…quality-concurrency.*`), or of the whole run on a channel (`…*`). */
export function conversationPattern(runId: string, channel: string, caseId?: string): string {
  return `${channel}:chk_${runId}.${caseId === undefined ? '' : `${caseSlug(caseId)}.`}*`;
}

/** The person's `turn`th message (1-based): `chk_5a6abc7b.whatsapp.typed.p1` (`.c3.p1` in conversation 3 of several). */
export function personMessageId(place: ConversationPlace, turn: number): string {
  return `${messagePrefix(place)}.p${turn}`;
}

/** The id the checker gives the agent's `reply`th reply (0-based) to the person's `turn`th message: `….a1.0`. */
export function agentMessageId(place: ConversationPlace, turn: number, reply: number): string {
  return `${messagePrefix(place)}.a${turn}.${reply}`;
}

function messagePrefix(place: ConversationPlace): string {
  const play = place.play === undefined ? '' : `.r${place.play}`;
  return `chk_${place.runId}.${place.channel}.${caseSlug(place.caseId)}${play}${place.several ? `.c${place.number}` : ''}`;
}

/** Where a team scenario's opening is reported among the cases: `scenario/latte-correction`. */
export const SCENARIO_CASE_PREFIX = 'scenario/';
