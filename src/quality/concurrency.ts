/**
 * quality/concurrency: conversations stay apart under load. N conversations at once
 * (--quality-conversations, default 8), each about its own order code, each two messages in turn.
 * Every answer is judged like any message; a reply naming another conversation's message id, or
 * mentioning another conversation's order code, is an error (rule `concurrency`) naming both
 * conversations. Runs once per run, on its own connections (one per conversation).
 */
import { AgentClient } from '../http/client.js';
import { type Finding, error, excerpt, pointer } from '../core/findings.js';
import type { AgentRequest } from '../core/request.js';
import type { CaseReport } from '../core/report.js';
import type { QualityContext } from './quality-context.js';
import {
  judgeTurn,
  qualityCase,
  qualityConversationId,
  qualityConversationPattern,
  qualityMessageId,
  qualityTurn,
  type TurnFields,
} from './quality-turn.js';
import { now } from '../core/clock.js';

const ID = 'quality/concurrency';

const HINT =
  'Keep every piece of conversation state (history, pending work, the message being answered) keyed by conversationId, never in a global or module-level variable shared by requests in flight.';

interface Conversation {
  number: number;
  conversationId: string;
  /** The order code only this conversation mentions. */
  code: string;
  messageIds: string[];
  texts: string[];
}

function conversations(context: QualityContext, channel: string): Conversation[] {
  const count = context.plan.qualityConversations;
  const width = String(count).length;
  return Array.from({ length: count }, (_, index) => {
    const number = index + 1;
    const code = `${context.runId.toUpperCase()}-${String(number).padStart(width, '0')}`;
    return {
      number,
      conversationId: qualityConversationId(context, channel, ID, number),
      code,
      messageIds: [1, 2].map((turn) => qualityMessageId(context, channel, ID, turn, number)),
      texts: [`hi, are you open now? i'm asking about order ${code}`, `and is order ${code} ready for pickup?`],
    };
  });
}

/** The id a reply object names (replyTo, or a reaction's messageId), read from any object, valid or not. */
function namedId(reply: Record<string, unknown>): { field: 'replyTo' | 'messageId'; id: string } | undefined {
  if (reply.type === 'reaction' && typeof reply.messageId === 'string') return { field: 'messageId', id: reply.messageId };
  if (reply.type === 'message' && typeof reply.replyTo === 'string') return { field: 'replyTo', id: reply.replyTo };
  return undefined;
}

/**
 * Findings for replies that carry another conversation's message id or order code; the `reference`
 * finding an id from elsewhere raised gives way to the `concurrency` one, which says whose it is.
 */
function mixedFindings(findings: readonly Finding[], answer: unknown, own: Conversation, all: readonly Conversation[]): Finding[] {
  const replies = (answer as { replies?: unknown } | null)?.replies;
  if (!Array.isArray(replies)) return [...findings];
  const others = all.filter((conversation) => conversation !== own);
  const mixed: Finding[] = [];
  const replaced = new Set<string>();
  replies.forEach((reply: unknown, index) => {
    if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) return;
    const replyPath = `/replies/${index}`;
    const named = namedId(reply as Record<string, unknown>);
    const owner = named && others.find((conversation) => conversation.messageIds.includes(named.id));
    if (named && owner) {
      const path = pointer(replyPath, named.field);
      replaced.add(path);
      mixed.push(
        error(
          'concurrency',
          path,
          `expected ids from conversation ${own.conversationId} only; "${named.field}" names ${excerpt(named.id)}, a message of conversation ${owner.conversationId}: the agent mixed conversations under load`,
          HINT,
        ),
      );
    }
    const text = JSON.stringify(reply);
    for (const other of others.filter((conversation) => text.includes(conversation.code))) {
      mixed.push(
        error(
          'concurrency',
          replyPath,
          `expected a reply about conversation ${own.conversationId} (order ${own.code}); it mentions order ${other.code}, which only conversation ${other.conversationId} sent: the agent mixed conversations under load`,
          HINT,
        ),
      );
    }
  });
  return [...findings.filter((finding) => !(finding.rule === 'reference' && replaced.has(finding.path))), ...mixed];
}

export async function concurrencyCase(context: QualityContext, channel: string): Promise<CaseReport> {
  const started = now();
  const all = conversations(context, channel);
  // Its own connections, one per conversation, so all of them are truly in flight at once.
  const client = new AgentClient(context.client.url, {
    ...context.client.options,
    connections: Math.max(all.length, context.client.options.connections),
  });
  let perConversation: TurnFields[][];
  try {
    perConversation = await Promise.all(
      all.map(async (conversation) => {
        const turns: TurnFields[] = [];
        for (const [turn, text] of conversation.texts.entries()) {
          const messageId = conversation.messageIds[turn]!;
          const request: AgentRequest = { conversationId: conversation.conversationId, messageId, channel, message: { text } };
          const outcome = await client.post(JSON.stringify(request));
          const verdict = judgeTurn(context, channel, outcome, conversation.messageIds.slice(0, turn + 1), true);
          const findings = mixedFindings(verdict.findings, verdict.answer, conversation, all);
          turns.push({ messageId, request, outcome, answer: verdict.answer, findings });
        }
        return turns;
      }),
    );
  } finally {
    await client.close();
  }
  // Turns in conversation order (conversation 1's, then 2's, ...).
  const turns = perConversation.flat().map((fields, index) => qualityTurn(index, fields));
  return qualityCase(context, { id: ID, channel, conversationId: qualityConversationPattern(context, channel, ID), started, turns });
}
