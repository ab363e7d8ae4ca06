/**
 * quality/malformed: bad requests are turned away, not crashed on. Three bodies, each made from a
 * valid request: one cut off halfway (not JSON), one with no `message`, one of the wrong types. A
 * 4xx answer passes; a 5xx, a 2xx or no answer warns. Runs once per run, with the token.
 */
import { type Finding, warning } from '../../core/findings.js';
import type { AgentRequest } from '../../core/request.js';
import type { HttpOutcome } from '../../http/client.js';
import { whatCame } from '../../validate/outcome-summary.js';
import type { Scenario } from '../scenario.js';

interface Damage {
  /** What the body is, for messages. */
  what: string;
  /** The body sent, made from a valid request. */
  body(request: AgentRequest): string;
}

const DAMAGES: readonly Damage[] = [
  {
    what: 'a body that is not JSON (a request cut off halfway)',
    body: (request) => {
      const json = JSON.stringify(request);
      return json.slice(0, Math.floor(json.length / 2));
    },
  },
  {
    what: 'a JSON body with no "message"',
    body: ({ message: _, ...rest }) => JSON.stringify(rest),
  },
  {
    what: 'a JSON body of the wrong types ("messageId" and "message.text" numbers)',
    body: (request) => JSON.stringify({ ...request, messageId: 12345, message: { ...request.message, text: 42 } }),
  },
];

function damageFindings(outcome: HttpOutcome, damage: Damage): Finding[] {
  if (outcome.kind === 'answer' && outcome.status >= 400 && outcome.status < 500) return [];
  const expected = `expected a 4xx status (such as 400) for ${damage.what}; got ${whatCame(outcome)}`;
  if (outcome.kind === 'answer' && outcome.status >= 200 && outcome.status < 300) {
    return [
      warning(
        'malformed',
        '',
        `${expected}, as if it were a valid message`,
        'Validate each request before acting on it (JSON, then the shape of spec/request.schema.json) and answer 400 when it fails, so broken senders are seen.',
      ),
    ];
  }
  return [
    warning(
      'malformed',
      '',
      expected,
      'Parse and validate the body before using it, and answer 400 with a short reason when it is not JSON or not shaped like the contract\u2019s request, instead of failing (5xx) or dropping the connection.',
    ),
  ];
}

export const malformed: Scenario<'quality/malformed'> = {
  id: 'quality/malformed',
  description: 'A request that is not JSON, or not shaped like the contract, is answered 4xx.',
  scope: 'run',
  group: 'quality',
  async run(context) {
    const conversation = context.openConversation();
    for (const damage of DAMAGES) {
      await context.exchange({
        conversation,
        message: { text: 'hi, what time are you open today?' },
        expectsReply: true,
        body: damage.body,
        judge: { outcome: (outcome) => damageFindings(outcome, damage) },
      });
    }
  },
};
