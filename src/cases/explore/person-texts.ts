/**
 * What a person types, for --explore: everyday messages in several languages (what a menu agent
 * hears all day), and the edge cases of text a platform delivers (the contract's "Any text"): the
 * characters that break a hand-written JSON writer or naive code, scripts written right to left,
 * combining marks, joined emoji, Markdown the person typed, and the longest text the platform takes.
 * Every text is valid Unicode: no lone surrogate, and no NUL (no platform delivers one).
 */
import { thousands } from '../../core/thousands.js';

/** Everyday messages, as people write them to a shop's or a service's chat. */
export const EVERYDAY_TEXTS: readonly string[] = [
  'hi',
  'hello! what time are you open today?',
  'menu please',
  'can i get a large latte',
  'i want to order',
  'how much is a cappuccino?',
  'cancel',
  'back',
  'help',
  'yes',
  'no',
  '2',
  'thanks!',
  'ok 👍',
  'hola, ¿tienen leche de avena?',
  'bonjour, vous êtes ouverts ce soir ?',
  'oi, quanto custa o café?',
  'hallo, kann ich einen Tisch für 4 reservieren?',
  'ciao, avete opzioni vegane?',
  'こんにちは、メニューを見せてください',
  '你好，今天营业吗？',
  'привет, можно сделать заказ?',
  'मुझे एक कॉफ़ी चाहिए',
  'مرحبا، هل يمكنني الطلب؟',
];

/** An edge-case text: its name (what a report says it is) and the text. */
export interface EdgeText {
  name: string;
  text: string;
}

/** Control characters a person can paste: every C0 control but NUL (tab, line feed and carriage return have texts of their own), DEL and NEL. */
const PASTED_CONTROLS = Array.from({ length: 31 }, (_, index) => String.fromCharCode(index + 1))
  .filter((character) => !'\t\n\r'.includes(character))
  .concat('\u007f', '\u0085')
  .join('');

/** The edge-case texts that fit in a message of any platform. */
export const EDGE_TEXTS: readonly EdgeText[] = [
  { name: 'a double quote', text: 'table for "Sam" please' },
  { name: 'a backslash', text: 'my order is C:\\orders\\latte \\n not a line break' },
  { name: 'line breaks', text: 'one large latte\nwith oat milk\r\nfor pickup at 8' },
  { name: 'tabs', text: 'name:\tSam\tqty:\t2' },
  { name: 'pasted control characters', text: `copied from a PDF:${PASTED_CONTROLS}end` },
  { name: 'line and paragraph separators', text: 'first line\u2028second line\u2029new paragraph' },
  { name: 'right-to-left text', text: 'مرحبا، أريد قهوة كبيرة \u200fשלום\u200f 2 لاتيه' },
  { name: 'combining marks', text: 'Zoe\u0308 wants a cafe\u0301 au lait, n\u0303o sugar' },
  { name: 'joined emoji', text: '👩‍👩‍👧‍👦 🏳️‍🌈 👍🏽 🇧🇷 ❤️‍🔥' },
  { name: 'Markdown', text: '**two** _lattes_ `please`\n# ASAP\n| size | milk |\n|---|---|\n| large | oat |\n[menu](https://example.com)' },
  { name: 'code and markup', text: '{"replies": []} <script>alert(1)</script> {{name}} %s ${order}' },
  { name: 'a quote and a backslash alone', text: '"\\' },
];

/** Words the longest text is made of: plain, in every platform's cheapest encoding (GSM-7 on SMS, one UTF-16 unit each on Telegram). */
const FILLER = 'Hi, I would like to order for a group of us tonight, please note each person in turn. ';

/**
 * The longest text the platform takes from a person, `maxLength` long in its counting unit: plain
 * Latin letters, which count one in every unit, so the same text is at its limit on each.
 */
export function longestText(maxLength: number): EdgeText {
  const text = FILLER.repeat(Math.ceil(maxLength / FILLER.length)).slice(0, maxLength);
  return { name: `the longest text (${thousands(maxLength)} characters)`, text };
}
