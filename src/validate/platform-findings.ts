import type { Button, ListRow, MessageReply, ReactionReply } from '../core/answer.js';
import { buttonId, buttonLabel } from '../core/answer.js';
import { type Finding, type FindingLimit, type LimitCount, type Severity, excerpt, replyPointer } from '../core/findings.js';
import { base64DecodedLength, describeLength, lengthBound, measuredLength, utf8ByteLength } from '../platforms/counting.js';
import { withoutVariationSelectors } from '../platforms/emoji.js';
import { type LimitKey, type PlatformRules, type SupportFeature, limitOf, support } from '../platforms/platform-rules.js';
import { smsSegments } from '../platforms/sms-segments.js';
import { bubbleFindings } from './bubble-findings.js';
import { markdownFindings } from './markdown-findings.js';
import { forModel } from './prompt-command.js';
import { smsSegmentHint, smsSegmentMessage } from './sms-words.js';
import type { StackWhenNeeded } from './answering-stack.js';
import { stackSentence } from './stack-fixes.js';

const NOT_SENT = 'so this reply is not sent';

/** Pointer segments under a reply, such as `['buttons', 2, 'label']`. */
type Segments = (string | number)[];

/**
 * Who wrote an answer, as far as the check can tell, for the words of its hints: the stack that
 * answered (answering-stack.ts), and whether a model wrote its text (a reply of the answer reads as
 * a model's: prompt-command.ts looksModelWritten).
 */
export interface AnswerWriter {
  stack: StackWhenNeeded;
  modelWritten: () => boolean;
}

/** An answer's writer the check knows nothing of. */
const UNKNOWN_WRITER: AnswerWriter = { stack: () => undefined, modelWritten: () => false };

/** One reply checked against one platform: the platform's rules, the reply's index, and where its findings go. */
interface ReplyCheck {
  rules: PlatformRules;
  /** The channel, for the command a hint names (`check-endpoint limits CHANNEL --prompt`). */
  channel: string;
  index: number;
  findings: Finding[];
  writer: AnswerWriter;
}

/**
 * The end of a hint on a part the channel does not take (buttons or a list where it shows none,
 * more buttons or longer labels than it shows): the fix in the stack's words where the answer told
 * its stack (a Go `switch channel`, the café agents' `shape()`), then a model's instructions for the
 * channel only where a model wrote the answer's text. A hand-written reply on an unknown stack gets neither.
 */
function shapingHint(check: ReplyCheck): string {
  const stack = stackSentence('channel-parts', check.writer.stack());
  return `${stack ? ` ${stack}` : ''}${check.writer.modelWritten() ? forModel(check.channel) : ''}`;
}

function fail(
  check: ReplyCheck,
  segments: Segments,
  message: string,
  hint: string | null,
  severity: Severity = 'error',
  limit?: FindingLimit,
): void {
  const path = replyPointer(check.index, ...segments);
  check.findings.push({ rule: 'platform', severity, message, path, hint, ...(limit ? { limit } : {}) });
}

/**
 * A count or size past a limit of the platform's rules: one finding, refused, carrying the limit
 * (its key, value, what it counts and what was found), and true. False where the rules give no such
 * limit or the part is within it. The message and a hint given as a function are made only then.
 */
function overLimit(
  check: ReplyCheck,
  segments: Segments,
  key: LimitKey,
  counts: LimitCount,
  measured: number,
  message: (max: number) => string,
  hint: string | null | ((max: number) => string),
): boolean {
  const max = limitOf(check.rules, key);
  if (max === undefined || measured <= max) return false;
  const said = typeof hint === 'function' ? hint(max) : hint;
  fail(check, segments, message(max), said, 'error', { key, max, counts, measured });
  return true;
}

/**
 * A text over a limit of the platform's rules, counted in the platform's unit: one finding, and true.
 * A hint given as a function is made only then (one that names the answering stack looks it up).
 */
function tooLong(
  check: ReplyCheck,
  segments: Segments,
  text: string,
  key: LimitKey,
  what: string,
  hint: string | null | ((max: number) => string),
): boolean {
  const max = limitOf(check.rules, key);
  if (max === undefined) return false;
  const { counting, title } = check.rules;
  // A text whose longest possible count is within the limit is within it: no counting.
  if (lengthBound(text, counting) <= max) return false;
  const { counts, length } = measuredLength(text, counting);
  return overLimit(
    check,
    segments,
    key,
    counts,
    length,
    (most) => `${what} is ${describeLength(text, counting)}; ${title} shows at most ${most}, ${NOT_SENT}`,
    hint,
  );
}

