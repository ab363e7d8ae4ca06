/**
 * Markdown syntax in a text, as language models write it by habit: the five kinds a platform may
 * show raw. Each detector wants the syntax whole, so plain text that only holds its characters (a
 * lone `*` or `#`, a price list `$5 | $7`, a URL with brackets) is not taken for it.
 */

/** The Markdown syntax the checker looks for; `x-platforms` lists the ones each platform renders. */
export const MARKDOWN_SYNTAXES = ['bold', 'heading', 'link', 'table', 'code-fence'] as const;
export type MarkdownSyntax = (typeof MARKDOWN_SYNTAXES)[number];

export const MARKDOWN_DETECTORS: Readonly<Record<MarkdownSyntax, RegExp>> = {
  // `**bold**`: two asterisks, text that neither starts nor ends with a space, two asterisks.
  bold: /\*\*(?=[^\s*])[^*\n]*?[^\s*]\*\*|\*\*[^\s*]\*\*/,
  // `# Heading`: one to six # at the start of a line (up to three spaces in), a space, then words.
  heading: /^ {0,3}#{1,6}[ \t]+\S.*$/m,
  // `[label](url)`: a label in brackets right before a URL in parentheses. (The patterns here are
  // written to take time in proportion to the text, whatever it holds: a hostile text is long. The
  // URL holds no `[`, but for an IPv6 host, so a URL never runs on into the next label's bracket.)
  link: /\[[^[\]\n]+\]\((?:https?:\/\/(?:\[[0-9A-Fa-f:.]{2,45}\])?|mailto:|www\.)[^\s)[]*\)/,
  // A pipe table: a line with a pipe, then a delimiter row of at least two columns (`|---|:--:|`).
  // (Its end is `(?:\| *)?$`, not `\|? *$`: two runs of spaces side by side split a long run in
  // every way, a time that grows with the square of its length.)
  table: /^[^\n|]*\|[^\n]*\n {0,3}\|? *:?-+:? *(?:\| *:?-+:? *)+(?:\| *)?$/m,
  // A code fence: three backticks or tildes at the start of a line.
  'code-fence': /^ {0,3}(?:`{3,}|~{3,})/m,
};

/** One kind of Markdown found in a text, with the first place it was found. */
export interface MarkdownFound {
  syntax: MarkdownSyntax;
  /** The text of the first match (its first line). */
  sample: string;
}

/** A character every kind of Markdown above needs. */
const MARKDOWN_CHARACTER = /[*#[|`~]/;

/** The kinds of Markdown syntax a text holds, in MARKDOWN_SYNTAXES' order. */
export function markdownIn(text: string): MarkdownFound[] {
  // Most replies hold none of Markdown's characters: one test instead of five (0.30 to 0.03 µs a text).
  if (!MARKDOWN_CHARACTER.test(text)) return [];
  const found: MarkdownFound[] = [];
  for (const syntax of MARKDOWN_SYNTAXES) {
    const match = MARKDOWN_DETECTORS[syntax].exec(text);
    if (match) found.push({ syntax, sample: match[0].split('\n')[0]!.trim() });
  }
  return found;
}
