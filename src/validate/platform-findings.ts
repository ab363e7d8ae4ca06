import type { Button, MessageReply, ReactionReply } from '../core/answer.js';
import { buttonId, buttonLabel } from '../core/answer.js';
import { type Finding, type Severity, excerpt, replyPointer } from '../core/findings.js';
import { base64DecodedLength, lengthIn, unitName, utf8ByteLength } from '../platforms/counting.js';
import type { CountingUnit } from '../platforms/counting.js';
import { emojiKey } from '../platforms/emoji.js';
import { smsSegments } from '../platforms/sms-segments.js';
import type { UniformRules } from '../platforms/uniform-rules.js';
import type { Support } from '../platforms/platform-rules.js';

const NOT_SENT = 'so this reply is not sent';

/** True when a text surely fits: no limit, or no more UTF-16 code units than the limit (code points are never more). */
function fits(text: string, max: number | undefined): boolean {
  return max === undefined || text.length <= max;
}

/**
 * The findings of one reply on one platform. Built for the common case, a reply that fits: no
 * path, message or list is made unless something is wrong.
 */
class PlatformCheck {
  constructor(
    readonly rules: UniformRules,
    /** The reply's index in `replies`: its pointer is made only for a finding. */
    readonly replyIndex: number,
    readonly findings: Finding[],
  ) {}

  fail(segments: (string | number)[], message: string, hint: string | null, severity: Severity = 'error'): void {
    this.findings.push({ rule: 'platform', severity, message, path: replyPointer(this.replyIndex, ...segments), hint });
  }

  /** A `no` feature: the reply is not sent. */
  unsupported(feature: string, support: Support | undefined, segments: (string | number)[], hint: () => string): boolean {
    if (support !== 'no') return false;
    this.fail(segments, `${this.rules.title} shows no ${feature}, ${NOT_SENT}`, hint());
    return true;
  }

  /** A text over its limit. Counting is skipped where the UTF-16 length already fits (code points never exceed it). */
  tooLong(segments: (string | number)[], text: string, max: number | undefined, what: string, hint: string | null): boolean {
    if (max === undefined || fits(text, max)) return false;
    const unit: CountingUnit = this.rules.counting;
    const length = lengthIn(text, unit);
    if (length <= max) return false;
    this.fail(segments, `${what} is ${length} ${unitName(unit)} long; ${this.rules.title} shows at most ${max}, ${NOT_SENT}`, hint);
    return true;
  }
}

/** Checks a reaction against what one platform shows. Pure: the reply must already match the schema. */
export function reactionPlatformFindings(reply: ReactionReply, replyIndex: number, rules: UniformRules, findings: Finding[]): void {
  if (rules.reaction.support === 'no') {
    new PlatformCheck(rules, replyIndex, findings).unsupported(
      'reactions',
      'no',
      [],
      () => `Leave reactions out on ${rules.title}, or answer with a short message instead.`,
    );
  }
  reactionEmoji(rules, replyIndex, findings, reply.emoji);
}

/** Checks a template against what one platform shows. */
export function templatePlatformFindings(replyIndex: number, rules: UniformRules, findings: Finding[]): void {
  if (rules.template.support === 'no') {
    new PlatformCheck(rules, replyIndex, findings).unsupported(
      'message templates',
      'no',
      [],
      () => 'Templates are a WhatsApp feature: send a message reply on other channels.',
    );
  }
}

/**
 * Checks a message against what one platform shows (its rules made uniform once per answer, see
 * `uniformRules`). Pure: the reply must already match the schema.
 */
export function messagePlatformFindings(reply: MessageReply, replyIndex: number, rules: UniformRules, findings: Finding[]): void {
  message(new PlatformCheck(rules, replyIndex, findings), reply);
}

function reactionEmoji(rules: UniformRules, replyIndex: number, findings: Finding[], emoji: string): void {
  const { support, emoji: allowed, emojiKeys } = rules.reaction;
  if (support !== 'yes' || !Array.isArray(allowed) || !emojiKeys) return;
  if (emojiKeys.has(emoji.includes('\uFE0F') ? emojiKey(emoji) : emoji)) return;
  new PlatformCheck(rules, replyIndex, findings).fail(
    ['emoji'],
    `${rules.title} takes only its ${allowed.length} reaction emoji; got ${excerpt(emoji)}, ${NOT_SENT}`,
    `Use one of: ${rules.reaction.emojiLine}`,
  );
}

