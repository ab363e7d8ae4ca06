// Fastify's router as a Node listener (fastify.routing), served by the library on a loopback port for the check.
import { after, test } from 'node:test';
import { assertEndpoint } from 'check-endpoint';
import { buildApp } from './app.js';

const app = buildApp();
after(() => app.close());

test('the Fastify agent meets the contract on every channel', async () => {
  await app.ready();
  await assertEndpoint({ listener: (request, response) => app.routing(request, response), path: '/agent' }, { channels: ['all'] });
});
