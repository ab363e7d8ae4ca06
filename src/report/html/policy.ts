/**
 * The content security policy of a page check-endpoint draws: nothing from the network, images
 * only as data: URLs, and only the page's own style and script (by hash), so not even markup that
 * slipped through could run. The chat page adds two things, and nothing else: `connect-src 'self'`
 * for its own server, and `blob:` images, for the person's own photo, drawn from a blob: URL its
 * script made of the bytes it holds. The HTML report takes neither.
 */
import { h } from './markup.js';

function sha256(text: string): string {
  const { createHash } = process.getBuiltinModule('node:crypto');
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The page the policy is for: the HTML report, or the chat page (src/chat/chat-page.ts). */
export type PolicyPage = 'report' | 'chat';

export function contentSecurityPolicy(styles: string, script: string, page: PolicyPage = 'report'): string {
  const chat = page === 'chat';
  return [
    "default-src 'none'",
    chat ? 'img-src data: blob:' : 'img-src data:',
    `style-src ${sha256(styles)}`,
    `script-src ${sha256(script)}`,
    ...(chat ? ["connect-src 'self'"] : []),
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * A page's document head, the same for the report and the chat page: its policy (also sent as a
 * header by the chat server), no referrer, a phone's width, light colours, its title and its style.
 */
export function pageHead(policy: string, title: string, styles: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${h`${policy}`}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${h`${title}`}</title>
<style>${styles}</style>
</head>`;
}
