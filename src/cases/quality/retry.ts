/**
 * quality/retry: a platform retry is answered, the same way; a gateway's retry while the first is
 * in flight is not answered twice. A message is sent, then sent again with the same body and
 * `messageId`, as a platform retries a delivery it saw no answer to: the retry must be answered 200
 * with a valid answer (rule `retry`); different replies the second time warn. Then another message
 * is sent twice at once, the second copy while the first is still unanswered, as a gateway retries
 * a slow agent: two different non-empty sets of replies to that one message warn, since the person
 * would see both (the agent acted on it twice). The same replies twice do not: an agent that has
 * answered the first copy cannot tell this retry from a platform's, which asks for the same replies.
 * Runs on every channel.
 */
import type { Reply } from '../../core/answer.js';
import { excerpt, warning } from '../../core/findings.js';
import type { QualityCase, CaseContext, Conversation, ExchangedTurn, JudgedExchange } from '../case.js';
import { withCaseRule } from './case-rule.js';

const HINT =
  'Treat a messageId you have seen in this conversation as a retry: answer 200 with the replies you gave the first time (keep answers by conversationId and messageId for a while), and do not act on it twice.';

const IN_FLIGHT_HINT =
  'Key work by conversationId and messageId, and mark a message as in progress when it arrives, before the model call: a copy that arrives while the first is still in progress gets [] (the first answer is on its way), and one that arrives after it was answered gets the first answer again. Never act on one message twice.';

/** A JSON text of a value with object keys sorted, so equal replies compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The replies as a set (order aside, repeats counted). */
function sameReplies(first: readonly Reply[], second: readonly Reply[]): boolean {
  const a = first.map(canonical).sort();
  const b = second.map(canonical).sort();
  return a.length === b.length && a.every((reply, index) => reply === b[index]);
}

/** The same message twice at once: the second copy goes while the first is unanswered. Warns when both got different non-empty replies. */
async function inFlightDuplicate(context: CaseContext, conversation: Conversation): Promise<void> {
  const message = { text: 'and one more flat white for my friend, please' };
  const messageId = conversation.messageId(conversation.personMessageIds.length + 1);
  const judge = (judged: JudgedExchange) =>
    withCaseRule(
      judged,
      context.settings.timeoutSeconds,
      'retry',
      'a second copy of a message (the same messageId), sent while the first was unanswered as a gateway retries a slow agent,',
      IN_FLIGHT_HINT,
    );
  // Both sends start in this one tick: neither answer can have come back before the second copy goes.
  // Either copy may reach the agent first, so either may be the one answered [] (no silent warning on it).
  const copies: Promise<ExchangedTurn>[] = [
    context.exchange({ conversation, message, messageId, expectsReply: false, judge: { refine: judge } }),
    context.exchange({ conversation, message, messageId, expectsReply: false, judge: { refine: judge } }),
  ];
  const [first, second] = await Promise.all(copies);
  if (!first?.replies || !second?.replies) return; // an unusable answer has its own finding
  const replied = (turn: ExchangedTurn) => turn.replies!.length > 0;
  context.expect(replied(first) || replied(second), {
    rule: 'silent',
    severity: 'warning',
    path: '/replies',
    message: 'expected a reply to the message sent twice at once (a typed message); both copies were answered with no reply at all',
    hint: 'Answer the first copy of a message as any message; only a copy of one already in progress gets [].',
  });
  if (!replied(first) || !replied(second) || sameReplies(first.replies, second.replies)) return;
  context.expect(false, {
    rule: 'retry',
    severity: 'warning',
    path: '/replies',
    message: `expected one set of replies to a message delivered twice at once (the second copy, with the same messageId, sent while the first was unanswered, as a gateway retries a slow agent); both copies were answered, differently: the first with ${excerpt(first.replies, 80)}, the second with ${excerpt(second.replies, 80)}: the person would see both, and the agent acted on the message twice`,
    hint: IN_FLIGHT_HINT,
  });
}

export const retry: QualityCase<'quality/retry'> = {
  id: 'quality/retry',
  description:
    'A message sent again with the same messageId, as a platform retries, is answered 200 with the same replies; one sent twice at once, as a gateway retries a slow agent, is not answered twice.',
  scope: 'channel',
  group: 'quality',
  order: 50,
  doc: {
    runs: 'every channel',
    sends:
      'a message, then the same body again (same `messageId`), as a platform retries; then another message twice at once, as a gateway retries a slow agent',
    finding:
      'the retry must get `200` and a valid answer (`retry`); different replies warn, and so do two different non-empty answers to the message sent twice at once',
  },
  rules: [{ id: 'retry' }],
  // The two copies of one message in flight at once.
  conversationsAtOnce: () => 2,
  async run(context) {
    const conversation = context.openConversation();
    const message = { text: 'hi, can i get a flat white to take away?' };
    const first = await context.exchange({ conversation, message, expectsReply: true });
    // No silent warning on the retry: different replies (none included) are this case's own warning.
    await context.exchange({
      conversation,
      message,
      messageId: first.messageId,
      expectsReply: false,
      judge: {
        refine: (judged) => {
          const findings = withCaseRule(
            judged,
            context.settings.timeoutSeconds,
            'retry',
            'the same message sent again with the same messageId, as a platform retries,',
            HINT,
          );
          if (first.replies && judged.replies && !sameReplies(first.replies, judged.replies)) {
            findings.push(
              warning(
                'retry',
                '/replies',
                `expected the same replies to a retry of the same messageId; the first answer had ${excerpt(first.replies, 80)}, the retry ${excerpt(judged.replies, 80)}`,
                HINT,
              ),
            );
          }
          return findings;
        },
      },
    });
    await inFlightDuplicate(context, conversation);
  },
};
