/**
 * An agent that answers every message with one reply of every kind found in the sample answers of
 * fixtures/answers/ (a plain text, a quote, buttons, a list, a link, an image by URL and as data, a
 * reaction, a template, a reply of a misspelt type, ...), whatever the channel: so a run of it
 * draws every reply kind on every channel, each shown where the platform sends it and struck
 * through, its refused parts not drawn, where it does not. For the HTML preview's accessibility test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentHandler } from '../src/example-agent/serve-agent.js';
import { ROOT } from './helpers.js';

const ANSWERS = join(ROOT, 'fixtures/answers');
/** The person message ids the sample answers name; an answer to a live message names that one instead. */
const SAMPLE_PERSON_IDS = new Set(['m1', 'm2']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What kind of reply this is: its type, and for a message the parts it carries. */
function kindOf(reply: Record<string, unknown>): string {
  if (reply.type !== 'message') return String(reply.type);
  const image = isRecord(reply.image) ? (reply.image.url !== undefined ? 'image-url' : 'image-data') : undefined;
  const parts = ['buttons', 'list', 'link', 'replyTo'].filter((part) => reply[part] !== undefined);
  return ['message', ...(image ? [image] : []), ...parts, ...(reply.text === undefined ? ['no-text'] : [])].join('+');
}

/** The first reply of each kind in the sample answers, in the manifest's order. */
export function sampleRepliesOfEveryKind(): Record<string, unknown>[] {
  const manifest: unknown = JSON.parse(readFileSync(join(ANSWERS, 'manifest.json'), 'utf8'));
  if (!Array.isArray(manifest)) throw new Error('fixtures/answers/manifest.json is not a list');
  const byKind = new Map<string, Record<string, unknown>>();
  for (const entry of manifest) {
    if (!isRecord(entry) || typeof entry.file !== 'string') continue;
    const answer: unknown = JSON.parse(readFileSync(join(ANSWERS, entry.file), 'utf8'));
    const replies = isRecord(answer) && Array.isArray(answer.replies) ? answer.replies : [];
    for (const reply of replies) if (isRecord(reply) && !byKind.has(kindOf(reply))) byKind.set(kindOf(reply), reply);
  }
  return [...byKind.values()];
}

/** The sample replies, their person message ids (m1, m2) naming the message being answered. */
export function everyReplyKindAgent(): AgentHandler {
  const replies = sampleRepliesOfEveryKind();
  return (request) => ({
    replies: replies.map((reply) => {
      const named = (field: 'replyTo' | 'messageId') =>
        typeof reply[field] === 'string' && SAMPLE_PERSON_IDS.has(reply[field]) ? { [field]: request.messageId } : {};
      return { ...reply, ...named('replyTo'), ...named('messageId') };
    }),
  });
}
