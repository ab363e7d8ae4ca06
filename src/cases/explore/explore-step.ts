/**
 * One person message of an explored conversation, as data that can be kept and played again: what
 * is typed, the files sent, the choice tapped (and which earlier answer offered it), the message
 * quoted. A step is made into the request's `message` against the conversation as played so far, so
 * a tap finds its button again by id, then by title, and a quote names the ids of this play.
 */
import type { ExploreStep } from '../../core/report.js';
import type { PersonMessage } from '../../core/request.js';
import { thousands } from '../../core/thousands.js';
import { jsonPrintable } from '../../core/unsafe-text.js';
import type { PastTurn } from '../case.js';
import { type OfferedChoice, offeredChoices } from './offered-choices.js';
import { type PersonFile, attachmentOf } from './person-files.js';

export type { ExploreStep } from '../../core/report.js';
export type StepTap = NonNullable<ExploreStep['tap']>;

/** The message a step sends, or why it cannot be sent in this play (the agent no longer offers the choice, or has nothing to quote). */
export type StepMessage = { message: PersonMessage } | { changed: string };

/** The choice a tap finds in the answer that offered it: by id, else by title (a menu whose ids changed). */
function findChoice(offered: readonly OfferedChoice[], tap: StepTap): OfferedChoice | undefined {
  return offered.find((choice) => choice.id === tap.id) ?? offered.find((choice) => choice.title === tap.title);
}

/** The request's `message` for `step`, given the conversation so far (its answered turns and the person's message ids). */
export function stepMessage(step: ExploreStep, past: readonly PastTurn[]): StepMessage {
  const attachments = (step.files ?? []).map((file, index) => attachmentOf(file, index));
  const base: PersonMessage = { text: step.text, ...(attachments.length ? { attachments } : {}) };
  if (step.tap) {
    if (step.tap.offeredAt === undefined) return { message: { ...base, choice: { id: step.tap.id, title: step.tap.title } } };
    const offering = past[step.tap.offeredAt - 1];
    const choice = offering ? findChoice(offeredChoices(offering.replies), step.tap) : undefined;
    if (!offering || !choice) {
      return {
        changed: `the answer to message ${step.tap.offeredAt} no longer offers ${quoted(step.tap.title)} (id ${quoted(step.tap.id)})`,
      };
    }
    const reply = offering.replies?.[choice.reply];
    const messageId = offering.agentMessageIds[choice.reply];
    const replyTo =
      reply?.type === 'message' && messageId !== undefined
        ? { replyTo: { messageId, from: 'agent' as const, text: reply.text ?? '' } }
        : {};
    return { message: { ...base, choice: { id: choice.id, title: choice.title }, ...replyTo } };
  }
  if (step.quote) {
    const quotedTurn = past[step.quote.turn - 1];
    if (!quotedTurn) return { changed: `message ${step.quote.turn}, which it quotes, was not answered` };
    if (step.quote.from === 'person') {
      return { message: { ...base, replyTo: { messageId: quotedTurn.messageId, from: 'person', text: quotedTurn.message.text } } };
    }
    const index = step.quote.reply ?? 0;
    const reply = quotedTurn.replies?.[index];
    const messageId = quotedTurn.agentMessageIds[index];
    if (reply?.type !== 'message' || messageId === undefined) {
      return { changed: `the answer to message ${step.quote.turn} has no message ${index + 1} to quote` };
    }
    return { message: { ...base, replyTo: { messageId, from: 'agent', text: reply.text ?? '' } } };
  }
  return { message: base };
}

/** A text as a step's words quote it: in double quotes, escaped, cut to `max` characters with its full length said. */
export function quoted(text: string, max = 60): string {
  const characters = Array.from(text);
  const shown = characters.length > max ? `${characters.slice(0, max).join('')}…` : text;
  // JSON's escapes for quotes and controls; bidi, zero-width and separator characters as escapes too (core/unsafe-text.ts).
  const escaped = jsonPrintable(JSON.stringify(shown));
  return characters.length > max ? `${escaped} (${thousands(characters.length)} characters)` : escaped;
}

const FILE_WORDS: Readonly<Record<PersonFile['kind'], string>> = {
  image: 'a photo',
  audio: 'a voice note',
  video: 'a video',
  document: 'a document',
};

/** A step in words, for the numbered steps every output shows: `taps "Menu" (id "menu"), offered in answer 1`. */
export function describeStep(step: ExploreStep): string {
  const parts: string[] = [];
  const files = step.files ?? [];
  if (step.tap) {
    const where = step.tap.offeredAt === undefined ? 'never offered' : `offered in the answer to message ${step.tap.offeredAt}`;
    parts.push(`taps ${quoted(step.tap.title)} (id ${quoted(step.tap.id)}), ${where}`);
  } else if (files.length === 1) {
    parts.push(`sends ${FILE_WORDS[files[0]!.kind]} (${files[0]!.mime})${step.text ? ` with the caption ${quoted(step.text)}` : ''}`);
  } else if (files.length > 1) {
    parts.push(
      `sends ${files.length} files at once (${files.map((file) => file.mime).join(', ')})${step.text ? ` with the text ${quoted(step.text)}` : ''}`,
    );
  } else {
    parts.push(`types ${quoted(step.text)}`);
  }
  if (step.quote) {
    parts.push(
      step.quote.from === 'person'
        ? `quoting their own message ${step.quote.turn}`
        : `quoting the agent's reply ${(step.quote.reply ?? 0) + 1} to message ${step.quote.turn}`,
    );
  }
  return parts.join(', ');
}
