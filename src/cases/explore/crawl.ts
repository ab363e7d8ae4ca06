/**
 * --explore's second phase: the crawl. Every button and list row the agent offers is tapped (text
 * `""` with `choice`, as a platform sends a tap), breadth-first, each path a conversation of its own
 * from a fresh start, as Botium's crawler does. Answers that offer the same set of choices are one
 * state, opened once, so a menu that loops ends; a state deeper than the crawl's depth is named, not opened.
 */
import type { ExploreStep } from './explore-step.js';
import { menuState } from './offered-choices.js';
import type { PlayedConversation } from './play-conversation.js';

/** The deepest crawl path, in person messages: an opening, then up to seven taps. */
export const CRAWL_DEPTH = 8;

/** What the crawl did. */
export interface CrawlOutcome {
  paths: number;
  /** The menu states opened (each answer's set of choices, once). */
  states: number;
  /** It ran out of turns before every state was opened. */
  outOfTurns: boolean;
  /** States reached at the crawl's depth and not opened further. */
  atDepth: number;
  /** Paths that could not be played again as found: the agent offered other choices the second time. */
  changed: number;
}

/**
 * Crawls from each of `openings` (a person's first message: the menu may open on any): `playLevel` plays a level's paths side by side (each taking its turns first;
 * undefined for a path there were no turns left for), in order.
 */
export async function crawl(
  openings: readonly ExploreStep[],
  playLevel: (paths: readonly ExploreStep[][]) => Promise<(PlayedConversation | undefined)[]>,
  halted: () => boolean,
): Promise<CrawlOutcome> {
  const opened = new Set<string>();
  const outcome: CrawlOutcome = { paths: 0, states: 0, outOfTurns: false, atDepth: 0, changed: 0 };
  let level: ExploreStep[][] = openings.map((opening) => [opening]);
  while (level.length > 0 && !halted()) {
    const played = await playLevel(level);
    const next: ExploreStep[][] = [];
    for (const [index, path] of level.entries()) {
      const conversation = played[index];
      if (conversation === undefined) {
        outcome.outOfTurns = true;
        continue;
      }
      outcome.paths++;
      if (conversation.changed !== undefined) outcome.changed++;
      const last = conversation.turns.at(-1);
      // A path that failed, was cut short or could not be sent is not followed further.
      if (!last || conversation.turns.length < path.length || last.failures.size > 0) continue;
      const choices = last.offered;
      const state = menuState(choices);
      if (choices.length === 0 || opened.has(state)) continue;
      opened.add(state);
      if (path.length >= CRAWL_DEPTH) {
        outcome.atDepth++;
        continue;
      }
      for (const choice of choices) next.push([...path, { text: '', tap: { id: choice.id, title: choice.title, offeredAt: path.length } }]);
    }
    level = next;
  }
  outcome.states = opened.size;
  return outcome;
}
