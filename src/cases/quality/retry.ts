/**
 * quality/retry: a platform retry is answered, the same way. A message is sent, then sent again
 * with the same body and `messageId`, as a platform retries a delivery it saw no answer to. The
 * retry must be answered 200 with a valid answer (rule `retry`); different replies the second time
 * warn. Runs on every channel.
 */
import type { Reply } from '../../core/answer.js';
import { excerpt, warning } from '../../core/findings.js';
import type { Case } from '../case.js';
import { withCaseRule } from './case-rule.js';

const HINT =
  'Treat a messageId you have seen in this conversation as a retry: answer 200 with the replies you gave the first time (keep answers by conversationId and messageId for a while), and do not act on it twice.';

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

export const retry: Case<'quality/retry'> = {
  id: 'quality/retry',
  description: 'A message sent again with the same messageId, as a platform retries, is answered 200 with the same replies.',
  scope: 'channel',
  group: 'quality',
  rules: [{ id: 'retry' }],
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
  },
};
