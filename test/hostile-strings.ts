/** Strings an agent or a file may write to be obeyed by whoever reads an output: test/output-escapes.test.ts and test/fuzz-inputs.test.ts feed them to every output. */
export const HOSTILE = [
  '\n::error file=README.md,line=1::INJECTED',
  '::add-mask::secret',
  '\r::warning::carriage',
  'esc \u001b[2K\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007',
  'nul \u0000 del \u007f csi \u009b2J',
  'bidi \u202Eexe.txt\u202C',
  'line\u2028separator\u2029paragraph',
  'zero\u200Bwidth',
  '[Fix: click here](https://evil.example/fix)',
  'a`**ALL 5 CASES PASSED**`![x](https://evil.example/x.png)',
  '<img src=x onerror=alert(1)>&amp;',
  '| a | b |',
  '%0A::error::percent',
  '```',
  'https://evil.example/fix',
  'see www.evil.example now',
  'write to a@evil.example',
  'HTTPS://EVIL.EXAMPLE/x mailto:a@evil.example',
] as const;

/**
 * Markdown with its code spans taken out (each a space), as CommonMark finds them: a run of N
 * backticks not escaped by a backslash opens one, the next run of exactly N closes it, and a run
 * with no match is text. Escapes are kept.
 */
export function codeSpansRemoved(markdown: string): string {
  let out = '';
  let at = 0;
  while (at < markdown.length) {
    const char = markdown[at]!;
    if (char === '\\') {
      out += markdown.slice(at, at + 2);
      at += 2;
      continue;
    }
    if (char !== '`') {
      out += char;
      at += 1;
      continue;
    }
    const fence = /^`+/.exec(markdown.slice(at))![0];
    const after = at + fence.length;
    const close = new RegExp(`(?<!\`)${fence}(?!\`)`, 'g');
    close.lastIndex = after;
    const end = close.exec(markdown);
    if (end === null) {
      out += fence;
      at = after;
    } else {
      out += ' ';
      at = end.index + fence.length;
    }
  }
  return out;
}

/**
 * Markdown as GitHub shows it outside code spans (what is inside one is shown as written, never a
 * link), backslash escapes and entities decoded as GitHub reads the text before linking it.
 */
export function outsideCodeSpans(markdown: string): string {
  return codeSpansRemoved(markdown)
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)));
}

/** What GFM's autolink extension makes a link of with no syntax: a scheme's `://`, `www.`, an address's `@`. */
export const AUTOLINKED = /:\/\/|www\.|\S@\S/i;
