// The app checked in the test run, no server to start: the library serves it on a loopback port and closes it.
import { test } from 'node:test';
import { assertEndpoint } from 'check-endpoint';
import { app } from './app.js';

test('the Express agent meets the contract on every channel', async () => {
  await assertEndpoint({ listener: app, path: '/agent' }, { channels: ['all'] });
});
