/**
 * quality/long-input: any text a person can send is answered. One conversation of two messages: a
 * 4096-character one (WhatsApp's and Telegram's longest), then one mixing right-to-left text,
 * combining marks and emoji joined with U+200D. Each must be answered 200 with a valid answer
 * (rule `long-input` when none came). Runs on every channel.
 */
import type { QualityCase } from '../case.js';
import { withCaseRule } from './case-rule.js';

/** Code points in the long message (ASCII, so also UTF-16 units and bytes). */
export const LONG_INPUT_LENGTH = 4096;

const SENTENCE =
  'hi, i am planning a surprise dinner for my parents next friday and wanted to ask about your menu, allergies, parking and the quiet corner tables. ';

/** The long message: a person's rambling text, exactly 4096 characters. */
export const LONG_TEXT = SENTENCE.repeat(Math.ceil(LONG_INPUT_LENGTH / SENTENCE.length)).slice(0, LONG_INPUT_LENGTH);

/**
 * Arabic and Hebrew (right-to-left, with a right-to-left mark), Latin with combining marks
 * (e + U+0301, Zalgo-style stacks), and emoji sequences joined with U+200D (a family, a technologist
 * with a skin tone, a rainbow flag).
 */
export const MIXED_TEXT =
  '\u0645\u0631\u062D\u0628\u0627! \u05E9\u05DC\u05D5\u05DD \u200F\u2014 can i order a cafe\u0301 au lait? Z\u0351\u0307\u0303a\u0308\u0324l\u0346g\u0350o\u0301 ' +
  '\u{1F469}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466} \u{1F468}\u{1F3FD}\u200D\u{1F4BB} \u{1F3F3}\u{FE0F}\u200D\u{1F308}';

const INPUTS = [
  { text: LONG_TEXT, sent: `a ${LONG_INPUT_LENGTH}-character message` },
  { text: MIXED_TEXT, sent: 'a message mixing right-to-left text, combining marks and ZWJ emoji' },
] as const;

const HINT =
  'Accept any text the platform delivers: up to 4096 characters, in any script, with combining marks and emoji joined by U+200D. Do not cap the request size below that, reject non-Latin text, or cut strings by UTF-16 units.';

export const longInput: QualityCase<'quality/long-input'> = {
  id: 'quality/long-input',
  description: 'A 4096-character message, and one mixing scripts, combining marks and joined emoji, are answered.',
  scope: 'channel',
  group: 'quality',
  order: 60,
  doc: {
    runs: 'every channel',
    sends: 'a 4096-character message, then one mixing Arabic and Hebrew, combining marks and ZWJ emoji',
    finding: 'each must get `200` and a valid answer (`long-input`)',
  },
  rules: [{ id: 'long-input' }],
  async run(context) {
    const conversation = context.openConversation();
    for (const input of INPUTS) {
      await context.exchange({
        conversation,
        message: { text: input.text },
        expectsReply: true,
        judge: { refine: (judged) => withCaseRule(judged, context.settings.timeoutSeconds, 'long-input', input.sent, HINT) },
      });
    }
  },
};
