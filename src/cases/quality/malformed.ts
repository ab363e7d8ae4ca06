/**
 * quality/malformed: bad requests are turned away, not crashed on. Three gross bodies, each made
 * from a valid request (one cut off halfway, not JSON; one with no `message`; one of the wrong
 * types), then, generated from the contract's request schema at run time, one request for each of
 * its constraints that breaks only that one (invalid-requests.ts). 400 or 422 passes; a 2xx is a
 * warning naming what the agent let through; a 5xx, a dropped connection or no answer in time is an
 * error; any other status is a warning. Runs once per run, with the token.
 */
import { commandWords } from '../../core/command-words.js';
import { type Finding, type FindingCause, error, warning } from '../../core/findings.js';
import type { AgentRequest, PersonMessage } from '../../core/request.js';
import { requestValidator } from '../../contract/compile-contract.js';
import type { HttpOutcome } from '../../http/client.js';
import { whatCame } from '../../validate/outcome-summary.js';
import { type AnsweringStack, answeringStack } from '../../validate/answering-stack.js';
import { fixSentence } from '../../validate/stack-fixes.js';
import type { QualityCase } from '../case.js';
import { fullRequest, invalidRequests } from './invalid-requests.js';

/** One request sent to be refused: what it is, the body sent, and what a 2xx to it means. */
export interface Refusable {
  /** What the body is, as a noun phrase, for messages. */
  what: string;
  /** What the agent did when it answered 2xx. */
  accepted: string;
  /** The body in a few words, as an example among many: `a conversationId that is an integer`. */
  instance: string;
  /** The body sent, made from the valid request of the turn. */
  body(request: AgentRequest): string;
}

/** The three gross bodies, the one not JSON first. */
export const GROSS: readonly Refusable[] = [
  {
    what: 'a body that is not JSON (a request cut off halfway)',
    accepted: 'a body that is not JSON, as if it were a valid message',
    instance: 'a body that is not JSON',
    body: (request) => {
      const json = JSON.stringify(request);
      return json.slice(0, Math.floor(json.length / 2));
    },
  },
  {
    what: 'a JSON body with no "message"',
    accepted: 'a JSON body with no "message", as if it were a valid message',
    instance: 'a JSON body with no "message"',
    body: ({ message: _, ...rest }) => JSON.stringify(rest),
  },
  {
    what: 'a JSON body of the wrong types ("messageId" and "message.text" numbers)',
    accepted: 'a JSON body of the wrong types, as if it were a valid message',
    instance: 'a JSON body of the wrong types',
    body: (request) => JSON.stringify({ ...request, messageId: 12345, message: { ...request.message, text: 42 } }),
  },
];

/** A 1×1 PNG: the attachment of the request the invalid ones are made from. */
const DOT_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The message every invalid request is made from: every optional part there, so that each constraint has a value to break. */
export const FULL_MESSAGE: PersonMessage = {
  text: 'hi, what time are you open today?',
  attachments: [{ kind: 'image', mime: 'image/png', name: 'dot.png', data: DOT_PNG }],
  choice: { id: 'chk_option_1', title: 'Option 1' },
  replyTo: { messageId: 'chk_quoted', from: 'person', text: 'hi' },
};

/** The hint of a body the agent should have refused: the request schema, named by the command that prints it (core/command-words.ts), and the fix in the words of the stack that answered. */
function validateHint(stack: AnsweringStack | undefined): string {
  return (
    `Validate each request against the contract's request schema (${commandWords('spec request')} prints it) before acting on it, and answer 400 (or 422) naming what is wrong, so broken senders are seen; ignore fields you do not know. ` +
    fixSentence('validate', stack)
  );
}

/** The hint of a body the agent failed on (5xx) or dropped the connection over. */
function crashHint(stack: AnsweringStack | undefined): string {
  return (
    'Parse and validate the body before using it, and answer 400 with a short reason when it is not JSON or not shaped like the contract\u2019s request, instead of failing (5xx) or dropping the connection. ' +
    fixSentence('not-json', stack)
  );
}

/**
 * 400 or 422 passes; 2xx warns; 5xx, a dropped connection or no answer is an error; anything else
 * warns. Each finding is one instance of its cause (accepted, failed on, another status), so that
 * one fault the case finds on many bodies is one problem: `the agent accepted 40 of 45 invalid
 * requests as valid, for example: …`. `total` is how many bodies the case sends.
 */
