/**
 * Markdown a platform shows raw (rule `platform`, a warning): each kind found in a reply's text that
 * the platform's rules (`x-platforms.*.markdown`) do not list as rendered, once, saying what the
 * person sees instead and how to write it for that platform.
 */
import { type Finding, excerpt, replyPointer, warning } from '../core/findings.js';
import { type MarkdownSyntax, markdownIn } from '../platforms/markdown.js';
import type { PlatformRules } from '../platforms/platform-rules.js';
import { forModel } from './prompt-command.js';

/** What each kind of Markdown looks like shown raw, and how to write it instead (`sample` is the first one found). */
const MARKDOWN_SHOWN_RAW: Record<
  MarkdownSyntax,
  { what: string; seen: string; instead: (title: string, bold: string | undefined, sample: string) => string }
> = {
  bold: {
    what: 'Markdown bold',
    seen: 'the asterisks around the words',
    instead: (title, bold, sample) => {
      const words = sample.slice(2, -2);
      return bold
        ? `${title}'s own bold is ${bold}bold${bold}: write ${bold}${words}${bold}.`
        : `${title} shows no bold: write ${words} without the asterisks.`;
    },
  },
  heading: {
    what: 'a Markdown heading',
    seen: 'the # signs at the start of the line',
    instead: (title, bold, sample) => {
      const words = sample.replace(/^ *#+[ \t]+/, '');
      return `${title} shows no headings: write ${JSON.stringify(words)} as a plain line${bold ? `, or in bold: ${bold}${words}${bold}` : ''}.`;
    },
  },
  link: {
    what: 'a Markdown link',
    seen: 'the brackets, and the URL in parentheses',
    instead: (title, _bold, sample) => {
      const [, label, url] = /^\[(.*)\]\((.*)\)$/.exec(sample) ?? [];
      return `Write the URL itself${label && url ? ` (${label}: ${url})` : ''}: ${title} shows a bare URL as a link.`;
    },
  },
  table: {
    what: 'a Markdown table',
    seen: 'the pipes and dashes, not a table',
    instead: (title) => `${title} shows no tables: write one line per row, such as "Latte: $5".`,
  },
  'code-fence': {
    what: 'a Markdown code fence',
    seen: 'the ``` lines',
    instead: (title) => `${title} shows no code blocks: leave out the fence lines.`,
  },
};

/** Markdown the platform does not render in reply `index`'s text: one warning per kind, saying what the person sees instead. */
export function markdownFindings(text: string, index: number, rules: PlatformRules, channel: string, findings: Finding[]): void {
  const markdown = rules.markdown;
  if (!markdown) return;
  const { title } = rules;
  for (const { syntax, sample } of markdownIn(text)) {
    if (markdown.renders.includes(syntax)) continue;
    const { what, seen, instead } = MARKDOWN_SHOWN_RAW[syntax];
    findings.push(
      warning(
        'platform',
        replyPointer(index, 'text'),
        `the text holds ${what} (${excerpt(sample)}); ${title} does not render it, so the person sees ${seen}`,
        `${instead(title, markdown.bold, sample)}${forModel(channel)}`,
      ),
    );
  }
}
