import type { FindingPlace } from './findings.js';
import type { PlatformLook } from './platforms.js';

/** A person's message, as the agent's quotes and reactions refer to it. */
export interface PersonMessageView {
  messageId: string;
  /** What the quote shows: the text, or what was sent instead of text. */
  summary: string;
  turn: number;
}

/** A reaction the agent sent, drawn on the message it reacts to (only one the platform would show: with no error in it). */
export interface ReactionView {
  emoji: string;
  turn: number;
  reply: number;
}

/** What every part of one conversation's drawing needs to know. */
export interface ConversationContext {
  channel: string;
  /** The platform's name for people, such as WhatsApp, or the channel's name. */
  channelTitle: string;
  look: PlatformLook;
  /** The person's messages by id. */
  personMessages: ReadonlyMap<string, PersonMessageView>;
  /** The agent's reactions by the id of the message they react to. */
  reactions: ReadonlyMap<string, readonly ReactionView[]>;
  /** Where its findings are drawn: a problem's repeats are folded. */
  place: FindingPlace;
  /**
   * Drawn for the live chat page (`check-endpoint chat`): each button and list row is a button the
   * person taps, each message has a button that quotes it, all named by data attributes (turn,
   * reply, choice id) that the page's script sends back. The report leaves it out: nothing there is tapped.
   */
  interactive?: boolean;
}
