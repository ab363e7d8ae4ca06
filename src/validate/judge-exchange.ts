import type { Reply } from '../core/answer.js';
import { type Finding, capFindings, error, excerpt, warning } from '../core/findings.js';
import type { HttpAnswer, HttpOutcome } from '../http/client.js';
import type { Contract, PlatformRules } from '../contract/contract.js';
import { judgeAnswer } from './validate-answer.js';
import { networkFailureHint } from './connection-hints.js';
import { type InProcessTarget, type SentCredentials, statusHint } from './status-hints.js';
import { bodyExcerpt, describeAnswerBody } from './error-body.js';
import { refusalHint } from './refusal-hints.js';
import { acceptedRequestBytes } from './request-size-hints.js';
import { type AddedHeader, headerSizeHint } from './header-size-hints.js';
import { streamedAnswerFinding } from './streamed-answer.js';
import { nestingDepth } from '../core/nesting-depth.js';
import { type AnsweringStack, answeringStack, stackWhenNeeded } from './answering-stack.js';
import { fixSentence } from './stack-fixes.js';

export type { InProcessTarget, SentCredentials } from './status-hints.js';

export interface TurnContext {
  channel: string;
  contract: Contract;
  limits?: PlatformRules;
  /** The person's message ids in this conversation so far, this turn's included. */
  personMessageIds: readonly string[];
  /** The person typed something that deserves an answer. */
  expectsReply: boolean;
  timeoutSeconds: number;
  /** What the request carried to prove who sent it: for the hint of a 401 or 403. */
  credentials?: SentCredentials;
  /** The size of the request body sent, in bytes: for the hint of an answer that refused it for its size. */
  requestBytes?: number;
  /** The headers the user added to every request, by name and size: for the hint of a 431. */
  addedHeaders?: readonly AddedHeader[];
  /** A handler checked in this process, and the path its requests go to: for the hint of a 404. */
  inProcess?: InProcessTarget;
}

export interface TurnVerdict {
  findings: Finding[];
  /** The parsed answer body, or null when there was none, it was not JSON, or it nests too deep to report. */
  answer: unknown;
  /** The replies, when the answer matched the schema. */
  replies: Reply[] | undefined;
}

/** Answers nested deeper than this are not copied into reports (no schema allows it anyway). */
export const MAX_REPORTED_DEPTH = 64;

export { nestingDepth } from '../core/nesting-depth.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Parses an answer body as the contract wants it: UTF-8 JSON with no byte order mark. */
export function parseJsonBody(body: Buffer): { ok: true; value: unknown } | { ok: false; finding: Finding } {
  const fail = (message: string, hint: string): { ok: false; finding: Finding } => ({
    ok: false,
    finding: error('json', '', message, hint),
  });
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return fail('expected a UTF-8 JSON body; the body is not valid UTF-8', 'Encode the answer as UTF-8.');
  }
  if (text.startsWith('\uFEFF')) {
    return fail('expected a JSON body; it starts with a UTF-8 byte order mark (U+FEFF)', 'Write the JSON without a byte order mark.');
  }
  if (text.trim() === '')
    return fail('expected a JSON body { "replies": [...] }; the body is empty', 'Answer { "replies": [] } to send nothing.');
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (cause) {
    return fail(
      `expected a JSON body; it does not parse (${(cause as Error).message}): ${bodyExcerpt(body)}`,
      'Answer with JSON.stringify({ replies }) and content-type: application/json.',
    );
  }
}

/** A bare array of replies: the schema's finding on the whole body says to wrap it. */
function bareArrayHint(finding: Finding): Finding {
  if (finding.rule !== 'schema' || finding.path !== '') return finding;
  return { ...finding, hint: 'Wrap the replies in { "replies": [...] }: the answer is an object that holds the array.' };
}

/** A handler checked in this process is JavaScript, whatever its answer tells. */
const IN_PROCESS: AnsweringStack = { id: 'node', sign: 'a handler checked in this process' };

