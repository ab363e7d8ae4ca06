import type { MessageReply, Reply } from '../answer.js';
import { buttonId, buttonLabel } from '../answer.js';
import { type Finding, error, excerpt, pointer, warning } from '../findings.js';
import { base64DecodedLength, lengthIn, unitName, utf8ByteLength } from '../platforms/counting.js';
import { emojiKey } from '../platforms/emoji.js';
import { smsSegments } from '../platforms/sms-segments.js';
import type { PlatformRules, Support } from '../spec/contract.js';

const NOT_SENT = 'so this reply is not sent';

/** Checks one reply against what one platform shows. Pure: the reply must already match the schema. */
export function platformFindings(reply: Reply, replyPath: string, rules: PlatformRules): Finding[] {
  const unsupported = (feature: string, support: Support | undefined, path: string, hint: string): Finding[] =>
    support === 'no' ? [error('platform', path, `${rules.title} shows no ${feature}, ${NOT_SENT}`, hint)] : [];
  switch (reply.type) {
    case 'reaction':
      return [
        ...unsupported(
          'reactions',
          rules.reaction?.support,
          replyPath,
          `Leave reactions out on ${rules.title}, or answer with a short message instead.`,
        ),
        ...reactionEmojiFindings(reply.emoji, pointer(replyPath, 'emoji'), rules),
      ];
    case 'template':
      return unsupported(
        'message templates',
        rules.template?.support ?? 'no',
        replyPath,
        'Templates are a WhatsApp feature: send a message reply on other channels.',
      );
    case 'message':
      return messageFindings(reply, replyPath, rules, unsupported);
  }
}

function reactionEmojiFindings(emoji: string, path: string, rules: PlatformRules): Finding[] {
  const allowed = rules.reaction?.emoji;
  if (rules.reaction?.support !== 'yes' || !Array.isArray(allowed)) return [];
  if (allowed.some((candidate) => emojiKey(candidate) === emojiKey(emoji))) return [];
  return [
    error(
      'platform',
      path,
      `${rules.title} takes only its ${allowed.length} reaction emoji; got ${excerpt(emoji)}, ${NOT_SENT}`,
      `Use one of: ${allowed.join(' ')}`,
    ),
  ];
}

interface LengthLimit {
  max: number | undefined;
  what: string;
}

function tooLong(
  rules: PlatformRules,
  path: string,
  text: string,
  limit: LengthLimit,
  hint: string | null,
  unit = rules.counting,
): Finding[] {
  if (limit.max === undefined) return [];
  const length = lengthIn(text, unit);
  if (length <= limit.max) return [];
  return [
    error(
      'platform',
      path,
      `${limit.what} is ${length} ${unitName(unit)} long; ${rules.title} shows at most ${limit.max}, ${NOT_SENT}`,
      hint,
    ),
  ];
}

function messageFindings(
  reply: MessageReply,
  replyPath: string,
  rules: PlatformRules,
  unsupported: (feature: string, support: Support | undefined, path: string, hint: string) => Finding[],
): Finding[] {
  const findings: Finding[] = [];
  const textOnly = `Send the options as plain text on ${rules.title}, for example a numbered list the person answers by number.`;
  if (reply.buttons) findings.push(...unsupported('buttons', rules.buttons?.support, pointer(replyPath, 'buttons'), textOnly));
  if (reply.list) findings.push(...unsupported('lists', rules.list?.support, pointer(replyPath, 'list'), textOnly));
  if (reply.link)
    findings.push(
      ...unsupported('link buttons', rules.link?.support, pointer(replyPath, 'link'), `Put the URL in the text on ${rules.title}.`),
    );
  if (reply.image)
    findings.push(
      ...unsupported(
        'images',
        rules.image?.support,
        pointer(replyPath, 'image'),
        `Send a link to the image in the text on ${rules.title}.`,
      ),
    );
  if (reply.replyTo !== undefined)
    findings.push(
      ...unsupported('quoted replies', rules.replyTo?.support, pointer(replyPath, 'replyTo'), 'Leave out replyTo on this channel.'),
    );
  if (findings.length > 0) return findings; // not sent at all: its lengths do not matter

  if (reply.text !== undefined) findings.push(...bodyFindings(reply, reply.text, pointer(replyPath, 'text'), rules));
  if (reply.buttons && rules.buttons?.support === 'yes')
    findings.push(...buttonFindings(reply.buttons, pointer(replyPath, 'buttons'), rules));
  if (reply.list && rules.list?.support === 'yes') findings.push(...listFindings(reply.list, pointer(replyPath, 'list'), rules));
  if (reply.link && rules.link?.support === 'yes' && rules.link.labelShown !== false) {
    findings.push(
      ...tooLong(
        rules,
        pointer(replyPath, 'link', 'label'),
        reply.link.label,
        { max: rules.link.labelMaxLength, what: 'the link label' },
        'Shorten the label.',
      ),
    );
  }
  if (reply.image && 'data' in reply.image && rules.image?.support === 'yes')
    findings.push(...imageFindings(reply.image, pointer(replyPath, 'image'), rules));
  return findings;
}

