/**
 * An answer body as a finding quotes it: an HTML error page by its title and first line of text,
 * a FastAPI/pydantic `detail` body by each refused field and why, anything else by its first
 * characters.
 */
import { excerpt } from '../core/findings.js';
import type { HttpAnswer } from '../http/client.js';
import { htmlSummary, looksLikeHtml } from './html-text.js';
import { describeRefusedFields, refusedFields } from './validation-detail.js';

const BODY_EXCERPT = 120;
/** A JSON error body is parsed this far at most: error bodies are short. */
const PARSED_AT_MOST = 64 * 1024;

export function bodyExcerpt(body: Buffer): string {
  return excerpt(body.subarray(0, BODY_EXCERPT * 4).toString('utf8'), BODY_EXCERPT);
}

/** A short body's JSON value, or undefined when it is long or no JSON. */
export function smallJson(body: Buffer): unknown {
  if (body.length > PARSED_AT_MOST) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The body of an answer, in words: `an HTML page "Error": PayloadTooLargeError: request entity too large`. */
export function describeAnswerBody(answer: HttpAnswer): string {
  const { body } = answer;
  if (body.length === 0) return '';
  const text = body.subarray(0, 256 * 1024).toString('utf8');
  if (looksLikeHtml(answer.headers['content-type'], text)) {
    const summary = htmlSummary(text);
    if (summary) return `an HTML page ${summary}`;
  }
  const value = smallJson(body);
  const fields = refusedFields(value);
  if (fields) return describeRefusedFields(fields);
  // A JSON object or array as JSON (`{"error":"missing token"}`), not as a string holding it, whose quotes would all be escaped.
  if (typeof value === 'object' && value !== null) return excerpt(value, BODY_EXCERPT);
  return bodyExcerpt(body);
}
