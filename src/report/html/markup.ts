/**
 * Markup built only through the `h` template tag: every interpolated string is escaped, for
 * element text and for (always quoted) attribute values alike. Only markup that `h` itself made
 * passes through unescaped. Agent answers are hostile input; nothing they hold is ever raw HTML.
 */

/** Markup made by `h`: safe to put into a page as it is. */
export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What may go into `h`: markup as it is; strings and numbers escaped; nothing for null, undefined and false. */
export type Interpolation = Markup | string | number | null | undefined | false | readonly Interpolation[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Markup) return value.value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return escapeHtml(value);
  let out = '';
  for (const item of value) out += render(item);
  return out;
}

/**
 * The template tag: h`<p title="${title}">${text}</p>` escapes `title` and `text`. (Not named `html`,
 * so that prettier leaves the markup in these templates as it is written.)
 */
export function h(strings: TemplateStringsArray, ...values: Interpolation[]): Markup {
  let out = strings[0]!;
  for (let index = 0; index < values.length; index++) out += render(values[index]!) + strings[index + 1]!;
  return new Markup(out);
}

/** A fragment id from any text: only ASCII letters, digits, `_` and `-` (the rest become `-`). */
export function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 200) || '-';
}
