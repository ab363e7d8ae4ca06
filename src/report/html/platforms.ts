/**
 * How each platform draws a conversation: its look (a CSS class, styles.ts) and what it leaves out.
 * A platform of the contract with no look here is drawn as `generic`, as a custom channel is.
 */
import type { PlatformName } from '../../generated/platform-names.js';

export interface PlatformLook {
  /** The CSS class of the look: a platform of the contract (`x-platforms`), or `generic`. */
  look: PlatformName | 'generic';
  /** What the header of the chat says under the agent's name. */
  caption: string;
  /** Quotes (`replyTo`) are drawn; SMS sends the reply without it. */
  showsQuotes: boolean;
  /** A link is drawn as a rich link preview without its label (iMessage), not as a labelled button. */
  linkPreview: boolean;
  /** Buttons are drawn as an inline keyboard under the bubble (Telegram), not as chips. */
  inlineKeyboard: boolean;
}

const LOOKS: Partial<Record<PlatformName, PlatformLook>> = {
  whatsapp: { look: 'whatsapp', caption: 'WhatsApp Business', showsQuotes: true, linkPreview: false, inlineKeyboard: false },
  imessage: { look: 'imessage', caption: 'iMessage', showsQuotes: true, linkPreview: true, inlineKeyboard: false },
  sms: { look: 'sms', caption: 'Text Message · SMS', showsQuotes: false, linkPreview: false, inlineKeyboard: false },
  telegram: { look: 'telegram', caption: 'Telegram bot', showsQuotes: true, linkPreview: false, inlineKeyboard: true },
  web: { look: 'web', caption: 'Web chat widget', showsQuotes: true, linkPreview: false, inlineKeyboard: false },
};

const GENERIC: Omit<PlatformLook, 'caption'> = { look: 'generic', showsQuotes: true, linkPreview: false, inlineKeyboard: false };

export function platformLook(channel: string): PlatformLook {
  return Object.entries(LOOKS).find(([name]) => name === channel)?.[1] ?? { ...GENERIC, caption: `custom channel ${channel}` };
}
