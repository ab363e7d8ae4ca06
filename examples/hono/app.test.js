// The fetch handler checked in this process: no server, no port, no socket.
import { test } from 'node:test';
import { assertEndpoint } from 'check-endpoint';
import { app } from './app.js';

test('the Hono agent meets the contract on every channel', async () => {
  await assertEndpoint({ fetch: app.fetch, path: '/agent' }, { channels: ['all'] });
});