const asPlainText = (title: string) =>
  `Send the options as plain text on ${title}, for example a numbered list the person answers by number.`;

/** The parts of a message a platform may not show at all: a message with one of them is not sent. */
const MESSAGE_FEATURES: { field: SupportFeature & keyof MessageReply; name: string; hint: (title: string) => string }[] = [
  { field: 'buttons', name: 'buttons', hint: asPlainText },
  { field: 'list', name: 'lists', hint: asPlainText },
  { field: 'link', name: 'link buttons', hint: (title) => `Put the URL in the text on ${title}.` },
  { field: 'image', name: 'images', hint: (title) => `Send a link to the image in the text on ${title}.` },
  { field: 'replyTo', name: 'quoted replies', hint: () => 'Leave out replyTo on this channel.' },
];

/** The limits a message's text is held to where they apply: the tightest counts (the first of equal ones). */
const TEXT_LIMITS: { applies: (reply: MessageReply) => boolean; key: LimitKey; what: string }[] = [
  { applies: () => true, key: 'text.maxLength', what: 'the text' },
  { applies: (reply) => reply.image !== undefined, key: 'image.captionMaxLength', what: "the image's caption (text)" },
  { applies: (reply) => reply.buttons !== undefined, key: 'buttons.bodyMaxLength', what: 'the body of a message with buttons (text)' },
  { applies: (reply) => reply.list !== undefined, key: 'list.bodyMaxLength', what: 'the body of a message with a list (text)' },
  { applies: (reply) => reply.link !== undefined, key: 'link.bodyMaxLength', what: 'the body of a message with a link (text)' },
];

/** The limits on each row of a list. */
const ROW_LIMITS: { field: keyof ListRow; key: LimitKey; what: string; hint: string }[] = [
  { field: 'id', key: 'list.rowIdMaxLength', what: 'the row id', hint: 'Use a shorter id.' },
  { field: 'title', key: 'list.rowTitleMaxLength', what: 'the row title', hint: 'Shorten the title; put details in "description".' },
  { field: 'description', key: 'list.rowDescriptionMaxLength', what: 'the row description', hint: 'Shorten the description.' },
];

/** Hints about the buttons or the list a platform shows none of end with the shaping hint (the stack's way, a model's instructions). */
const SHAPING_HINTED: ReadonlySet<string> = new Set(['buttons', 'list']);

/**
 * Checks a message against what one platform shows, on a channel (named in hints). Pure: the reply
 * must already match the schema. Its text past the channel's soft length is warned of too (rule `bubbles`).
 */
export function messagePlatformFindings(
  reply: MessageReply,
  index: number,
  rules: PlatformRules,
  findings: Finding[],
  channel: string,
  writer: AnswerWriter,
): void {
  // `writer` says whether a model wrote any reply of the answer, this one among them (judgeAnswer).
  const check: ReplyCheck = { rules, channel, index, findings, writer };
  const unsupported = MESSAGE_FEATURES.filter(({ field }) => reply[field] !== undefined && support(rules, field) === 'no');
  for (const { field, name, hint } of unsupported) {
    fail(
      check,
      [field],
      `${rules.title} shows no ${name}, ${NOT_SENT}`,
      `${hint(rules.title)}${SHAPING_HINTED.has(field) ? shapingHint(check) : ''}`,
    );
  }
  if (unsupported.length > 0) return; // not sent at all: its lengths do not matter

  const { text, buttons, list, link, image } = reply;
  if (text !== undefined && textFindings(check, reply, text)) {
    markdownFindings(text, index, rules, channel, findings);
    bubbleFindings(reply, index, rules, channel, findings);
  }
  if (buttons !== undefined && support(rules, 'buttons') === 'yes') buttonFindings(check, buttons);
  if (list !== undefined && support(rules, 'list') === 'yes') listFindings(check, list);
  if (link !== undefined && support(rules, 'link') === 'yes' && rules.link?.labelShown !== false) {
    tooLong(check, ['link', 'label'], link.label, 'link.labelMaxLength', 'the link label', 'Shorten the label.');
  }
  if (image !== undefined && 'data' in image && support(rules, 'image') === 'yes') imageFindings(check, image);
}

