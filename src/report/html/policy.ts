/**
 * The content security policy of a page check-endpoint draws: nothing from the network, images
 * only as data: URLs, and only the page's own style and script (by hash), so not even markup that
 * slipped through could run. A page that talks to its own server (the chat page) adds
 * `connect-src 'self'`, and nothing else.
 */
import { createHash } from 'node:crypto';

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export function contentSecurityPolicy(styles: string, script: string, connectToSelf = false): string {
  return [
    "default-src 'none'",
    'img-src data:',
    `style-src ${sha256(styles)}`,
    `script-src ${sha256(script)}`,
    ...(connectToSelf ? ["connect-src 'self'"] : []),
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
