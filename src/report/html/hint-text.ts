/**
 * A hint as the HTML draws it: the commands and code it quotes between backticks
 * (`check-endpoint limits whatsapp --prompt`) as code, the backticks themselves not shown.
 */
import { type Markup, h } from './markup.js';

/** The text with each `quoted` part as <code>; a text with an unpaired backtick (a hint cut short) is drawn as written. */
export function withCode(text: string): Markup[] {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return [h`${text}`];
  return parts.map((part, index) => (index % 2 === 1 ? h`<code>${part}</code>` : h`${part}`));
}
