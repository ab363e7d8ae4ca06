import type { Contract } from '../contract/contract.js';
import { bundledContract } from '../contract/load-contract.js';
import { referenceAnswer } from './reference-agent.js';
import { RawResponse, type RunningAgent, serveAgent } from './serve-agent.js';

const isText = (value: unknown): value is string => typeof value === 'string';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with a request body, as a well-behaved agent checks before it trusts one; undefined when nothing. */
export function requestProblem(request: unknown): string | undefined {
  if (!isObject(request)) return 'the body is not a JSON object';
  for (const field of ['conversationId', 'messageId', 'channel'] as const)
    if (!isText(request[field])) return `"${field}" must be a string`;
  const message = request.message;
  if (!isObject(message)) return '"message" must be an object';
  if (!isText(message.text)) return '"message.text" must be a string';
  const { attachments, choice, replyTo } = message;
  if (
    attachments !== undefined &&
    !(Array.isArray(attachments) && attachments.every((item) => isObject(item) && isText(item.kind) && isText(item.data)))
  ) {
    return '"message.attachments" must be a list of { kind, mime, name, data }';
  }
  if (choice !== undefined && !(isObject(choice) && isText(choice.id) && isText(choice.title)))
    return '"message.choice" must be { id, title }';
  if (replyTo !== undefined && !(isObject(replyTo) && isText(replyTo.messageId)))
    return '"message.replyTo" must be { messageId, from, text }';
  return undefined;
}

/** Serves the reference agent, adapting each answer to the channel's platform in the contract. */
export function startReferenceAgent(options: { port?: number; host?: string; contract?: Contract } = {}): Promise<RunningAgent> {
  const contract = options.contract ?? bundledContract();
  return serveAgent((request) => {
    // Bad input is the sender's fault: a 400 that says why, never a 500 with an internal error.
    const problem = requestProblem(request);
    if (problem) return new RawResponse(400, JSON.stringify({ error: problem }), { 'content-type': 'application/json' });
    return referenceAnswer(request, Object.hasOwn(contract.platforms, request.channel) ? contract.platforms[request.channel] : undefined);
  }, options);
}
