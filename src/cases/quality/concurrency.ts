/**
 * quality/concurrency: conversations stay apart under load. N conversations at once
 * (--quality-conversations, default 8), each about its own order code, each two messages in turn.
 * Every answer is judged like any message; a reply naming another conversation's message id, or
 * mentioning another conversation's order code, is an error (rule `concurrency`) naming both
 * conversations. Runs once per run, alone, so its load is its own.
 */
import { type Finding, error, excerpt, pointer } from '../../core/findings.js';
import type { Conversation, QualityCase } from '../case.js';

const HINT =
  'Keep every piece of conversation state (history, pending work, the message being answered) keyed by conversationId, never in a global or module-level variable shared by requests in flight.';

interface Topic {
  conversation: Conversation;
  /** The order code only this conversation mentions. */
  code: string;
  messageIds: string[];
  texts: string[];
}

function topics(conversations: readonly Conversation[], runId: string): Topic[] {
  const width = String(conversations.length).length;
  return conversations.map((conversation, index) => {
    const code = `${runId.toUpperCase()}-${String(index + 1).padStart(width, '0')}`;
    return {
      conversation,
      code,
      messageIds: [1, 2].map((turn) => conversation.messageId(turn)),
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Findings for replies that carry another conversation's message id or order code; the `reference`
 * finding an id from elsewhere raised gives way to the `concurrency` one, which says whose it is.
 */
function mixedFindings(findings: readonly Finding[], answer: unknown, own: Topic, all: readonly Topic[]): Finding[] {
  const replies = isRecord(answer) ? answer.replies : undefined;
  if (!Array.isArray(replies)) return [...findings];
  const others = all.filter((topic) => topic !== own);
  const mixed: Finding[] = [];
  const replaced = new Set<string>();
  replies.forEach((reply: unknown, index) => {
    if (!isRecord(reply)) return;
    const replyPath = `/replies/${index}`;
    const named = namedId(reply);
    const owner = named && others.find((topic) => topic.messageIds.includes(named.id));
    if (named && owner) {
      const path = pointer(replyPath, named.field);
      replaced.add(path);
      mixed.push(
        error(
          'concurrency',
          path,
          `expected ids from conversation ${own.conversation.id} only; "${named.field}" names ${excerpt(named.id)}, a message of conversation ${owner.conversation.id}: the agent mixed conversations under load`,
          HINT,
        ),
      );
    }
    const text = JSON.stringify(reply);
    for (const other of others.filter((topic) => text.includes(topic.code))) {
      mixed.push(
        error(
          'concurrency',
          replyPath,
          `expected a reply about conversation ${own.conversation.id} (order ${own.code}); it mentions order ${other.code}, which only conversation ${other.conversation.id} sent: the agent mixed conversations under load`,
          HINT,
        ),
      );
    }
  });
  return [...findings.filter((finding) => !(finding.rule === 'reference' && replaced.has(finding.path))), ...mixed];
}

export const concurrency = {
  id: 'quality/concurrency',
  description: 'Conversations in flight at once stay apart: no reply names or mentions another conversation.',
  scope: 'run',
  group: 'quality',
  order: 40, // alone, as every quality case: its load is its own
  doc: {
    runs: 'once, first channel',
    sends:
      '`--quality-conversations N` (default 8) conversations at once, each on its own connection, each two messages about its own order code',
    finding: "a reply naming another conversation's message id or order code is an error (`concurrency`) naming both",
  },
  rules: [{ id: 'concurrency' }],
  settings: {
    conversations: {
      description: 'Conversations at once',
      default: 8,
      integer: true,
      option: {
        field: 'qualityConversations' as const,
        flag: 'quality-conversations',
        placeholder: 'N',
        description: 'Conversations at once in quality/concurrency',
        default: 8,
        integer: true,
      },
    },
  },
  conversationsAtOnce: (setting) => Number(setting('conversations')),
  async run(context) {
    const all = topics(context.openConversations(context.setting('conversations')), context.runId);
    await Promise.all(
      all.map(async (topic) => {
        for (const text of topic.texts) {
          await context.exchange({
            conversation: topic.conversation,
            message: { text },
            expectsReply: true,
            judge: { refine: (judged) => mixedFindings(judged.findings, judged.answer, topic, all) },
          });
        }
      }),
    );
  },
} satisfies QualityCase<'quality/concurrency'>;
