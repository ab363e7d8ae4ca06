/**
 * What checkTurn needs to judge one turn of a planned run, a case's or the chat page's: the plan's
 * contract, limits and options on the turn's channel, and what the turn itself was.
 */
import type { InProcessTarget, TurnContext } from '../validate/judge-exchange.js';
import { type CheckPlan, sentCredentials } from './plan.js';
import { addedHeaders } from './request-headers.js';

/** What one turn was: the person's message ids so far (its own included), whether it deserves an answer, its body's size, where it went. */
export interface TurnFacts {
  personMessageIds: readonly string[];
  expectsReply: boolean;
  requestBytes: number;
  inProcess: InProcessTarget | undefined;
}

export function turnContext(plan: CheckPlan, channel: string, turn: TurnFacts): TurnContext {
  return {
    channel,
    contract: plan.contract,
    ...(Object.hasOwn(plan.limits, channel) ? { limits: plan.limits[channel]! } : {}),
    personMessageIds: turn.personMessageIds,
    expectsReply: turn.expectsReply,
    timeoutSeconds: plan.timeoutSeconds,
    credentials: sentCredentials(plan),
    requestBytes: turn.requestBytes,
    addedHeaders: addedHeaders(plan.headers),
    ...(turn.inProcess ? { inProcess: turn.inProcess } : {}),
  };
}