export function refusalFindings(outcome: HttpOutcome, sent: Refusable, total: number): Finding[] {
  if (outcome.kind === 'answer' && (outcome.status === 400 || outcome.status === 422)) return [];
  const stack = outcome.kind === 'answer' ? answeringStack(outcome) : undefined;
  const expected = `expected 400 or 422 for ${sent.what}`;
  // A summary quotes what came (an excerpt); the record bounds a cause's texts at 1,000 characters.
  const of = (id: string, summary: string): { cause: FindingCause } => ({
    cause: { id, summary: Array.from(summary).slice(0, 1000).join(''), instance: Array.from(sent.instance).slice(0, 1000).join('') },
  });
  if (outcome.kind === 'answer' && outcome.status >= 200 && outcome.status < 300) {
    return [
      {
        ...warning(
          'malformed',
          '',
          `expected 400 or 422; got status ${outcome.status}: the agent accepted ${sent.accepted}`,
          validateHint(stack),
        ),
        ...of(
          'accepted-invalid',
          `the agent answered status ${outcome.status} to {count} of ${total} invalid requests, accepting them as valid`,
        ),
      },
    ];
  }
  if (outcome.kind !== 'answer' || outcome.status >= 500) {
    return [
      {
        ...error('malformed', '', `${expected}; got ${whatCame(outcome)}`, crashHint(stack)),
        ...of(
          'failed-on-invalid',
          `expected 400 or 422 for invalid requests; the agent failed on {count} of ${total}, the first time with ${whatCame(outcome)}`,
        ),
      },
    ];
  }
  return [
    {
      ...warning('malformed', '', `${expected}; got ${whatCame(outcome)}`, validateHint(stack)),
      ...of(
        'other-status',
        `expected 400 or 422 for invalid requests; got another status for {count} of ${total}, the first ${whatCame(outcome)}`,
      ),
    },
  ];
}

export const malformed: QualityCase<'quality/malformed'> = {
  id: 'quality/malformed',
  description:
    'A request that is not JSON, or breaks one constraint of the contract\u2019s request schema, is answered 400 or 422, never 2xx or 5xx.',
  scope: 'run',
  group: 'quality',
  order: 20, // first, after quality/auth
  doc: {
    runs: 'once, first channel',
    sends:
      'three bodies made from a valid request (cut off halfway, not JSON; no `message`; `messageId` and `message.text` as numbers), then, generated from [`spec/request.schema.json`](../spec/request.schema.json) at run time, one request per constraint (each required field, type, length, pattern, enum) breaking only that one: 42 for contract 1.0',
    finding:
      '`400` or `422` passes; a `2xx` warns naming what was let through ("the agent accepted a messageId of 201 characters; the contract allows 200"); a `5xx`, a dropped connection or no answer is an error; another status warns (`malformed`)',
  },
  rules: [{ id: 'malformed' }],
  async run(context) {
    const conversation = context.openConversation();
    // The invalid requests are made from the request the first of them sends, after the gross
    // bodies, as the context will build it; all are made first, so that each finding can say of how many.
    const { contract } = context;
    const validate = requestValidator(contract);
    const template: AgentRequest = {
      conversationId: conversation.id,
      messageId: conversation.messageId(conversation.personMessageIds.length + GROSS.length + 1),
      channel: context.channel,
      message: FULL_MESSAGE,
    };
    const valid = validate(template);
    const base = valid ? fullRequest(contract.requestSchema, template, validate) : undefined;
    const invalid: Refusable[] = base
      ? invalidRequests(contract.requestSchema, base, validate).map((request) => ({
          what: `${request.what} (${request.allowed})`,
          accepted: `${request.what}; ${request.allowed}`,
          instance: request.what,
          body: (sent) => JSON.stringify(request.apply(sent)),
        }))
      : [];
    const total = GROSS.length + invalid.length;
    const send = async (refusable: Refusable, message: PersonMessage): Promise<void> => {
      await context.exchange({
        conversation,
        message,
        expectsReply: true,
        body: refusable.body,
        judge: { outcome: (outcome) => refusalFindings(outcome, refusable, total) },
      });
    };
    for (const gross of GROSS) await send(gross, { text: FULL_MESSAGE.text });
    if (!base) return { findings: [ownRequestRefused(contract.source)] };
    const message = (base as AgentRequest).message;
    for (const refusable of invalid) await send(refusable, message);
  },
};

/** The contract's request schema refuses the checker's own request: its constraints cannot be tried one by one. */
function ownRequestRefused(source: string): Finding {
  return warning(
    'malformed',
    '',
    `expected the request schema of the contract (${source}) to accept the checker's own request; it does not, so its constraints were not tried one by one`,
    'Check the contract: its request schema should accept a message with text, an attachment, a choice and a quote.',
  );
}
