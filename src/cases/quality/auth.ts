/**
 * quality/auth: strangers are kept out. With a token set, one request goes with no authorization
 * header and one with a made-up token: a 2xx answer is an error, 401 or 403 passes, anything else
 * warns. With no token set, a warning: nothing shows the agent asks for one. Runs once per run.
 */
import { type Finding, error, warning } from '../../core/findings.js';
import type { CaseReport } from '../../core/report.js';
import type { HttpOutcome } from '../../http/client.js';
import { whatCame } from '../../validate/outcome-summary.js';
import type { QualityCase, RunSettings } from '../case.js';

type Attempt = 'none' | 'wrong-token';

const SENT: Record<Attempt, string> = {
  none: 'a request with no authorization header',
  'wrong-token': 'a request with a wrong bearer token',
};

const HINT =
  'Check the authorization header before anything else: answer 401 unless it is exactly "Bearer <your token>" (compare in constant time).';

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
function noTokenWarning(settings: RunSettings, finished: readonly CaseReport[]): Finding {
  const answeredWithout = finished.some((caseReport) => caseReport.plays.some((play) => play.turns.some((turn) => turn.status === 200)));
  const what = answeredWithout
    ? `and the agent answered this run's messages without one: anyone with the URL can talk to the agent`
    : `so requests went without one and this was not checked: if the agent answers without one, anyone with the URL can talk to it`;
  return warning(
    'auth',
    '',
    `expected the agent to require a bearer token; no token is set (${settings.tokenEnv}), ${what}`,
    `Have the agent answer 401 unless it gets "authorization: Bearer <token>", and give the check the token in ${settings.tokenEnv} (or the variable --token-env names).`,
  );
}

export const auth: QualityCase<'quality/auth'> = {
  id: 'quality/auth',
  description: 'A request without the token, or with a wrong one, is refused with 401 or 403.',
  scope: 'run',
  group: 'quality',
  order: 10, // first, with quality/malformed: the requests refused before any other
  doc: {
    runs: 'once, first channel',
    sends: 'with a token set: a message with no `authorization`, then one with a made-up token (never printed)',
    finding:
      '`2xx` is an error (`auth`); `401`/`403` pass; any other answer warns. With no token set: a warning that anyone with the URL can talk to the agent',
  },
  rules: [{ id: 'auth' }],
  async run(context) {
    const conversation = context.openConversation();
    if (!context.settings.tokenSet) return { findings: [noTokenWarning(context.settings, context.finishedCases())] };
    for (const attempt of ['none', 'wrong-token'] as const) {
      await context.exchange({
        conversation,
        message: { text: 'hi, what time are you open today?' },
        expectsReply: true,
        authorization: attempt,
        judge: { outcome: (outcome) => attemptFindings(outcome, attempt) },
      });
    }
  },
};
