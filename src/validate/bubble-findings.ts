/**
 * Rule `bubbles` (a warning, level should; contract, "Chat bubbles"): one reply's text past its
 * channel's soft length reads as a wall of text where a person on a phone expects a few chat
 * bubbles. The finding says how the bubble rule would cut it. Only where the channel's limits give
 * a soft length (telegram, whatsapp, imessage; not sms, web, or a custom channel whose file gives none).
 */
import type { MessageReply } from '../core/answer.js';
import { type Finding, type FindingLimit, excerpt, replyPointer, warning } from '../core/findings.js';
import { type Bubble, cutIntoBubbles } from '../platforms/bubbles.js';
import { lengthIn, measuredLength, sliceMeasure } from '../platforms/counting.js';
import type { PlatformRules } from '../platforms/platform-rules.js';
import { forModel } from './prompt-command.js';

/** Bubbles named in a message at most; the rest are counted. */
const NAMED_BUBBLES = 6;
/** Words of each bubble's start the message quotes. */
const OPENING_WORDS = 4;

/** A bubble's first words: `"Here is our menu…"`. */
function opening(bubble: Bubble): string {
  const words = bubble.text.split(/\s+/);
  const first = words.slice(0, OPENING_WORDS).join(' ');
  return excerpt(words.length > OPENING_WORDS ? `${first}…` : first, 40);
}

/** The 1-based character (code point) a UTF-16 index of the text is at, as people count. */
function characterAt(text: string, index: number): number {
  return lengthIn(text.slice(0, index), 'codepoints') + 1;
}

/** The bubbles a text would be cut into, when its channel gives a soft length; undefined where the rule does not apply. */
export function bubblesOf(text: string, rules: PlatformRules): Bubble[] | undefined {
  const softLength = rules.text?.softLength;
  if (softLength === undefined) return undefined;
  const hardLimit = rules.text?.maxLength;
  return cutIntoBubbles(text, { softLength, ...(hardLimit !== undefined ? { hardLimit } : {}) }, sliceMeasure(text, rules.counting));
}

/** The `bubbles` warning on one message's text, when it passes the channel's soft length (and is within its hard limit). */
export function bubbleFindings(reply: MessageReply, index: number, rules: PlatformRules, channel: string, findings: Finding[]): void {
  const { text } = reply;
  const softLength = rules.text?.softLength;
  if (text === undefined || softLength === undefined) return;
  const { counts, length } = measuredLength(text, rules.counting);
  const hardLimit = rules.text?.maxLength;
  // Within the soft length: a chat bubble. Past the hard limit: not sent at all, and rule platform says so.
  if (length <= softLength || (hardLimit !== undefined && length > hardLimit)) return;
  const limit: FindingLimit = { key: 'text.softLength', max: softLength, counts, measured: length };
  const bubbles = bubblesOf(text, rules) ?? [];
  const said = `the text is ${length} characters long, past ${rules.title}'s soft length of ${softLength}: it reads as one wall of text where a person on a phone expects a few chat bubbles`;
  if (bubbles.length <= 1) {
    findings.push({
      ...warning(
        'bubbles',
        replyPointer(index, 'text'),
        `${said}; the bubble rule finds no place to cut it (no paragraph break, and no sentence end outside a code block)`,
        `Write it shorter, or in paragraphs of at most ${softLength} characters, each sent as its own message reply.${forModel(channel)}`,
      ),
      limit,
    });
    return;
  }
  const named = bubbles
    .slice(0, NAMED_BUBBLES)
    .map((bubble) => `at character ${characterAt(text, bubble.start)} ${opening(bubble)}`)
    .join(', ');
  const more = bubbles.length > NAMED_BUBBLES ? `, and ${bubbles.length - NAMED_BUBBLES} more` : '';
  findings.push({
    ...warning(
      'bubbles',
      replyPointer(index, 'text'),
      `${said}; the bubble rule would cut it into ${bubbles.length} bubbles, starting ${named}${more}`,
      `Send it as ${bubbles.length} message replies, cut where shown (at paragraph breaks, and at sentence ends past ${softLength} characters), or have the model write shorter messages.${forModel(channel)}`,
    ),
    limit,
  });
}
