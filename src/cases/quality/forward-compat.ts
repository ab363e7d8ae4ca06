/**
 * quality/forward-compat: tomorrow's fields are ignored. One valid request (a typed message with a
 * one-page PDF and a tap: a small file, so a server's body limit is the photo case's and
 * quality/large-attachment's finding, never this one's) with unknown fields at every level: the top, `message`, the attachment and
 * `choice`. It must be answered like any message (status, json, schema, platform, reference); a
 * refusal or no answer is rule `forward-compat`. Runs on every channel.
 */
import type { PersonMessage } from '../../core/request.js';
import { MADE_UP_CHOICE } from '../button-tap.js';
import menu from '../../generated/document.json' with { type: 'json' };
import type { QualityCase } from '../case.js';
import { withCaseRule } from './case-rule.js';
import type { HttpOutcome } from '../../http/client.js';
import { answeringStack } from '../../validate/answering-stack.js';
import { fixSentence } from '../../validate/stack-fixes.js';

/** The unknown fields added, as pointers into the request: named in the refusal's message. */
export const UNKNOWN_FIELDS = [
  '/sentAt',
  '/person',
  '/message/language',
  '/message/entities',
  '/message/attachments/0/sizeBytes',
  '/message/attachments/0/caption',
  '/message/choice/payload',
  '/message/choice/kind',
] as const;

/** Fields at the request's top that the contract does not have (request.schema.json allows them). */
export const FUTURE_FIELDS = { sentAt: '2031-05-04T12:00:00Z', person: { name: 'Sam', locale: 'en-GB' } };

/** A valid message of the contract with unknown fields added at every level. */
export function futureMessage(): PersonMessage {
  const document = { kind: 'document' as const, mime: menu.mime, name: menu.name, data: menu.data };
  const message = {
    text: 'hi, what time are you open today?',
    language: 'en',
    entities: [{ type: 'bold', offset: 0, length: 2 }],
    attachments: [
      {
        ...document,
        sizeBytes: Buffer.byteLength(document.data, 'base64'),
        caption: '',
      },
    ],
    choice: { ...MADE_UP_CHOICE, payload: 'chk-future-payload', kind: 'button' },
  };
  return message;
}

/** The hint of a refusal: the rule, then the fix in the words of the stack that answered (or the usual ones). */
export function refusalHint(outcome: HttpOutcome): string {
  const stack = outcome.kind === 'answer' ? answeringStack(outcome) : undefined;
  return `Ignore request fields you do not know: the contract adds fields over time; read the fields you need. ${fixSentence('unknown-fields', stack)}`;
}

export const forwardCompat: QualityCase<'quality/forward-compat'> = {
  id: 'quality/forward-compat',
  description: 'A valid message with fields the contract does not know yet is answered like any message.',
  scope: 'channel',
  group: 'quality',
  order: 30,
  doc: {
    runs: 'every channel',
    sends: 'a valid message (text, a photo, a tap) with unknown fields at every level',
    finding: 'judged like any message; a refusal or no answer is `forward-compat`',
  },
  rules: [{ id: 'forward-compat' }],
  async run(context) {
    const sent = `a valid message with unknown fields added (${UNKNOWN_FIELDS.join(', ')})`;
    await context.exchange({
      conversation: context.openConversation(),
      message: futureMessage(),
      extraFields: FUTURE_FIELDS,
      expectsReply: true,
      judge: {
        refine: (judged) => withCaseRule(judged, context.settings.timeoutSeconds, 'forward-compat', sent, refusalHint(judged.outcome)),
      },
    });
  },
};
