/**
 * What --explore covered on a channel: messages and conversations played, the choices the answers
 * offered and which of them were tapped, the menu states reached, and the longest conversation.
 * Only counts are kept of a conversation that passed.
 */
import { quoted } from './explore-step.js';
import { menuState } from './offered-choices.js';
import type { PlayedConversation } from './play-conversation.js';

/** The most choices never tapped that the report names one by one. */
const NAMED_CHOICES = 5;

export class ExploreCoverage {
  turns = 0;
  conversations = 0;
  deepest = 0;
  readonly #offered = new Map<string, string>();
  readonly #tapped = new Set<string>();
  readonly #states = new Set<string>();

  record(played: PlayedConversation): void {
    this.conversations++;
    this.turns += played.turns.length;
    this.deepest = Math.max(this.deepest, played.turns.length);
    for (const turn of played.turns) {
      if (turn.tapped !== undefined) this.#tapped.add(turn.tapped);
      const choices = turn.offered;
      if (choices.length) this.#states.add(menuState(choices));
      for (const choice of choices) if (!this.#offered.has(choice.id)) this.#offered.set(choice.id, choice.title);
    }
  }

  get choices(): { offered: number; tapped: number } {
    return { offered: this.#offered.size, tapped: [...this.#offered.keys()].filter((id) => this.#tapped.has(id)).length };
  }

  get states(): number {
    return this.#states.size;
  }

  /** The choices offered and never tapped, in words: the first few by name, then how many more. */
  neverTapped(): string[] {
    const untapped = [...this.#offered].filter(([id]) => !this.#tapped.has(id));
    if (untapped.length === 0) return [];
    const named = untapped.slice(0, NAMED_CHOICES).map(([id, title]) => `${quoted(title)} (id ${quoted(id)})`);
    const more = untapped.length > NAMED_CHOICES ? ` and ${untapped.length - NAMED_CHOICES} more` : '';
    return [`offered but never tapped: ${named.join(', ')}${more}`];
  }
}
