/** How each platform draws a conversation: its look (a CSS class) and what it leaves out. */
export interface PlatformLook {
  /** The CSS class of the look: one of the five platforms, or `generic` for a custom channel. */
  look: 'whatsapp' | 'imessage' | 'sms' | 'telegram' | 'web' | 'generic';
  /** What the header of the chat says under the agent's name. */
  caption: string;
  /** Quotes (`replyTo`) are drawn; SMS sends the reply without it. */
  showsQuotes: boolean;
  /** A link is drawn as a rich link preview without its label (iMessage), not as a labelled button. */
  linkPreview: boolean;
  /** Buttons are drawn as an inline keyboard under the bubble (Telegram), not as chips. */
  inlineKeyboard: boolean;
}

const LOOKS: Record<string, PlatformLook> = {
  whatsapp: { look: 'whatsapp', caption: 'WhatsApp Business', showsQuotes: true, linkPreview: false, inlineKeyboard: false },
  imessage: { look: 'imessage', caption: 'iMessage', showsQuotes: true, linkPreview: true, inlineKeyboard: false },
  sms: { look: 'sms', caption: 'Text Message · SMS', showsQuotes: false, linkPreview: false, inlineKeyboard: false },
  telegram: { look: 'telegram', caption: 'Telegram bot', showsQuotes: true, linkPreview: false, inlineKeyboard: true },
  web: { look: 'web', caption: 'Web chat widget', showsQuotes: true, linkPreview: false, inlineKeyboard: false },
};

export function platformLook(channel: string): PlatformLook {
  return Object.hasOwn(LOOKS, channel)
    ? LOOKS[channel]!
    : { look: 'generic', caption: `custom channel ${channel}`, showsQuotes: true, linkPreview: false, inlineKeyboard: false };
}
