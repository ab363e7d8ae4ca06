import type { Answer, Reply } from '../core/answer.js';
import type { AgentRequest } from '../core/request.js';
import type { PlatformRules } from '../contract/contract.js';

/** A 1×1 PNG: an image every platform that shows images takes. */
const MENU_IMAGE = {
  mime: 'image/png',
  data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
};

/**
 * The reference agent's answer to one message: a conformant agent that uses what the contract
 * offers (buttons, a list, a link, an image, a reaction, replyTo) wherever the channel's platform
 * shows it, and plain text where it does not. Pure: the same request gives the same answer.
 */
export function referenceAnswer(request: AgentRequest, rules: PlatformRules | undefined): Answer {
  const shows = (feature: 'buttons' | 'list' | 'link' | 'image' | 'reaction' | 'replyTo'): boolean => rules?.[feature]?.support === 'yes';
  const quote = shows('replyTo') ? { replyTo: request.messageId } : {};
  const { text, choice, attachments } = request.message;
  const lower = text.toLowerCase();
  const say = (words: string, extra: Partial<Extract<Reply, { type: 'message' }>> = {}): Reply => ({
    type: 'message',
    text: words,
    ...extra,
  });

  if (choice) return { replies: [say(`Done: ${choice.title}. See you tonight!`, quote)] };
  const sent = (kind: 'image' | 'audio' | 'video' | 'document') => attachments?.find((attachment) => attachment.kind === kind);
  if (sent('image')) {
    return { replies: [say('Nice photo! Here is our menu.', { ...(shows('image') ? { image: MENU_IMAGE } : {}), ...quote })] };
  }
  if (sent('audio')) return { replies: [say('Thanks for the voice note! We will listen and call you back today.', quote)] };
  if (sent('video')) return { replies: [say('Thanks for the video! It looks great.', quote)] };
  const file = sent('document');
  if (file)
    return { replies: [say(`Thanks, we got ${Array.from(file.name).slice(0, 40).join('')} and will get back to you today.`, quote)] };
  // A correction that quotes the person's own earlier message.
  if (request.message.replyTo?.from === 'person') {
    const quoted = Array.from(request.message.replyTo.text).slice(0, 40).join('');
    return { replies: [say(`Changed: "${quoted}" is now "${Array.from(text).slice(0, 40).join('')}".`, quote)] };
  }
  if (/\btable for \d/.test(lower)) return { replies: [say('A table for 2 at 7 pm: booked. See you then!', quote)] };
  if (lower.includes('latte')) {
    return {
      replies: [
        shows('buttons') && (rules?.buttons?.maxCount ?? 3) >= 3
          ? say('Which size?', {
              buttons: [
                { id: 'size_s', label: 'Small' },
                { id: 'size_m', label: 'Medium' },
                { id: 'size_l', label: 'Large' },
              ],
            })
          : say('Which size? Reply 1 for small, 2 for medium, 3 for large.'),
      ],
    };
  }
  if (lower.includes('oat milk')) {
    const reaction: Reply[] = shows('reaction') ? [{ type: 'reaction', emoji: '👍', messageId: request.messageId }] : [];
    return { replies: [...reaction, say('Oat milk it is: one large oat latte coming up.', quote)] };
  }
  if (lower.includes('book a table')) {
    if (shows('list')) {
      return {
        replies: [
          say('When would you like to come?', {
            list: {
              button: 'Pick a time',
              sections: [
                {
                  title: 'Tonight',
                  rows: [
                    { id: 'time_1900', title: '7:00 pm' },
                    { id: 'time_2000', title: '8:00 pm', description: 'Window seat' },
                  ],
                },
              ],
            },
          }),
        ],
      };
    }
    if (shows('buttons')) return { replies: [say('When would you like to come?', { buttons: ['7 pm', '8 pm'] })] };
    return { replies: [say('When would you like to come? 7 pm or 8 pm?')] };
  }
  if (lower.includes('open')) {
    const link = shows('link') ? { link: { url: 'https://example.com/hours', label: 'Opening hours' } } : {};
    return { replies: [say("We're open 8 am to 6 pm today.", { ...link, ...quote })] };
  }
  if (lower.includes('thanks')) return { replies: [] };
  return { replies: [say('Thanks for your message! How can I help?')] };
}