/** The text against the tightest limit that applies: plain text, caption, or body above a control. */
function bodyFindings(reply: MessageReply, text: string, path: string, rules: PlatformRules): Finding[] {
  const limits: LengthLimit[] = [{ max: rules.text?.maxLength, what: 'the text' }];
  if (reply.image) limits.push({ max: rules.image?.captionMaxLength, what: "the image's caption (text)" });
  if (reply.buttons) limits.push({ max: rules.buttons?.bodyMaxLength, what: 'the body of a message with buttons (text)' });
  if (reply.list) limits.push({ max: rules.list?.bodyMaxLength, what: 'the body of a message with a list (text)' });
  if (reply.link) limits.push({ max: rules.link?.bodyMaxLength, what: 'the body of a message with a link (text)' });
  const tightest = limits
    .filter((limit): limit is { max: number; what: string } => limit.max !== undefined)
    .sort((a, b) => a.max - b.max)[0];
  const findings = tightest
    ? tooLong(rules, path, text, tightest, 'Shorten the text, or split it over several messages and put the control on the last one.')
    : [];
  if (findings.length === 0 && rules.segments && text.length > 0) {
    const { encoding, segments } = smsSegments(text, rules.segments);
    if (segments > 1) {
      const size = encoding === 'GSM-7' ? rules.segments.gsm7 : rules.segments.ucs2;
      findings.push(
        warning(
          'platform',
          path,
          `the text needs ${segments} SMS segments in ${encoding} (one segment holds ${size.single} ${encoding} characters, each part of a longer message ${size.concatenated})`,
          encoding === 'UCS-2'
            ? 'Every character outside GSM-7 (an emoji, a curly quote) makes the whole text UCS-2; plain characters fit more per segment.'
            : 'Shorter replies cost less and arrive whole.',
        ),
      );
    }
  }
  return findings;
}

function buttonFindings(buttons: NonNullable<MessageReply['buttons']>, path: string, rules: PlatformRules): Finding[] {
  const limits = rules.buttons!;
  const findings: Finding[] = [];
  if (limits.maxCount !== undefined && buttons.length > limits.maxCount) {
    findings.push(
      error(
        'platform',
        path,
        `${buttons.length} buttons; ${rules.title} shows at most ${limits.maxCount}, ${NOT_SENT}`,
        `Offer at most ${limits.maxCount} buttons, or use a list.`,
      ),
    );
  }
  buttons.forEach((button, index) => {
    const labelPath = typeof button === 'string' ? pointer(path, index) : pointer(path, index, 'label');
    const idPath = typeof button === 'string' ? pointer(path, index) : pointer(path, index, 'id');
    findings.push(
      ...tooLong(rules, labelPath, buttonLabel(button), { max: limits.labelMaxLength, what: 'the button label' }, 'Shorten the label.'),
    );
    const sameField = idPath === labelPath && findings.some((finding) => finding.path === idPath);
    if (!sameField) {
      findings.push(
        ...tooLong(
          rules,
          idPath,
          buttonId(button),
          { max: limits.idMaxLength, what: 'the button id' },
          'Use a shorter id, such as a short key for the choice.',
        ),
      );
      if (limits.idMaxBytes !== undefined) {
        const bytes = utf8ByteLength(buttonId(button));
        if (bytes > limits.idMaxBytes) {
          findings.push(
            error(
              'platform',
              idPath,
              `the button id is ${bytes} bytes long in UTF-8; ${rules.title} takes at most ${limits.idMaxBytes}, ${NOT_SENT}`,
              typeof button === 'string'
                ? 'A label-only button uses its label as its id: give it a short { id, label } instead.'
                : 'Use a shorter id, such as a short key for the choice.',
            ),
          );
        }
      }
    }
  });
  return findings;
}

