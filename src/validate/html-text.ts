/**
 * What an HTML error page says, in words: its title (or first heading) and the first line of its
 * text, without markup, styles or scripts. Servers answer errors with such pages (express's
 * `<pre>PayloadTooLargeError: request entity too large<br> &nbsp;at …</pre>`, nginx's
 * `<h1>413 Request Entity Too Large</h1>`, Django's debug page); a finding quotes their words, not
 * their first 120 characters of markup. Linear in the page's length, whatever the page.
 */

import { REDACTED } from '../http/redact.js';

/** Pages are read this far at most: the words that name an error come first. */
const READ_AT_MOST = 256 * 1024;
/** A line quoted from a page is cut to this many characters. */
const LINE_AT_MOST = 160;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', hellip: '…', mdash: '—' };

/** Tags whose content is never text to read. */
const SKIPPED = new Set(['script', 'style', 'template', 'noscript', 'svg']);
/** Tags that end a line of text. */
const LINE_BREAKING = new Set([
  'br',
  'p',
  'div',
  'pre',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'ul',
  'ol',
  'tr',
  'td',
  'th',
  'table',
  'hr',
  'center',
  'title',
  'head',
  'body',
  'section',
  'header',
  'footer',
  'main',
  'blockquote',
  'dt',
  'dd',
]);

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** One line of page text: entities decoded, runs of white space made one space, cut to a quotable length. */
function cleanLine(raw: string): string {
  const line = decodeEntities(raw).replace(/\s+/g, ' ').trim();
  return line.length > LINE_AT_MOST ? `${line.slice(0, LINE_AT_MOST - 1)}…` : line;
}

interface PageText {
  title: string | undefined;
  heading: string | undefined;
  /** The page's lines of text, in order, the title's excluded. */
  lines: string[];
}

/** Reads a page's title, first heading and lines of text, with one pass over it. */
function readPage(html: string): PageText {
  const page = html.length > READ_AT_MOST ? html.slice(0, READ_AT_MOST) : html;
  const lowerCase = page.toLowerCase();
  const lines: string[] = [];
  let title: string | undefined;
  let heading: string | undefined;
  let current = '';
  let inTitle = false;
  let titleText = '';
  let inHeading = false;
  let headingText = '';
  const endLine = (): void => {
    const line = cleanLine(current);
    if (line) lines.push(line);
    current = '';
  };
  let at = 0;
  while (at < page.length) {
    const open = page.indexOf('<', at);
    const text = page.slice(at, open < 0 ? page.length : open);
    if (inTitle) titleText += text;
    else {
      current += text;
      if (inHeading) headingText += text;
    }
    if (open < 0) break;
    if (page.startsWith('<!--', open)) {
      const close = page.indexOf('-->', open + 4);
      at = close < 0 ? page.length : close + 3;
      continue;
    }
    const close = page.indexOf('>', open + 1);
    if (close < 0) break;
    if (page.startsWith(REDACTED, open)) {
      // The checker's own mark for a secret the agent echoed: text to quote, never a tag.
      const mark = page.slice(open, open + REDACTED.length);
      if (inTitle) titleText += mark;
      else {
        current += mark;
        if (inHeading) headingText += mark;
      }
      at = open + REDACTED.length;
      continue;
    }
    const tag = /^<\s*(\/?)\s*([a-zA-Z][a-zA-Z0-9]*)/.exec(page.slice(open, Math.min(close + 1, open + 40)));
    at = close + 1;
    if (!tag) continue;
    const closing = tag[1] === '/';
    const name = tag[2]!.toLowerCase();
    if (!closing && SKIPPED.has(name)) {
      const end = lowerCase.indexOf(`</${name}`, at);
      at = end < 0 ? page.length : end;
      continue;
    }
    if (name === 'title') {
      if (closing && inTitle && title === undefined) title = cleanLine(titleText) || undefined;
      inTitle = !closing;
    } else if (/^h[1-6]$/.test(name)) {
      if (closing && inHeading && heading === undefined) heading = cleanLine(headingText) || undefined;
      inHeading = !closing;
      headingText = '';
    }
    if (LINE_BREAKING.has(name)) endLine();
  }
  endLine();
  return { title, heading, lines };
}

/** The page's title, or its first heading when it has no title; undefined for neither. */
export function htmlTitle(html: string): string | undefined {
  const { title, heading } = readPage(html);
  return title ?? heading;
}

/**
 * The page in one line: its title (or first heading) and the first line of its text that says
 * more than the title (`Error: PayloadTooLargeError: request entity too large`, `413 Request Entity
 * Too Large: nginx/1.22.1`); undefined for a page with no text at all.
 */
export function htmlSummary(html: string): string | undefined {
  const { title, heading, lines } = readPage(html);
  const name = title ?? heading;
  const said = new Set([title, heading].filter((line): line is string => line !== undefined));
  const first = lines.find((line) => !said.has(line));
  if (name && first) return `"${name}": ${first}`;
  if (name) return `"${name}"`;
  return first;
}

/** Whether an answer body looks like an HTML page (by its content-type, or its first tag). */
export function looksLikeHtml(contentType: string | undefined, body: string): boolean {
  if (contentType && /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType)) return true;
  return /^\s*(<!doctype html|<html[\s>])/i.test(body.slice(0, 200));
}
