/**
 * The failing conversations --explore keeps between runs (.check-endpoint/explore.json, written by
 * the command): each one's channel, problem and steps. The file is data a repository may carry, so
 * it is read as data only, field by field within stated bounds: a step can say what to type, send,
 * tap or quote, and nothing else (no command, no URL, no header).
 */
import { CHANNEL_NAME } from '../../core/ids.js';
import type { CaseReport, ExploreStep } from '../../core/report.js';
import type { KeptConversation } from '../case.js';
import { MAX_WALK_MESSAGES } from './walks.js';
import { CRAWL_DEPTH } from './crawl.js';

/** The version of the file's format. */
export const KEPT_FORMAT_VERSION = 1;

/** The bounds of what the file holds: far beyond what --explore writes, well within what a run can hold. */
const MAX_CONVERSATIONS = 500;
const MAX_STEPS = Math.max(MAX_WALK_MESSAGES, CRAWL_DEPTH) * 2;
const MAX_TEXT = 10_000;
const MAX_FILES = 10;
const MAX_SHORT = 256;
const KINDS = ['image', 'audio', 'video', 'document'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Only `keys` (each optional unless `required`) and nothing else. */
function hasOnly(value: Record<string, unknown>, keys: readonly string[], required: readonly string[] = []): boolean {
  return Object.keys(value).every((key) => keys.includes(key)) && required.every((key) => Object.hasOwn(value, key));
}

function isText(value: unknown, most: number, least = 0): value is string {
  return typeof value === 'string' && value.isWellFormed() && value.length >= least && Array.from(value).length <= most;
}

function wholeNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

function isTurn(value: unknown): value is number {
  return wholeNumber(value) && value >= 1 && value <= MAX_STEPS;
}

/** Whether a value is a step as --explore writes one; `at` is its place (1-based): what it refers to comes before it. */
function isStep(value: unknown, at: number): value is ExploreStep {
  if (!isRecord(value) || !hasOnly(value, ['text', 'files', 'tap', 'quote'], ['text']) || !isText(value.text, MAX_TEXT)) return false;
  const { files, tap, quote } = value;
  if (
    files !== undefined &&
    !(
      Array.isArray(files) &&
      files.length >= 1 &&
      files.length <= MAX_FILES &&
      files.every(
        (file) =>
          isRecord(file) &&
          hasOnly(file, ['kind', 'mime'], ['kind', 'mime']) &&
          KINDS.includes(String(file.kind)) &&
          isText(file.mime, MAX_SHORT, 1),
      )
    )
  )
    return false;
  if (
    tap !== undefined &&
    !(
      isRecord(tap) &&
      hasOnly(tap, ['id', 'title', 'offeredAt'], ['id', 'title']) &&
      isText(tap.id, MAX_SHORT, 1) &&
      isText(tap.title, MAX_SHORT) &&
      (tap.offeredAt === undefined || (isTurn(tap.offeredAt) && tap.offeredAt < at))
    )
  )
    return false;
  if (
    quote !== undefined &&
    !(
      isRecord(quote) &&
      hasOnly(quote, ['from', 'turn', 'reply'], ['from', 'turn']) &&
      (quote.from === 'person' || quote.from === 'agent') &&
      isTurn(quote.turn) &&
      quote.turn < at &&
      (quote.reply === undefined || (wholeNumber(quote.reply) && quote.reply >= 0 && quote.reply < 100))
    )
  )
    return false;
  return tap === undefined || quote === undefined;
}

function isKept(value: unknown): value is KeptConversation {
  return (
    isRecord(value) &&
    hasOnly(value, ['channel', 'problem', 'title', 'steps'], ['channel', 'problem', 'title', 'steps']) &&
    typeof value.channel === 'string' &&
    CHANNEL_NAME.test(value.channel) &&
    isText(value.problem, 100, 1) &&
    isText(value.title, 1000) &&
    Array.isArray(value.steps) &&
    value.steps.length >= 1 &&
    value.steps.length <= MAX_STEPS &&
    value.steps.every((step, index) => isStep(step, index + 1))
  );
}

/** The kept conversations of a parsed file, or what is wrong with it (for the message naming the file). */
export function keptConversationsOf(value: unknown): { kept: KeptConversation[] } | { problem: string } {
  if (!isRecord(value) || !hasOnly(value, ['version', 'conversations'], ['version', 'conversations'])) {
    return { problem: 'is not a file of kept conversations ({ "version", "conversations" })' };
  }
  if (value.version !== KEPT_FORMAT_VERSION)
    return { problem: `is of format ${JSON.stringify(value.version)}; this version of check-endpoint reads format ${KEPT_FORMAT_VERSION}` };
  const { conversations } = value;
  if (!Array.isArray(conversations) || conversations.length > MAX_CONVERSATIONS) {
    return { problem: `holds no list of at most ${MAX_CONVERSATIONS} conversations` };
  }
  const bad = conversations.findIndex((conversation) => !isKept(conversation));
  if (bad >= 0) return { problem: `holds a conversation that is not one --explore writes, at /conversations/${bad}` };
  return { kept: conversations.filter(isKept) };
}

/**
 * The conversations to keep after a run: each explore case's failures (shrunk, or kept and failing
 * still), and the earlier ones of channels this run did not explore.
 */
export function keptAfter(earlier: readonly KeptConversation[], cases: readonly CaseReport[]): KeptConversation[] {
  const explored = cases.filter((caseReport) => caseReport.explore !== undefined && caseReport.status !== 'not-run');
  const channels = new Set(explored.map((caseReport) => caseReport.channel));
  const found = explored.flatMap((caseReport) =>
    caseReport.explore!.found.map((failure) => ({
      channel: caseReport.channel,
      problem: failure.place,
      title: failure.title,
      steps: failure.steps,
    })),
  );
  return [...earlier.filter((conversation) => !channels.has(conversation.channel)), ...found];
}
