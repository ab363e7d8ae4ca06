import { excerpt } from '../core/findings.js';
import type { HttpOutcome } from '../http/client.js';
import { describeAnswerBody } from './error-body.js';
import { MAX_REPORTED_DEPTH, nestingDepth, parseJsonBody } from './judge-exchange.js';

/** What came, for messages: `status 500: {"error":…}`, or `no answer (connection refused)`. */
export function whatCame(outcome: HttpOutcome): string {
  if (outcome.kind !== 'answer') return `no answer (${outcome.message})`;
  const location = outcome.headers.location ? ` (location: ${excerpt(outcome.headers.location)})` : '';
  const body = outcome.body.length ? `: ${describeAnswerBody(outcome)}` : '';
  return `status ${outcome.status}${location}${body}`;
}

/**
 * The answer body for the report of an exchange not judged as replies (a request meant to be
 * refused): its parsed JSON whatever the status, or null.
 */
export function reportedAnswer(outcome: HttpOutcome): unknown {
  if (outcome.kind !== 'answer' || outcome.body.length === 0) return null;
  const parsed = parseJsonBody(outcome.body);
  if (!parsed.ok || nestingDepth(parsed.value, MAX_REPORTED_DEPTH) > MAX_REPORTED_DEPTH) return null;
  return parsed.value;
}
