/** The words of an HTML error page, without its markup: what a person would read first. */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Markup out, entities decoded, white space collapsed. */
function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text of an HTML page's `<title>`, or of its first `<h1>` when the title is missing or empty. */
export function htmlTitle(body: string): string | undefined {
  for (const tag of ['title', 'h1']) {
    const inner = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}\\s*>`, 'i').exec(body)?.[1];
    const text = inner === undefined ? '' : plainText(inner);
    if (text) return text;
  }
  return undefined;
}
