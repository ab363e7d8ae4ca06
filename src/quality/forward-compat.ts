/**
 * quality/forward-compat: tomorrow's fields are ignored. One valid request (a typed message with a
 * photo and a tap) with unknown fields at every level: the top, `message`, the attachment and
 * `choice`. It must be answered like any message (status, json, schema, platform, reference); a
 * refusal or no answer is rule `forward-compat`. Runs on every channel.
 */
import { MADE_UP_CHOICE } from '../cases/fixed-cases.js';
import type { AgentRequest } from '../core/request.js';
import photo from '../generated/photo.json' with { type: 'json' };
import type { CaseReport } from '../core/report.js';
import type { QualityContext } from './quality-context.js';
import { judgeTurn, qualityCase, qualityConversationId, qualityMessageId, qualityTurn, withCaseRule } from './quality-turn.js';
import { now } from '../core/clock.js';

const ID = 'quality/forward-compat';

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

/** A valid request of the contract with unknown fields added at every level (request.schema.json allows them). */
export function futureRequest(conversationId: string, messageId: string, channel: string): AgentRequest {
  const request = {
    conversationId,
    messageId,
    channel,
    sentAt: '2031-05-04T12:00:00Z',
    person: { name: 'Sam', locale: 'en-GB' },
    message: {
      text: 'hi, what time are you open today?',
      language: 'en',
      entities: [{ type: 'bold', offset: 0, length: 2 }],
      attachments: [
        {
          kind: 'image' as const,
          mime: photo.mime,
          name: photo.name,
          data: photo.data,
          sizeBytes: Buffer.byteLength(photo.data, 'base64'),
          caption: '',
        },
      ],
      choice: { ...MADE_UP_CHOICE, payload: 'chk-future-payload', kind: 'button' },
    },
  };
  return request;
}

export async function forwardCompatCase(context: QualityContext, channel: string): Promise<CaseReport> {
  const started = now();
  const conversationId = qualityConversationId(context, channel, ID);
  const messageId = qualityMessageId(context, channel, ID, 1);
  const request = futureRequest(conversationId, messageId, channel);
  const outcome = await context.client.post(JSON.stringify(request));
  const verdict = judgeTurn(context, channel, outcome, [messageId], true);
  const findings = withCaseRule(
    context,
    verdict.findings,
    outcome,
    'forward-compat',
    `a valid message with unknown fields added (${UNKNOWN_FIELDS.join(', ')})`,
    'Ignore request fields you do not know: the contract adds fields over time. Do not reject unknown properties (additionalProperties: false, extra="forbid", strict decoders); read the fields you need.',
  );
  const turns = [qualityTurn(0, { messageId, request, outcome, answer: verdict.answer, findings })];
  return qualityCase(context, { id: ID, channel, conversationId, started, turns });
}