function listFindings(list: NonNullable<MessageReply['list']>, path: string, rules: PlatformRules): Finding[] {
  const limits = rules.list!;
  const findings: Finding[] = [];
  const sectionsPath = pointer(path, 'sections');
  if (limits.maxSections !== undefined && list.sections.length > limits.maxSections) {
    findings.push(
      error(
        'platform',
        sectionsPath,
        `${list.sections.length} sections; ${rules.title} shows at most ${limits.maxSections}, ${NOT_SENT}`,
        'Merge sections.',
      ),
    );
  }
  const rows = list.sections.reduce((sum, section) => sum + section.rows.length, 0);
  if (limits.maxRows !== undefined && rows > limits.maxRows) {
    findings.push(
      error(
        'platform',
        sectionsPath,
        `${rows} rows in all sections together; ${rules.title} shows at most ${limits.maxRows}, ${NOT_SENT}`,
        'Offer fewer rows, or ask a narrowing question first.',
      ),
    );
  }
  findings.push(
    ...tooLong(
      rules,
      pointer(path, 'button'),
      list.button,
      { max: limits.buttonMaxLength, what: "the list's opener label (button)" },
      'Shorten the label.',
    ),
  );
  list.sections.forEach((section, s) => {
    const sectionPath = pointer(sectionsPath, s);
    if (section.title === undefined) {
      if (limits.sectionTitleRequiredWhenSeveral && list.sections.length > 1) {
        findings.push(
          error(
            'platform',
            sectionPath,
            `a section has no title; ${rules.title} needs one on every section when a list has more than one, ${NOT_SENT}`,
            'Give each section a "title".',
          ),
        );
      }
    } else {
      findings.push(
        ...tooLong(
          rules,
          pointer(sectionPath, 'title'),
          section.title,
          { max: limits.sectionTitleMaxLength, what: 'the section title' },
          'Shorten the title.',
        ),
      );
    }
    section.rows.forEach((row, r) => {
      const rowPath = pointer(sectionPath, 'rows', r);
      findings.push(
        ...tooLong(rules, pointer(rowPath, 'id'), row.id, { max: limits.rowIdMaxLength, what: 'the row id' }, 'Use a shorter id.'),
      );
      findings.push(
        ...tooLong(
          rules,
          pointer(rowPath, 'title'),
          row.title,
          { max: limits.rowTitleMaxLength, what: 'the row title' },
          'Shorten the title; put details in "description".',
        ),
      );
      if (row.description !== undefined) {
        findings.push(
          ...tooLong(
            rules,
            pointer(rowPath, 'description'),
            row.description,
            { max: limits.rowDescriptionMaxLength, what: 'the row description' },
            'Shorten the description.',
          ),
        );
      }
    });
  });
  return findings;
}

function imageFindings(image: { data: string; mime: string }, path: string, rules: PlatformRules): Finding[] {
  const limits = rules.image!;
  const findings: Finding[] = [];
  if (limits.mimeTypes && !limits.mimeTypes.includes(image.mime)) {
    findings.push(
      error(
        'platform',
        pointer(path, 'mime'),
        `${rules.title} takes images of type ${limits.mimeTypes.join(' or ')}; got ${excerpt(image.mime)}, ${NOT_SENT}`,
        `Convert the image to ${limits.mimeTypes.join(' or ')}.`,
      ),
    );
  }
  const bytes = base64DecodedLength(image.data);
  if (limits.maxBytes !== undefined && bytes > limits.maxBytes) {
    findings.push(
      error(
        'platform',
        pointer(path, 'data'),
        `the image is ${bytes} bytes; ${rules.title} takes at most ${limits.maxBytes} bytes, ${NOT_SENT}`,
        'Send a smaller or more compressed image.',
      ),
    );
  }
  return findings;
}
