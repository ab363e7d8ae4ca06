/**
 * What a person does on the chat page, as data: types a text, attaches a file (one of the check's
 * own sample files, or one of theirs), taps a button or list row of an earlier answer, quotes a
 * message. A step is made into the request's `message` against the conversation as played so far
 * (the server's own record of each answer), never from what the page says a button held.
 */
import type { Attachment, PersonMessage } from '../core/request.js';
import type { PastTurn } from '../cases/case.js';
import { offeredChoices } from '../cases/explore/offered-choices.js';
import { attachmentOf } from '../cases/explore/person-files.js';

/** The check's own sample files a person can attach: the fixed and extended cases' photo, voice note, video and document. */
export const SAMPLE_FILES = {
  photo: { kind: 'image', mime: 'image/jpeg', label: 'the photo (218 KB JPEG)' },
  'voice-note': { kind: 'audio', mime: 'audio/ogg', label: 'the voice note (Ogg Opus)' },
  video: { kind: 'video', mime: 'video/mp4', label: 'the video (MP4)' },
  document: { kind: 'document', mime: 'application/pdf', label: 'the document (PDF)' },
} as const satisfies Record<string, { kind: Attachment['kind']; mime: string; label: string }>;

export type SampleFile = keyof typeof SAMPLE_FILES;

export function isSampleFile(name: string): name is SampleFile {
  return Object.hasOwn(SAMPLE_FILES, name);
}

export interface ChatStep {
  /** What the person types: `""` for a tap, or for a file without a caption. */
  text: string;
  /** A file sent with it: a sample file by name, or the person's own. */
  file?: { sample: SampleFile } | { own: Attachment };
  /** A tap of a button or list row: the turn (from 0) whose answer offered it, the reply holding it, and its id. */
  tap?: { turn: number; reply: number; id: string };
  /** A quote of the person's message of turn `turn` (from 0), or of the agent's reply `reply` of that turn. */
  quote?: { from: 'person' | 'agent'; turn: number; reply?: number };
}

/** The message a step sends, or why it cannot be sent. */
export type StepOutcome = { message: PersonMessage } | { refused: string };

/** One of the check's sample files as a request carries it (its bytes base64, as the check's cases send them). */
export function sampleAttachment(sample: SampleFile): Attachment {
  return attachmentOf(SAMPLE_FILES[sample], 0);
}

function attachmentsOf(step: ChatStep): Attachment[] {
  if (!step.file) return [];
  if ('own' in step.file) return [step.file.own];
  return [sampleAttachment(step.file.sample)];
}

/** The agent's reply `reply` of a turn as a quote names it: its id and text; undefined when it is no message. */
function agentQuote(past: PastTurn, reply: number): PersonMessage['replyTo'] | undefined {
  const quoted = past.replies?.[reply];
  const messageId = past.agentMessageIds[reply];
  if (quoted?.type !== 'message' || messageId === undefined) return undefined;
  return { messageId, from: 'agent', text: quoted.text ?? '' };
}

/** The request's `message` for `step`, given the conversation's answered turns so far. */
export function messageOf(step: ChatStep, past: readonly PastTurn[]): StepOutcome {
  const attachments = attachmentsOf(step);
  const base: PersonMessage = { text: step.text, ...(attachments.length ? { attachments } : {}) };
  if (step.tap) {
    const { turn, reply, id } = step.tap;
    const offering = past[turn];
    if (!offering) return { refused: `there is no answer ${turn + 1} to tap in yet` };
    if (!offering.replies) return { refused: `answer ${turn + 1} broke the contract's schema, so no platform shows its buttons to tap` };
    const choice = offeredChoices(offering.replies).find((candidate) => candidate.reply === reply && candidate.id === id);
    if (!choice) return { refused: `reply ${reply + 1} of answer ${turn + 1} offers no button or list row with that id` };
    const replyTo = agentQuote(offering, reply);
    return { message: { ...base, choice: { id: choice.id, title: choice.title }, ...(replyTo ? { replyTo } : {}) } };
  }
  if (step.quote) {
    const { from, turn, reply = 0 } = step.quote;
    const quoted = past[turn];
    if (!quoted) return { refused: `there is no message ${turn + 1} to quote yet` };
    if (from === 'person') {
      return { message: { ...base, replyTo: { messageId: quoted.messageId, from: 'person', text: quoted.message.text } } };
    }
    const replyTo = agentQuote(quoted, reply);
    if (!replyTo) return { refused: `answer ${turn + 1} has no message ${reply + 1} to quote` };
    return { message: { ...base, replyTo } };
  }
  if (step.text === '' && attachments.length === 0) return { refused: 'type a message, attach a file or tap a button first' };
  return { message: base };
}

/**
 * A step of one conversation made for another (the same conversation played on another platform):
 * a tap finds its choice again in the new answer of the same turn, by id, then by title; undefined
 * with why when that answer offers no such choice.
 */
export function stepAgain(step: ChatStep, before: readonly PastTurn[], now: readonly PastTurn[]): { step: ChatStep } | { changed: string } {
  if (!step.tap) return { step };
  const { turn, reply, id } = step.tap;
  const title = offeredChoices(before[turn]?.replies).find((choice) => choice.reply === reply && choice.id === id)?.title;
  const offered = offeredChoices(now[turn]?.replies);
  const found = offered.find((choice) => choice.id === id) ?? offered.find((choice) => title !== undefined && choice.title === title);
  if (!found) return { changed: `answer ${turn + 1} here offers no “${title ?? id}” to tap, so the conversation stops before that tap` };
  return { step: { ...step, tap: { turn, reply: found.reply, id: found.id } } };
}