function message(check: PlatformCheck, reply: MessageReply): void {
  const { rules } = check;
  // Each field read once: replies come in many shapes, and every read of one costs.
  const { text, buttons: shownButtons, list: shownList, link, image: picture, replyTo } = reply;
  // Only a feature the platform does not show stops the reply; most replies pass these at once.
  if (
    (shownButtons && rules.buttons.support === 'no') ||
    (shownList && rules.list.support === 'no') ||
    (link && rules.link.support === 'no') ||
    (picture && rules.image.support === 'no') ||
    (replyTo !== undefined && rules.replyTo.support === 'no')
  ) {
    const textOnly = () => `Send the options as plain text on ${rules.title}, for example a numbered list the person answers by number.`;
    if (shownButtons) check.unsupported('buttons', rules.buttons.support, ['buttons'], textOnly);
    if (shownList) check.unsupported('lists', rules.list.support, ['list'], textOnly);
    if (link) check.unsupported('link buttons', rules.link.support, ['link'], () => `Put the URL in the text on ${rules.title}.`);
    if (picture)
      check.unsupported('images', rules.image.support, ['image'], () => `Send a link to the image in the text on ${rules.title}.`);
    if (replyTo !== undefined)
      check.unsupported('quoted replies', rules.replyTo.support, ['replyTo'], () => 'Leave out replyTo on this channel.');
    return; // not sent at all: its lengths do not matter
  }
  if (text !== undefined) body(check, text, picture !== undefined, shownButtons !== undefined, shownList !== undefined, link !== undefined);
  if (shownButtons && rules.buttons.support === 'yes') buttons(check, shownButtons);
  if (shownList && rules.list.support === 'yes') list(check, shownList);
  if (link && rules.link.support === 'yes' && rules.link.labelShown !== false && !fits(link.label, rules.link.labelMaxLength)) {
    check.tooLong(['link', 'label'], link.label, rules.link.labelMaxLength, 'the link label', 'Shorten the label.');
  }
  if (picture && 'data' in picture && rules.image.support === 'yes') image(check, picture);
}

/**
 * The text against the tightest limit that applies: plain text, caption (with an image), or body
 * above a control (with buttons, a list or a link).
 */
function body(check: PlatformCheck, text: string, withImage: boolean, withButtons: boolean, withList: boolean, withLink: boolean): void {
  const { rules } = check;
  // The tightest limit that applies, and what it is called.
  let max = rules.text.maxLength;
  let what = 'the text';
  const caption = withImage ? rules.image.captionMaxLength : undefined;
  if (caption !== undefined && (max === undefined || caption < max)) {
    max = caption;
    what = "the image's caption (text)";
  }
  const buttonsBody = withButtons ? rules.buttons.bodyMaxLength : undefined;
  if (buttonsBody !== undefined && (max === undefined || buttonsBody < max)) {
    max = buttonsBody;
    what = 'the body of a message with buttons (text)';
  }
  const listBody = withList ? rules.list.bodyMaxLength : undefined;
  if (listBody !== undefined && (max === undefined || listBody < max)) {
    max = listBody;
    what = 'the body of a message with a list (text)';
  }
  const linkBody = withLink ? rules.link.bodyMaxLength : undefined;
  if (linkBody !== undefined && (max === undefined || linkBody < max)) {
    max = linkBody;
    what = 'the body of a message with a link (text)';
  }
  if (
    !fits(text, max) &&
    check.tooLong(['text'], text, max, what, 'Shorten the text, or split it over several messages and put the control on the last one.')
  ) {
    return;
  }
  const sizes = rules.segments;
  // A text no longer than half a GSM-7 segment and no longer than a UCS-2 one fits one segment either way.
  if (!sizes || text.length === 0 || text.length <= Math.min(sizes.ucs2.single, Math.floor(sizes.gsm7.single / 2))) return;
  const { encoding, segments } = smsSegments(text, sizes);
  if (segments <= 1) return;
  const size = encoding === 'GSM-7' ? sizes.gsm7 : sizes.ucs2;
  check.fail(
    ['text'],
    `the text needs ${segments} SMS segments in ${encoding} (one segment holds ${size.single} ${encoding} characters, each part of a longer message ${size.concatenated})`,
    encoding === 'UCS-2'
      ? 'Every character outside GSM-7 (an emoji, a curly quote) makes the whole text UCS-2; plain characters fit more per segment.'
      : 'Shorter replies cost less and arrive whole.',
    'warning',
  );
}

