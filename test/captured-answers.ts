/**
 * What real frameworks and servers answered, as scripts/framework-answers/capture.ts saved it in
 * fixtures/framework-answers/: read, made an HttpAnswer, and judged as one turn of a WhatsApp
 * case, for test/framework-answers.test.ts and test/stack-answers.test.ts alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpAnswer } from '../src/http/client.js';
import { bundledContract } from '../src/index.js';
import { checkTurn } from '../src/validate/judge-exchange.js';
import { ROOT } from './helpers.js';

export interface Captured {
  producedBy: string;
  requestBytes: number;
  answer: {
    status: number;
    statusText: string;
    headers: Record<string, string>;
    /** The header names in the order sent; only in captures made since capture.ts kept them. */
    headerNames?: string[];
    body: string;
  };
}

export const CAPTURED_DIR = join(ROOT, 'fixtures/framework-answers');

export function captured(name: string): Captured {
  return JSON.parse(readFileSync(join(CAPTURED_DIR, `${name}.json`), 'utf8')) as Captured;
}

export function asAnswer({ answer }: Captured): HttpAnswer {
  return {
    kind: 'answer',
    status: answer.status,
    httpVersion: '1.1',
    statusText: answer.statusText,
    headers: answer.headers,
    ...(answer.headerNames ? { headerNames: answer.headerNames } : {}),
    body: Buffer.from(answer.body),
    latencyMs: 1,
  };
}

/** The findings of the captured answer as one turn of a WhatsApp case whose request had `requestBytes`. */
export function judgeCaptured(fixture: Captured, requestBytes = fixture.requestBytes) {
  return checkTurn(asAnswer(fixture), {
    channel: 'whatsapp',
    contract: bundledContract(),
    personMessageIds: ['p1'],
    expectsReply: true,
    timeoutSeconds: 60,
    requestBytes,
  }).findings;
}
