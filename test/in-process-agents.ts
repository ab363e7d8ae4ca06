/**
 * The reference agent as the two kinds of handler the library checks in this process: a fetch
 * handler (`(request: Request) => Response`) and a Node request listener (`(req, res) => void`).
 * Both answer as the served reference agent does: HEAD with 200, a body that breaks the request
 * schema with 400 and why, and otherwise the reference answer for the channel.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bundledContract } from '../src/contract/load-contract.js';
import type { AgentRequest } from '../src/core/request.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { requestProblemsOf } from '../src/example-agent/start-reference-agent.js';

const { platforms } = bundledContract();

/** The reference agent's status and JSON body for one request. */
export function referenceExchange(method: string, body: string): { status: number; body: string } {
  if (method === 'HEAD') return { status: 200, body: '' };
  if (method !== 'POST') return { status: 405, body: '{"error":"POST a JSON message"}' };
  let request: unknown;
  try {
    request = JSON.parse(body);
  } catch {
    return { status: 400, body: '{"error":"the body is not JSON"}' };
  }
  const problems = requestProblemsOf(request);
  if (problems.length) return { status: 400, body: JSON.stringify({ error: 'the request does not match the contract', problems }) };
  const valid = request as AgentRequest;
  return {
    status: 200,
    body: JSON.stringify(referenceAnswer(valid, Object.hasOwn(platforms, valid.channel) ? platforms[valid.channel] : undefined)),
  };
}

export async function referenceFetchHandler(request: Request): Promise<Response> {
  const { status, body } = referenceExchange(request.method, await request.text());
  return new Response(request.method === 'HEAD' ? null : body, { status, headers: { 'content-type': 'application/json' } });
}

export function referenceListener(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const { status, body } = referenceExchange(request.method ?? '', Buffer.concat(chunks).toString('utf8'));
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
}
