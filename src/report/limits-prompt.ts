/**
 * A channel's limits as instructions a language model can follow: a short system-prompt paragraph
 * (`check-endpoint limits CHANNEL --prompt`), and the same as data (`--json`). A Markdown finding
 * fixes one reply; the model writes `**Menu**` again next time unless its instructions say what the
 * channel renders. Every figure comes from the channel's rules (the contract's `x-platforms`, or a
 * --limits file): what it renders, its text limits, its buttons and lists or a numbered list
 * instead, and on SMS the one-segment target and the characters that force UCS-2.
 */
import { MARKDOWN_SYNTAXES, type MarkdownSyntax } from '../platforms/markdown.js';
import { type PlatformRules, support } from '../platforms/platform-rules.js';
import { isGsm7 } from '../platforms/sms-segments.js';

/** What a model is told about one channel, as data: each figure as the rules give it, null where they give none. */
export interface ModelInstructions {
  channel: string;
  title: string;
  /** The paragraph, for a system prompt. */
  prompt: string;
  /** The Markdown it renders and the kinds it shows as typed; null where the rules say nothing of Markdown. */
  markdown: { renders: MarkdownSyntax[]; showsRaw: MarkdownSyntax[]; dialect: string | null; bold: string | null } | null;
  /** The longest text sent, and the length one chat bubble should keep under. */
  maxLength: number | null;
  softLength: number | null;
  /** The buttons it shows, or null where it shows none. */
  buttons: { maxCount: number | null; labelMaxLength: number | null; bodyMaxLength: number | null } | null;
  /** The lists it shows, or null where it shows none. */
  list: { maxRows: number | null; rowTitleMaxLength: number | null } | null;
  /** SMS: one segment's size in each encoding, and characters models write that are outside GSM-7 (each forces UCS-2). */
  sms: { gsm7Single: number; ucs2Single: number; forcesUcs2: string[] } | null;
}

/** How each kind of Markdown is named to a model. */
const SYNTAX_WORDS: Record<MarkdownSyntax, string> = {
  bold: '**bold**',
  heading: '# headings',
  link: '[label](url) links',
  table: 'pipe tables',
  'code-fence': 'code fences (```)',
};

/** Characters models often write; those outside GSM-7 (found by the GSM-7 table, not listed by hand) force UCS-2. */
const MODEL_HABITS = ['\u2014', '\u2013', '\u2019', '\u201C', '\u201D', '\u2026', '\u2022', '\u{1F60A}'];

/** `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function markdownSentence(title: string, markdown: NonNullable<ModelInstructions['markdown']>): string {
  const { renders, showsRaw, dialect, bold } = markdown;
  const raw = listed(showsRaw.map((syntax) => SYNTAX_WORDS[syntax]));
  const own = bold !== null && !renders.includes('bold') ? [`${bold}bold${bold} (one ${bold} on each side)`] : [];
  const shown = [...own, ...renders.map((syntax) => SYNTAX_WORDS[syntax])];
  if (shown.length === 0) return `${title} shows plain text only: write no Markdown at all (${raw} are shown as typed).`;
  const renders_ = `${title} renders ${dialect !== null ? `${dialect}: ` : ''}${listed(shown)}`;
  return showsRaw.length === 0 ? `${renders_}.` : `${renders_}; it shows ${raw} as typed, so never write them.`;
}

function lengthSentence(instructions: ModelInstructions): string | undefined {
  const { maxLength, softLength, sms } = instructions;
  const parts: string[] = [];
  if (sms !== null) {
    parts.push(
      `Aim for one SMS segment: at most ${sms.gsm7Single} characters of plain text. One character outside the GSM-7 alphabet (such as ${sms.forcesUcs2.join(' ')}) makes the whole message UCS-2, where a segment holds only ${sms.ucs2Single}: write straight quotes, a plain hyphen and three dots instead, and no emoji.`,
    );
  }
  if (softLength !== null) {
    parts.push(
      `Keep each message under ${softLength} characters, like a chat bubble; split a longer answer into short paragraphs separated by a blank line, each sent as its own message.`,
    );
  }
  if (maxLength !== null) parts.push(`A message over ${maxLength} characters is not sent.`);
  return parts.length ? parts.join(' ') : undefined;
}

function choicesSentence({ title, buttons, list }: ModelInstructions): string {
  if (buttons === null && list === null) {
    return `${title} shows no buttons or lists: write the options as a numbered list and ask the person to answer with the number.`;
  }
  const parts: string[] = [];
  if (buttons !== null) {
    const count = buttons.maxCount !== null ? ` (at most ${buttons.maxCount})` : '';
    const label = buttons.labelMaxLength !== null ? `, each label at most ${buttons.labelMaxLength} characters` : '';
    const body = buttons.bodyMaxLength !== null ? `, the question above them at most ${buttons.bodyMaxLength} characters` : '';
    parts.push(`Offer choices as buttons${count}${label}${body}`);
  }
  if (list !== null) {
    const rows = list.maxRows !== null ? ` of at most ${list.maxRows} rows` : '';
    const title_ = list.rowTitleMaxLength !== null ? `, each row title at most ${list.rowTitleMaxLength} characters` : '';
    parts.push(`${buttons !== null ? 'more' : 'choices'} as a list${rows}${title_}`);
  } else parts.push(`no lists: for more choices, a numbered list the person answers by number`);
  return `${parts.join('; ')}.`;
}

/** What a model is told about one channel, from its rules. */
export function modelInstructions(channel: string, rules: PlatformRules): ModelInstructions {
  const markdown = rules.markdown
    ? {
        renders: [...rules.markdown.renders],
        showsRaw: MARKDOWN_SYNTAXES.filter((syntax) => !rules.markdown!.renders.includes(syntax)),
        dialect: rules.markdown.dialect ?? null,
        bold: rules.markdown.bold ?? null,
      }
    : null;
  const shows = (feature: 'buttons' | 'list'): boolean => support(rules, feature) === 'yes';
  const instructions: ModelInstructions = {
    channel,
    title: rules.title,
    prompt: '',
    markdown,
    maxLength: rules.text?.maxLength ?? null,
    softLength: rules.text?.softLength ?? null,
    buttons: shows('buttons')
      ? {
          maxCount: rules.buttons?.maxCount ?? null,
          labelMaxLength: rules.buttons?.labelMaxLength ?? null,
          bodyMaxLength: rules.buttons?.bodyMaxLength ?? null,
        }
      : null,
    list: shows('list') ? { maxRows: rules.list?.maxRows ?? null, rowTitleMaxLength: rules.list?.rowTitleMaxLength ?? null } : null,
    sms: rules.segments
      ? {
          gsm7Single: rules.segments.gsm7.single,
          ucs2Single: rules.segments.ucs2.single,
          forcesUcs2: MODEL_HABITS.filter((character) => !Array.from(character).every(isGsm7)),
        }
      : null,
  };
  const sentences = [
    `You write the messages this agent sends on ${rules.title}.`,
    markdown !== null ? markdownSentence(rules.title, markdown) : undefined,
    lengthSentence(instructions),
    choicesSentence(instructions),
  ];
  return { ...instructions, prompt: sentences.filter((sentence) => sentence !== undefined).join(' ') };
}
