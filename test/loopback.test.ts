import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isLoopback, isLoopbackOrUnspecified } from '../src/core/loopback.js';

test('loopback: localhost, ::1 and 127.x.x.x; the unspecified 0.0.0.0 and :: only where a listener is meant; a name that starts with 127 is not', () => {
  const rows: [string, boolean, boolean][] = [
    ['http://localhost:8080/agent', true, true],
    ['http://127.0.0.1:8080/agent', true, true],
    ['http://127.1.2.3/agent', true, true],
    ['http://[::1]:8080/agent', true, true],
    ['http://0.0.0.0:8080/agent', false, true],
    ['http://[::]:8080/agent', false, true],
    ['http://127.example.com/agent', false, false],
    ['http://128.0.0.1/agent', false, false],
    ['https://agent.example.com/agent', false, false],
  ];
  for (const [url, loopback, listener] of rows) {
    assert.equal(isLoopback(new URL(url)), loopback, url);
    assert.equal(isLoopbackOrUnspecified(new URL(url)), listener, url);
  }
});