/** Checks a reaction against what one platform shows. Pure: the reply must already match the schema. */
export function reactionPlatformFindings(
  reply: ReactionReply,
  index: number,
  rules: PlatformRules,
  findings: Finding[],
  channel: string,
): void {
  const check: ReplyCheck = { rules, channel, index, findings, writer: UNKNOWN_WRITER };
  const shown = support(rules, 'reaction');
  if (shown === 'no') {
    fail(
      check,
      [],
      `${rules.title} shows no reactions, ${NOT_SENT}`,
      `Leave reactions out on ${rules.title}, or answer with a short message instead.`,
    );
  }
  const allowed = rules.reaction?.emoji;
  if (shown !== 'yes' || !Array.isArray(allowed)) return;
  // Only the listed strings themselves: the same emoji with U+FE0F added or left out is refused.
  if (allowed.includes(reply.emoji)) return;
  const bare = withoutVariationSelectors(reply.emoji);
  const listed = allowed.find((candidate) => withoutVariationSelectors(candidate) === bare);
  if (listed !== undefined) {
    fail(
      check,
      ['emoji'],
      `${rules.title} takes only the exact strings of its reaction list; got ${excerpt(reply.emoji)} (${codePoints(reply.emoji)}), which it lists as ${listed} (${codePoints(listed)}), ${NOT_SENT}`,
      `Send exactly ${listed} (${codePoints(listed)}): ${rules.title} refuses the same emoji written another way, with U+FE0F added or left out.`,
    );
    return;
  }
  fail(
    check,
    ['emoji'],
    `${rules.title} takes only its ${allowed.length} reaction emoji; got ${excerpt(reply.emoji)}, ${NOT_SENT}`,
    `Use one of: ${allowed.join(' ')}`,
  );
}

