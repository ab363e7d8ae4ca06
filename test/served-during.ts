/** An agent served on 127.0.0.1 for the tests of a describe block: started before them, closed after. */
import { after, before } from 'node:test';
import { type AgentHandler, type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';

export function servedDuring(handler: () => AgentHandler): { url: () => string } {
  let running: RunningAgent | undefined;
  before(async () => {
    running = await serveAgent(handler());
  });
  after(async () => {
    await running?.close();
  });
  return { url: () => running!.url };
}
