/**
 * --explore's third phase: walks, conversations of up to 20 messages as people have them. Each step
 * is a tap of a choice the last answer offered, of one an earlier answer offered (a person scrolls
 * up), the same tap again (a double tap), a typed message (everyday, in several languages, or an
 * edge case), a file, or a quote. Each walk draws from its own stream of the seed.
 */
import type { ExploreStep } from './explore-step.js';
import type { PlayedTurn, Script } from './play-conversation.js';
import { CAPTIONED_KINDS, PERSON_FILES } from './person-files.js';
import { EDGE_TEXTS, EVERYDAY_TEXTS } from './person-texts.js';
import type { Dice } from './random.js';

/** The most messages a walk has. */
export const MAX_WALK_MESSAGES = 20;
/** The fewest. */
const MIN_WALK_MESSAGES = 2;

/**
 * The files a walk sends: every type but the 218 KB photo, which its message shape sends (a walk is
 * about the conversation's path; hundreds of photos would only weigh on memory, not find more).
 */
const WALK_FILES = PERSON_FILES.filter((file) => file.mime !== 'image/jpeg');

/** A walk's length, drawn from its stream: 2 to 20 messages. */
export function walkLength(dice: Dice): number {
  return MIN_WALK_MESSAGES + dice.below(MAX_WALK_MESSAGES - MIN_WALK_MESSAGES + 1);
}

/** How many choices the answers of turns `from` to `to` (not included) offered. */
function choicesOffered(turns: readonly PlayedTurn[], from: number, to: number): number {
  let count = 0;
  for (let turn = from; turn < to; turn++) count += turns[turn]!.offered.length;
  return count;
}

/**
 * The `index`th choice (0-based) the answers from turn `from` on offered, as a tap step naming the
 * answer it came from. Only the drawn one is made: a walk's later steps have dozens to draw from.
 */
function offeredTap(turns: readonly PlayedTurn[], from: number, index: number): ExploreStep {
  let left = index;
  for (let turn = from; turn < turns.length; turn++) {
    const offered = turns[turn]!.offered;
    const choice = offered[left];
    if (choice) return { text: '', tap: { id: choice.id, title: choice.title, offeredAt: turn + 1 } };
    left -= offered.length;
  }
  throw new Error(`offeredTap: no choice ${index} was offered from turn ${from + 1} on`);
}

/** The next step of a walk, from what was played so far. */
export function walkStep(dice: Dice, played: readonly PlayedTurn[]): ExploreStep {
  if (played.length === 0) return { text: dice.pick(EVERYDAY_TEXTS) };
  const lastTurn = played.length - 1;
  const latest = choicesOffered(played, lastTurn, played.length);
  const earlier = choicesOffered(played, 0, lastTurn);
  const last = played.at(-1)!.step;
  const quotable = played.flatMap((turn, index) => (turn.replies?.[0]?.type === 'message' ? [index + 1] : []));
  const kinds: (readonly [number, () => ExploreStep])[] = [
    [2, () => ({ text: dice.pick(EVERYDAY_TEXTS) })],
    [1, () => ({ text: dice.pick(EDGE_TEXTS).text })],
    [
      0.5,
      () => {
        const file = dice.pick(WALK_FILES);
        const caption = CAPTIONED_KINDS.includes(file.kind) && dice.chance(0.5) ? dice.pick(EVERYDAY_TEXTS) : '';
        return { text: caption, files: [file] };
      },
    ],
    [0.5, () => ({ text: dice.pick(EVERYDAY_TEXTS), quote: { from: 'person', turn: 1 + dice.below(played.length) } })],
  ];
  // As a pick from every tap offered would draw: one number below their count.
  if (latest > 0) kinds.push([6, () => offeredTap(played, lastTurn, dice.below(latest))]);
  if (earlier > 0) kinds.push([2, () => offeredTap(played, 0, dice.below(earlier))]);
  if (last.tap?.offeredAt !== undefined) kinds.push([1, () => ({ text: '', tap: { ...last.tap! } })]);
  if (quotable.length)
    kinds.push([0.3, () => ({ text: 'what do you mean?', quote: { from: 'agent', turn: dice.pick(quotable), reply: 0 } })]);
  return dice.weighted(kinds)();
}

/** A walk of `length` messages, drawing from `dice`. */
export function walkScript(dice: Dice, length: number): Script {
  return (played) => (played.length < length ? walkStep(dice, played) : undefined);
}