/** `U+2764 U+FE0F`: a short text's code points, for messages about invisible differences. */
function codePoints(text: string): string {
  return Array.from(text.slice(0, 32), (char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}

/** Checks a template against what one platform shows. */
export function templatePlatformFindings(index: number, rules: PlatformRules, findings: Finding[], channel: string): void {
  if (support(rules, 'template') === 'no') {
    fail(
      { rules, channel, index, findings, writer: UNKNOWN_WRITER },
      [],
      `${rules.title} shows no message templates, ${NOT_SENT}`,
      'Templates are a WhatsApp feature: send a message reply on other channels.',
    );
  }
}

/** How to fit a long text: split it, with the reply's control (or image) on the message it belongs to. */
function textTooLongHint(reply: MessageReply): string {
  const control =
    reply.buttons !== undefined ? 'the buttons' : reply.list !== undefined ? 'the list' : reply.link !== undefined ? 'the link' : undefined;
  if (control) return `Shorten the text, or split it over several messages and put ${control} on the last one.`;
  if (reply.image !== undefined)
    return 'Shorten the caption, or send the image with a short caption and the rest as a text message after it.';
  return 'Shorten the text, or split it over several messages.';
}

/** The text against the tightest limit that applies; on SMS, the segments it takes. False when it is too long to be sent. */
function textFindings(check: ReplyCheck, reply: MessageReply, text: string): boolean {
  let tightest: { max: number; key: LimitKey; what: string } | undefined;
  for (const { applies, key, what } of TEXT_LIMITS) {
    const max = applies(reply) ? limitOf(check.rules, key) : undefined;
    if (max !== undefined && (tightest === undefined || max < tightest.max)) tightest = { max, key, what };
  }
  const hint = (): string => `${textTooLongHint(reply)}${forModel(check.channel)}`;
  if (tightest && tooLong(check, ['text'], text, tightest.key, tightest.what, hint)) return false;

  const sizes = check.rules.segments;
  if (!sizes) return true;
  const segmentation = smsSegments(text, sizes);
  if (segmentation.segments <= 1) return true;
  const words = { text, segmentation, sizes, maxLength: check.rules.text?.maxLength };
  fail(check, ['text'], smsSegmentMessage(words), `${smsSegmentHint(words)}${forModel(check.channel)}`, 'warning');
  return true;
}

function buttonFindings(check: ReplyCheck, buttons: readonly Button[]): void {
  const { title } = check.rules;
  const limits = check.rules.buttons;
  if (!limits) return;
  overLimit(
    check,
    ['buttons'],
    'buttons.maxCount',
    'items',
    buttons.length,
    (max) => `${buttons.length} buttons; ${title} shows at most ${max}, ${NOT_SENT}`,
    (max) => `Offer at most ${max} buttons, or use a list.${shapingHint(check)}`,
  );
  buttons.forEach((button, b) => {
    // A label-only button is its own id: its label and its id stand at one place.
    const labelOnly = typeof button === 'string';
    const labelPlace = labelOnly ? ['buttons', b] : ['buttons', b, 'label'];
    const idPlace = labelOnly ? ['buttons', b] : ['buttons', b, 'id'];
    const labelTooLong = tooLong(
      check,
      labelPlace,
      buttonLabel(button),
      'buttons.labelMaxLength',
      'the button label',
      () => `Shorten the label.${shapingHint(check)}`,
    );
    if (labelOnly && labelTooLong) return; // one finding for that one place
    const id = buttonId(button);
    tooLong(check, idPlace, id, 'buttons.idMaxLength', 'the button id', 'Use a shorter id, such as a short key for the choice.');
    const bytes = utf8ByteLength(id);
    overLimit(
      check,
      idPlace,
      'buttons.idMaxBytes',
      'utf8-bytes',
      bytes,
      (max) => `the button id is ${bytes} bytes long in UTF-8; ${title} takes at most ${max}, ${NOT_SENT}`,
      labelOnly
        ? 'A label-only button uses its label as its id: give it a short { id, label } instead.'
        : 'Use a shorter id, such as a short key for the choice.',
    );
  });
}

function listFindings(check: ReplyCheck, list: NonNullable<MessageReply['list']>): void {
  const { title } = check.rules;
  const limits = check.rules.list;
  if (!limits) return;
  const { sections } = list;
  overLimit(
    check,
    ['list', 'sections'],
    'list.maxSections',
    'sections',
    sections.length,
    (max) => `${sections.length} sections; ${title} shows at most ${max}, ${NOT_SENT}`,
    'Merge sections.',
  );
  const rows = sections.reduce((count, section) => count + section.rows.length, 0);
  overLimit(
    check,
    ['list', 'sections'],
    'list.maxRows',
    'rows',
    rows,
    (max) => `${rows} rows in all sections together; ${title} shows at most ${max}, ${NOT_SENT}`,
    'Offer fewer rows, or ask a narrowing question first.',
  );
  tooLong(check, ['list', 'button'], list.button, 'list.buttonMaxLength', "the list's opener label (button)", 'Shorten the label.');
  sections.forEach((section, s) => {
    if (section.title !== undefined) {
      tooLong(
        check,
        ['list', 'sections', s, 'title'],
        section.title,
        'list.sectionTitleMaxLength',
        'the section title',
        'Shorten the title.',
      );
    } else if (limits.sectionTitleRequiredWhenSeveral && sections.length > 1) {
      fail(
        check,
        ['list', 'sections', s],
        `a section has no title; ${title} needs one on every section when a list has more than one, ${NOT_SENT}`,
        'Give each section a "title".',
      );
    }
    section.rows.forEach((row, r) => {
      for (const { field, key, what, hint } of ROW_LIMITS) {
        const text = row[field];
        if (text !== undefined) tooLong(check, ['list', 'sections', s, 'rows', r, field], text, key, what, hint);
      }
    });
  });
}

function imageFindings(check: ReplyCheck, image: { data: string; mime: string }): void {
  const { title } = check.rules;
  const limits = check.rules.image;
  if (!limits) return;
  if (limits.mimeTypes && !limits.mimeTypes.includes(image.mime)) {
    fail(
      check,
      ['image', 'mime'],
      `${title} takes images of type ${limits.mimeTypes.join(' or ')}; got ${excerpt(image.mime)}, ${NOT_SENT}`,
      `Convert the image to ${limits.mimeTypes.join(' or ')}.`,
    );
  }
  const bytes = base64DecodedLength(image.data);
  overLimit(
    check,
    ['image', 'data'],
    'image.maxBytes',
    'bytes',
    bytes,
    (max) => `the image is ${bytes} bytes; ${title} takes at most ${max} bytes, ${NOT_SENT}`,
    'Send a smaller or more compressed image.',
  );
}
