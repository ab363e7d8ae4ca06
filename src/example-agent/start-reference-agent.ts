import type { Contract } from '../spec/contract.js';
import { bundledContract } from '../spec/load-contract.js';
import { referenceAnswer } from './reference-agent.js';
import { type RunningAgent, serveAgent } from './serve-agent.js';

/** Serves the reference agent, adapting each answer to the channel's platform in the contract. */
export function startReferenceAgent(options: { port?: number; host?: string; contract?: Contract } = {}): Promise<RunningAgent> {
  const contract = options.contract ?? bundledContract();
  return serveAgent(
    (request) =>
      referenceAnswer(request, Object.hasOwn(contract.platforms, request.channel) ? contract.platforms[request.channel] : undefined),
    options,
  );
}
