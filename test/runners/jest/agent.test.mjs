// Jest's test() is a global.
import { assertEndpoint } from '../../../dist/index.js';
import { fourButtonsAgent, goodAgent } from '../agents.js';

test('a good agent passes', async () => {
  await assertEndpoint(goodAgent, { env: {} });
});

test('an agent with four WhatsApp buttons fails', async () => {
  await assertEndpoint(fourButtonsAgent, { env: {}, cases: ['typed'] });
});
