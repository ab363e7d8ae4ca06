import type { Reply } from '../core/answer.js';
import { buttonId, buttonLabel } from '../core/answer.js';
import photo from '../generated/photo.json' with { type: 'json' };
import type { PersonMessage } from '../core/request.js';

/** The fixed cases' ids, stable in every output format. */
export const CASE_IDS = ['typed', 'double-text', 'photo', 'button-tap', 'no-reply'] as const;
export type CaseId = (typeof CASE_IDS)[number];

/** A turn already exchanged in this conversation, as later turns see it. */
export interface PastTurn {
  messageId: string;
  message: PersonMessage;
  /** The agent's replies when its answer matched the schema; undefined when the answer was unusable. */
  replies: Reply[] | undefined;
  /** The ids the checker gave the agent's replies, one per reply, in order. */
  agentMessageIds: string[];
}

export interface TurnDefinition {
  /** The person's message, given what the conversation holds so far. */
  message(past: readonly PastTurn[]): PersonMessage;
  /** The person typed something that deserves an answer: no reply at all is a warning. */
  expectsReply: boolean;
}

export interface CaseDefinition {
  id: CaseId;
  /** What the person does, as the contract says it. */
  summary: string;
  turns: TurnDefinition[];
}

const typed = (text: string, expectsReply = true): TurnDefinition => ({ message: () => ({ text }), expectsReply });

/** A made-up choice for an agent that offered no button or list row to tap. */
export const MADE_UP_CHOICE = { id: 'chk_option_1', title: 'Option 1' } as const;

/** The tap on the agent's first button or list row, quoting the message that offered it. */
function buttonTap(past: readonly PastTurn[]): PersonMessage {
  const offered = past[0];
  const replies = offered?.replies ?? [];
  const index = replies.findIndex((reply) => reply.type === 'message' && (reply.buttons?.length || reply.list?.sections[0]?.rows[0]));
  const quoted = index >= 0 ? index : replies.findIndex((reply) => reply.type === 'message');
  const offer = replies[index];
  let choice: { id: string; title: string } = { ...MADE_UP_CHOICE };
  if (offer?.type === 'message' && offer.buttons?.[0] !== undefined) {
    choice = { id: buttonId(offer.buttons[0]), title: buttonLabel(offer.buttons[0]) };
  } else if (offer?.type === 'message' && offer.list?.sections[0]?.rows[0]) {
    const row = offer.list.sections[0].rows[0];
    choice = { id: row.id, title: row.title };
  }
  const quotedReply = replies[quoted];
  const replyTo =
    quotedReply?.type === 'message' && offered
      ? { replyTo: { messageId: offered.agentMessageIds[quoted]!, from: 'agent' as const, text: quotedReply.text ?? '' } }
      : {};
  return { text: '', choice, ...replyTo };
}

/** The contract's fixed cases, in their order. */
export const FIXED_CASES: readonly CaseDefinition[] = [
  {
    id: 'typed',
    summary: 'sends one typed message',
    turns: [typed('hi, what time are you open today?')],
  },
  {
    id: 'double-text',
    summary: 'sends two messages back to back, the second after the first is answered',
    turns: [typed('can i get a large latte'), typed('oat milk actually')],
  },
  {
    id: 'photo',
    summary: 'sends only a photo',
    turns: [
      {
        message: () => ({ text: '', attachments: [{ kind: 'image', mime: photo.mime, name: photo.name, data: photo.data }] }),
        expectsReply: false,
      },
    ],
  },
  {
    id: 'button-tap',
    summary: "sends a message, then taps the agent's first button or list row, quoting it",
    turns: [typed('can i book a table for tonight?'), { message: buttonTap, expectsReply: false }],
  },
  {
    id: 'no-reply',
    summary: 'sends a message that may need no answer',
    turns: [typed('ok thanks 👍', false)],
  },
];

export function isCaseId(id: string): id is CaseId {
  return (CASE_IDS as readonly string[]).includes(id);
}