function buttons(check: PlatformCheck, all: Button[]): void {
  const { rules } = check;
  const limits = rules.buttons;
  if (limits.maxCount !== undefined && all.length > limits.maxCount) {
    check.fail(
      ['buttons'],
      `${all.length} buttons; ${rules.title} shows at most ${limits.maxCount}, ${NOT_SENT}`,
      `Offer at most ${limits.maxCount} buttons, or use a list.`,
    );
  }
  for (let index = 0; index < all.length; index++) {
    const button = all[index]!;
    const labelOnly = typeof button === 'string';
    const label = buttonLabel(button);
    const labelTooLong =
      !fits(label, limits.labelMaxLength) &&
      check.tooLong(
        labelOnly ? ['buttons', index] : ['buttons', index, 'label'],
        label,
        limits.labelMaxLength,
        'the button label',
        'Shorten the label.',
      );
    if (labelOnly && labelTooLong) continue; // a label-only button's id is its label: one finding for that one place
    const id = buttonId(button);
    if (!fits(id, limits.idMaxLength)) {
      check.tooLong(
        idPlace(labelOnly, index),
        id,
        limits.idMaxLength,
        'the button id',
        'Use a shorter id, such as a short key for the choice.',
      );
    }
    // UTF-8 takes at most 3 bytes per UTF-16 code unit: short ids need no counting.
    if (limits.idMaxBytes !== undefined && id.length * 3 > limits.idMaxBytes) {
      const bytes = utf8ByteLength(id);
      if (bytes > limits.idMaxBytes) {
        check.fail(
          idPlace(labelOnly, index),
          `the button id is ${bytes} bytes long in UTF-8; ${rules.title} takes at most ${limits.idMaxBytes}, ${NOT_SENT}`,
          labelOnly
            ? 'A label-only button uses its label as its id: give it a short { id, label } instead.'
            : 'Use a shorter id, such as a short key for the choice.',
        );
      }
    }
  }
}

/** Where a button's id stands: a label-only button is its own id. */
function idPlace(labelOnly: boolean, index: number): (string | number)[] {
  return labelOnly ? ['buttons', index] : ['buttons', index, 'id'];
}

function list(check: PlatformCheck, opened: NonNullable<MessageReply['list']>): void {
  const { rules } = check;
  const limits = rules.list;
  const { sections } = opened;
  if (limits.maxSections !== undefined && sections.length > limits.maxSections) {
    check.fail(
      ['list', 'sections'],
      `${sections.length} sections; ${rules.title} shows at most ${limits.maxSections}, ${NOT_SENT}`,
      'Merge sections.',
    );
  }
  let rows = 0;
  for (const section of sections) rows += section.rows.length;
  if (limits.maxRows !== undefined && rows > limits.maxRows) {
    check.fail(
      ['list', 'sections'],
      `${rows} rows in all sections together; ${rules.title} shows at most ${limits.maxRows}, ${NOT_SENT}`,
      'Offer fewer rows, or ask a narrowing question first.',
    );
  }
  check.tooLong(['list', 'button'], opened.button, limits.buttonMaxLength, "the list's opener label (button)", 'Shorten the label.');
  for (let s = 0; s < sections.length; s++) {
    const section = sections[s]!;
    if (section.title === undefined) {
      if (limits.sectionTitleRequiredWhenSeveral && sections.length > 1) {
        check.fail(
          ['list', 'sections', s],
          `a section has no title; ${rules.title} needs one on every section when a list has more than one, ${NOT_SENT}`,
          'Give each section a "title".',
        );
      }
    } else {
      check.tooLong(
        ['list', 'sections', s, 'title'],
        section.title,
        limits.sectionTitleMaxLength,
        'the section title',
        'Shorten the title.',
      );
    }
    for (let r = 0; r < section.rows.length; r++) {
      const row = section.rows[r]!;
      if (!fits(row.id, limits.rowIdMaxLength)) {
        check.tooLong(['list', 'sections', s, 'rows', r, 'id'], row.id, limits.rowIdMaxLength, 'the row id', 'Use a shorter id.');
      }
      if (!fits(row.title, limits.rowTitleMaxLength))
        check.tooLong(
          ['list', 'sections', s, 'rows', r, 'title'],
          row.title,
          limits.rowTitleMaxLength,
          'the row title',
          'Shorten the title; put details in "description".',
        );
      if (row.description !== undefined && !fits(row.description, limits.rowDescriptionMaxLength)) {
        check.tooLong(
          ['list', 'sections', s, 'rows', r, 'description'],
          row.description,
          limits.rowDescriptionMaxLength,
          'the row description',
          'Shorten the description.',
        );
      }
    }
  }
}

function image(check: PlatformCheck, picture: { data: string; mime: string }): void {
  const { rules } = check;
  const limits = rules.image;
  if (limits.mimeTypes && !limits.mimeTypes.includes(picture.mime)) {
    check.fail(
      ['image', 'mime'],
      `${rules.title} takes images of type ${limits.mimeTypes.join(' or ')}; got ${excerpt(picture.mime)}, ${NOT_SENT}`,
      `Convert the image to ${limits.mimeTypes.join(' or ')}.`,
    );
  }
  const bytes = base64DecodedLength(picture.data);
  if (limits.maxBytes !== undefined && bytes > limits.maxBytes) {
    check.fail(
      ['image', 'data'],
      `the image is ${bytes} bytes; ${rules.title} takes at most ${limits.maxBytes} bytes, ${NOT_SENT}`,
      'Send a smaller or more compressed image.',
    );
  }
}