/** The stack that answered, as the answer tells it; a handler in this process is JavaScript. */
export function stackOf(answer: HttpAnswer, context: Pick<TurnContext, 'inProcess'>): AnsweringStack | undefined {
  return answeringStack(answer) ?? (context.inProcess ? IN_PROCESS : undefined);
}

/** Judges one exchange: timeout, status, json, then the answer's own findings. Pure. */
export function checkTurn(outcome: HttpOutcome, context: TurnContext): TurnVerdict {
  const none = (finding: Finding): TurnVerdict => ({ findings: [finding], answer: null, replies: undefined });
  switch (outcome.kind) {
    case 'timeout':
      return none(
        error(
          'timeout',
          '',
          `expected a complete answer within ${context.timeoutSeconds} s; none came (waited ${outcome.latencyMs} ms)`,
          `Answer within ${context.timeoutSeconds} seconds: do slow work after answering, or raise --agent-timeout.`,
        ),
      );
    case 'network':
      return none(
        error(
          'status',
          '',
          `expected an HTTP answer with status 200; got none: ${outcome.message}`,
          networkFailureHint(outcome, context.contract.maxRequestBytes),
        ),
      );
    case 'too-large':
      return none(
        error(
          'json',
          '',
          `expected a JSON answer; ${outcome.message} (the limit is --max-body)`,
          'Answer with the replies only; send large images by https URL.',
        ),
      );
    case 'undecodable':
      return none(
        error(
          'json',
          '',
          `expected a JSON answer; ${outcome.message}`,
          'Send the body uncompressed, or compressed with gzip, deflate or br (what the accept-encoding header asks for).',
        ),
      );
    case 'answer':
      break;
  }
  const stack = stackWhenNeeded(() => stackOf(outcome, context));
  if (outcome.status !== 200) {
    const location = outcome.headers.location ? ` (location: ${outcome.headers.location})` : '';
    return none(
      error(
        'status',
        '',
        `expected status 200, got ${outcome.status}${location}${outcome.body.length ? `: ${describeAnswerBody(outcome)}` : ''}`,
        refusalHint(outcome, context.requestBytes ?? 0, acceptedRequestBytes(context.contract), stack()) ??
          headerSizeHint(outcome, context.addedHeaders ?? []) ??
          statusHint(outcome, context.credentials, context.inProcess),
      ),
    );
  }
  const findings: Finding[] = [];
  const contentType = outcome.headers['content-type'];
  if (!contentType || !/^application\/json\s*(;|$)/i.test(contentType)) {
    findings.push(
      warning(
        'json',
        '',
        `expected content-type application/json, got ${contentType ? excerpt(contentType) : 'none'}`,
        `Set content-type: application/json. ${fixSentence('content-type', stack())}`,
      ),
    );
  }
  const parsed = parseJsonBody(outcome.body);
  if (!parsed.ok) {
    const stream = streamedAnswerFinding(outcome);
    return { findings: stream ? [stream] : [...findings, parsed.finding], answer: null, replies: undefined };
  }
  const verdict = judgeAnswer(
    parsed.value,
    {
      channel: context.channel,
      personMessageIds: context.personMessageIds,
      contract: context.contract,
      ...(context.limits ? { limits: context.limits } : {}),
    },
    stack,
  );
  for (const finding of verdict.findings) findings.push(Array.isArray(parsed.value) ? bareArrayHint(finding) : finding);
  const replies = verdict.answer?.replies;
  if (replies && replies.length === 0 && context.expectsReply) {
    findings.push(
      warning(
        'silent',
        '/replies',
        'the person typed a message and got no reply at all',
        'Answer typed messages, even briefly; [] suits messages that need no answer.',
      ),
    );
  }
  const reportable = nestingDepth(parsed.value, MAX_REPORTED_DEPTH) <= MAX_REPORTED_DEPTH;
  return { findings: capFindings(findings), answer: reportable ? parsed.value : null, replies };
}
