/**
 * Text from an agent or a file (a reply, a button's id, a property name, a scenario's id, a limits
 * file's title) made safe for each output, one function per kind: it is shown, never obeyed. The
 * terminal and CI log, a GitHub workflow command (an annotation), the step summary's Markdown, and
 * HTML. test/output-escapes.test.ts feeds each the same hostile strings.
 */
import { printable } from '../core/unsafe-text.js';
import { escapeHtml } from './html/markup.js';

/** For the terminal or a CI log: control characters (ESC, a line break that would start `::error`), bidi and zero-width characters as escapes. */
export function forTerminal(text: string): string {
  return printable(text);
}

/** For a workflow command's message (`::error title=…::MESSAGE`): on one line, `%`, CR and LF as the runner's own escapes. */
export function forWorkflowCommand(text: string): string {
  return text
    .split('\n')
    .map((line) => printable(line).replace(/%/g, '%25'))
    .join('%0A');
}

/** For a workflow command's property (`title=…`): as a message, and `:` and `,` escaped, which end a property. */
export function forWorkflowProperty(text: string): string {
  return forWorkflowCommand(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * ASCII punctuation Markdown (GitHub's) reads as syntax anywhere in a line: links, images, emphasis,
 * code, HTML, tables, strikethrough, entities; and at a line's start, a heading or a list item.
 */
const MARKDOWN_SYNTAX = /[\\`*_{}[\]()<>!|~&]|^[#+-]/g;

/**
 * What makes a word a link in GitHub's Markdown with no syntax at all (GFM's autolink extension): a
 * scheme's `://`, `www.`, an address's `@` (and `mailto:`, `xmpp:`). No escape of a character stops
 * every one of them: cmark-gfm links an address after escapes and entities are decoded
 * (`a\@evil.example` and `a&#64;evil.example` are links), and GitHub links `https\://…` and
 * `www&#46;…` a second time, on the text as it reads. A code span is not text to either: a word
 * holding one of these is shown as code, the same characters.
 */
const LINKABLE = /:\/\/|www\.|@|mailto:|xmpp:/i;

/**
 * For the step summary's Markdown, as plain text in a line or a list item: on one line, every
 * character Markdown would read as syntax backslash-escaped, so `[Fix](https://…)`, an image,
 * `**bold**` and HTML show as written, and a word GitHub would make a link of by itself
 * (`https://evil.example/fix`, `www.evil.example`, `a@evil.example`) as code, so none is a link.
 * (Split into words and tested word by word: linear in the text's length.)
 */
export function forMarkdown(text: string): string {
  const words = printable(text.replace(/\s+/g, ' ')).split(' ');
  return words
    .map((word, at) => {
      if (LINKABLE.test(word)) return forMarkdownCode(word);
      const escaped = word.replace(MARKDOWN_SYNTAX, (char) => `\\${char}`);
      // Only the line's first word starts a heading or a list item.
      return at === 0 ? escaped : escaped.replace(/^\\([#+-])/, '$1');
    })
    .join(' ');
}

/** For the step summary's Markdown, as code (`` `/replies/0/x` ``): a fence longer than any run of backticks in it, so none closes it early. */
export function forMarkdownCode(text: string): string {
  const line = printable(text.replace(/\s+/g, ' '));
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const padded = line.startsWith('`') || line.endsWith('`') ? ` ${line} ` : line;
  return `${fence}${padded}${fence}`;
}

/** For HTML, text or an attribute's value: `&`, `<`, `>`, `"` and `'` as entities. */
export function forHtml(text: string): string {
  return escapeHtml(text);
}
