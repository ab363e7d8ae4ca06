/**
 * quality/auth: strangers are kept out. With a token set, one request goes with no authorization
 * header and one with a made-up token: a 2xx answer is an error, 401 or 403 passes, anything else
 * warns. With no token set, a warning: nothing shows the agent asks for one. Runs once per run.
 */
import type { AgentRequest } from '../core/request.js';
import { type Finding, error, warning } from '../core/findings.js';
import type { HttpOutcome } from '../http/client.js';
import type { CaseReport, TurnReport } from '../core/report.js';
import type { QualityContext } from './quality-context.js';
import { qualityCase, qualityConversationId, qualityMessageId, qualityTurn, reportedAnswer, whatCame } from './quality-turn.js';
import { now } from '../core/clock.js';

const ID = 'quality/auth';
type Attempt = NonNullable<TurnReport['authorization']>;

const SENT: Record<Attempt, string> = {
  none: 'a request with no authorization header',
  'wrong-token': 'a request with a wrong bearer token',
};

const HINT =
  'Check the authorization header before anything else: answer 401 unless it is exactly "Bearer <your token>" (compare in constant time).';

/** A made-up token, never the real one. Like the real one, it is never printed or reported. */
function wrongToken(token: string): string {
  for (;;) {
    const made = `chk-wrong-${Array.from({ length: 4 }, () =>
      Math.floor(Math.random() * 0x100000000)
        .toString(16)
        .padStart(8, '0'),
    ).join('')}`;
    if (made !== token) return made;
  }
}

function attemptFindings(outcome: HttpOutcome, attempt: Attempt): Finding[] {
  const expected = `expected 401 or 403 for ${SENT[attempt]}`;
  if (outcome.kind === 'answer' && (outcome.status === 401 || outcome.status === 403)) return [];
  if (outcome.kind === 'answer' && outcome.status >= 200 && outcome.status < 300) {
    return [error('auth', '', `${expected}; got ${whatCame(outcome)}: your endpoint answers without the token`, HINT)];
  }
  return [
    warning(
      'auth',
      '',
      `${expected}; got ${whatCame(outcome)}`,
      'Answer 401 when the token is missing or wrong, so the platform and your logs tell an auth failure from a fault.',
    ),
  ];
}

/** No token set: warn that nothing shows the agent keeps strangers out, with evidence when the run has it. */
function noTokenWarning(context: QualityContext): Finding {
  const answeredWithout = context.fixedCases.some((caseReport) => caseReport.turns.some((turn) => turn.status === 200));
  const what = answeredWithout
    ? `and the agent answered this run's messages without one: anyone with the URL can talk to the agent`
    : `so requests went without one and this was not checked: if the agent answers without one, anyone with the URL can talk to it`;
  return warning(
    'auth',
    '',
    `expected the agent to require a bearer token; no token is set (${context.plan.tokenEnv}), ${what}`,
    `Have the agent answer 401 unless it gets "authorization: Bearer <token>", and give the check the token in ${context.plan.tokenEnv} (or the variable --token-env names).`,
  );
}

export async function authCase(context: QualityContext, channel: string): Promise<CaseReport> {
  const started = now();
  const conversationId = qualityConversationId(context, channel, ID);
  const token = context.plan.token;
  if (!token) return qualityCase(context, { id: ID, channel, conversationId, started, turns: [], caseFindings: [noTokenWarning(context)] });
  const turns: TurnReport[] = [];
  for (const [index, attempt] of (['none', 'wrong-token'] as const).entries()) {
    const messageId = qualityMessageId(context, channel, ID, index + 1);
    const request: AgentRequest = { conversationId, messageId, channel, message: { text: 'hi, what time are you open today?' } };
    const outcome = await context.client.send({
      method: 'POST',
      body: JSON.stringify(request),
      authorization: attempt === 'none' ? 'none' : { wrongToken: wrongToken(token) },
    });
    turns.push(
      qualityTurn(index, {
        messageId,
        request,
        outcome,
        answer: reportedAnswer(outcome),
        findings: attemptFindings(outcome, attempt),
        authorization: attempt,
      }),
    );
  }
  return qualityCase(context, { id: ID, channel, conversationId, started, turns });
}
