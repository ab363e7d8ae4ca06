/**
 * An answer streamed instead of sent whole: server-sent events (`text/event-stream`), the Vercel AI
 * SDK's UI message stream (`toUIMessageStreamResponse`: SSE lines `data: {"type":"start"}` and the
 * header `x-vercel-ai-ui-message-stream: v1`), its older data stream (`0:"text"` lines), or its
 * text stream (`toTextStreamResponse`: chunked `text/plain`). The contract wants one JSON answer.
 */
import { type Finding, error, excerpt } from '../core/findings.js';
import type { HttpAnswer } from '../http/client.js';

/** What kind of stream an answer is, in words, or undefined when it is none. */
export function streamKind(answer: HttpAnswer): string | undefined {
  const { headers } = answer;
  const contentType = headers['content-type'] ?? '';
  const start = answer.body.subarray(0, 200).toString('utf8');
  if (headers['x-vercel-ai-ui-message-stream'] !== undefined) {
    return "the Vercel AI SDK's UI message stream (toUIMessageStreamResponse: text/event-stream)";
  }
  if (headers['x-vercel-ai-data-stream'] !== undefined) return "the Vercel AI SDK's data stream (toDataStreamResponse)";
  if (/^\s*text\/event-stream\b/i.test(contentType) || /^(data|event|id):/.test(start))
    return 'a stream of server-sent events (text/event-stream)';
  if (/^\s*text\/plain\b/i.test(contentType) && /\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
    return "a streamed text body (chunked text/plain, as the Vercel AI SDK's toTextStreamResponse sends)";
  }
  return undefined;
}

/** The finding on a body that is no JSON because it is a stream, or undefined when it is no stream. */
export function streamedAnswerFinding(answer: HttpAnswer): Finding | undefined {
  const kind = streamKind(answer);
  if (!kind) return undefined;
  const firstLines = excerpt(answer.body.subarray(0, 480).toString('utf8'), 120);
  return error(
    'json',
    '',
    `expected one JSON answer { "replies": [...] }; got ${kind}: ${firstLines}`,
    'Streaming is not part of the contract: collect the whole answer, then send it once as JSON with content-type: application/json, ' +
      '{ "replies": [{ "type": "message", "text": "..." }] }. With the AI SDK, take the text of generateText, or await result.text of streamText, ' +
      'instead of returning its stream response.',
  );
}
