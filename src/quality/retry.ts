/**
 * quality/retry: a platform retry is answered, the same way. A message is sent, then sent again
 * with the same body and `messageId`, as a platform retries a delivery it saw no answer to. The
 * retry must be answered 200 with a valid answer (rule `retry`); different replies the second time
 * warn. Runs on every channel.
 */
import type { Reply } from '../core/answer.js';
import type { AgentRequest } from '../core/request.js';
import { excerpt, warning } from '../core/findings.js';
import type { CaseReport } from '../core/report.js';
import type { QualityContext } from './quality-context.js';
import { judgeTurn, qualityCase, qualityConversationId, qualityMessageId, qualityTurn, withCaseRule } from './quality-turn.js';
import { now } from '../core/clock.js';

const ID = 'quality/retry';

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

export async function retryCase(context: QualityContext, channel: string): Promise<CaseReport> {
  const started = now();
  const conversationId = qualityConversationId(context, channel, ID);
  const messageId = qualityMessageId(context, channel, ID, 1);
  const request: AgentRequest = { conversationId, messageId, channel, message: { text: 'hi, can i get a flat white to take away?' } };
  const body = JSON.stringify(request);

  const firstOutcome = await context.client.post(body);
  const first = judgeTurn(context, channel, firstOutcome, [messageId], true);
  const retryOutcome = await context.client.post(body);
  // No silent warning on the retry: different replies (none included) are this case's own warning.
  const retry = judgeTurn(context, channel, retryOutcome, [messageId], false);
  const retryFindings = withCaseRule(
    context,
    retry.findings,
    retryOutcome,
    'retry',
    'the same message sent again with the same messageId, as a platform retries,',
    HINT,
  );
  if (first.replies && retry.replies && !sameReplies(first.replies, retry.replies)) {
    retryFindings.push(
      warning(
        'retry',
        '/replies',
        `expected the same replies to a retry of the same messageId; the first answer had ${excerpt(first.replies, 80)}, the retry ${excerpt(retry.replies, 80)}`,
        HINT,
      ),
    );
  }
  const turns = [
    qualityTurn(0, { messageId, request, outcome: firstOutcome, answer: first.answer, findings: first.findings }),
    qualityTurn(1, { messageId, request, outcome: retryOutcome, answer: retry.answer, findings: retryFindings }),
  ];
  return qualityCase(context, { id: ID, channel, conversationId, started, turns });
}
