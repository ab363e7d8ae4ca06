import type { IncomingMessage } from 'node:http';
import { requestProblems, requestValidator } from '../contract/compile-contract.js';
import type { Contract } from '../contract/contract.js';
import { bundledContract } from '../contract/load-contract.js';
import type { AgentRequest } from '../core/request.js';
import { referenceAnswer } from './reference-agent.js';
import { RawResponse, type RunningAgent, serveAgent } from './serve-agent.js';

const JSON_TYPE = { 'content-type': 'application/json' };
const UNAUTHORIZED = new RawResponse(401, '{"error":"a bearer token is required"}', { ...JSON_TYPE, 'www-authenticate': 'Bearer' });

/**
 * What is wrong with a request body, as a well-behaved agent checks before it trusts one: every
 * way it breaks the contract's request schema (spec/request.schema.json), or none.
 */
export function requestProblemsOf(body: unknown, contract: Contract = bundledContract()): string[] {
  const validate = requestValidator(contract);
  return validate(body) ? [] : requestProblems(validate.errors);
}

/** Whether the request carries `authorization: Bearer <token>`, compared in constant time. */
export function hasBearer(raw: IncomingMessage, token: string): boolean {
  const given = Buffer.from(raw.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && process.getBuiltinModule('node:crypto').timingSafeEqual(given, expected);
}

export interface ReferenceAgentOptions {
  port?: number;
  host?: string;
  contract?: Contract;
  /** The bearer token the agent requires: without it, every POST is answered 401. */
  token?: string;
}

/**
 * Serves the reference agent: 401 without the token (when it has one), 400 with the reasons to a
 * request that breaks the contract's request schema, and otherwise the answer, adapted to the
 * channel's platform in the contract.
 */
export function startReferenceAgent(options: ReferenceAgentOptions = {}): Promise<RunningAgent> {
  const contract = options.contract ?? bundledContract();
  const { token } = options;
  requestValidator(contract); // compiled before the first request, so that one is answered as fast as the rest
  return serveAgent(
    (request: AgentRequest) => {
      // Bad input is the sender's fault: a 400 that says why, never a 500 with an internal error.
      const problems = requestProblemsOf(request, contract);
      if (problems.length) {
        return new RawResponse(400, JSON.stringify({ error: 'the request does not match spec/request.schema.json', problems }), JSON_TYPE);
      }
      return referenceAnswer(request, Object.hasOwn(contract.platforms, request.channel) ? contract.platforms[request.channel] : undefined);
    },
    {
      ...(options.port !== undefined ? { port: options.port } : {}),
      ...(options.host !== undefined ? { host: options.host } : {}),
      // Every body that parses goes to the request schema, which says best what is wrong with it.
      anyJson: true,
      // The token before anything else: a stranger learns nothing, not even whether the body parses.
      ...(token !== undefined ? { guard: (raw: IncomingMessage) => (hasBearer(raw, token) ? undefined : UNAUTHORIZED) } : {}),
    },
  );
}
