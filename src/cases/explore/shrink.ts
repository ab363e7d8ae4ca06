/**
 * Shrinking a failing conversation to the smallest one that still fails with its problem, as
 * Hypothesis shrinks an example: fewest messages first, then taps typed instead, the shortest texts,
 * the fewest files, no quote; each candidate played for real, the first that still fails taken, until none does or
 * the bounds (plays and time) are reached.
 */
import type { ExploreStep } from './explore-step.js';

/** The steps with step `index` left out, the later ones' references renumbered; undefined when a later step refers to it. */
function without(steps: readonly ExploreStep[], index: number): ExploreStep[] | undefined {
  const turn = index + 1;
  const kept: ExploreStep[] = [];
  for (const [at, step] of steps.entries()) {
    if (at === index) continue;
    if (step.tap?.offeredAt === turn || step.quote?.turn === turn) return undefined;
    const renumber = (n: number): number => (n > turn ? n - 1 : n);
    kept.push({
      ...step,
      ...(step.tap
        ? { tap: { ...step.tap, ...(step.tap.offeredAt !== undefined ? { offeredAt: renumber(step.tap.offeredAt) } : {}) } }
        : {}),
      ...(step.quote ? { quote: { ...step.quote, turn: renumber(step.quote.turn) } } : {}),
    });
  }
  return kept;
}

/** Whether a step still says something a platform delivers: a text, a file or a tap. */
function deliverable(step: ExploreStep): boolean {
  return step.text !== '' || (step.files?.length ?? 0) > 0 || step.tap !== undefined;
}

/** Shorter texts for one, as delta debugging cuts: each half left out, then each quarter, down to each single character. */
function* shorterTexts(text: string): Generator<string> {
  const characters = Array.from(text);
  for (let size = Math.max(1, Math.floor(characters.length / 2)); size >= 1; size = size === 1 ? 0 : Math.max(1, Math.floor(size / 2))) {
    for (let start = 0; start < characters.length; start += size) {
      yield [...characters.slice(0, start), ...characters.slice(start + size)].join('');
    }
  }
}

/** The step `index` replaced, in a copy. */
function replaced(steps: readonly ExploreStep[], index: number, step: ExploreStep): ExploreStep[] {
  return steps.map((candidate, at) => (at === index ? step : candidate));
}

/** Smaller conversations than `steps`, the most promising first: fewer messages, then smaller messages. */
export function* shrinkCandidates(steps: readonly ExploreStep[]): Generator<ExploreStep[]> {
  // The last step fails: the ones before it are what may go.
  for (let index = 0; index < steps.length - 1; index++) {
    const candidate = without(steps, index);
    if (candidate) yield candidate;
  }
  // A tap no later step refers to, typed instead (as a person on SMS types the option): the message
  // that offered it may then go too. Each such candidate has one tap fewer, so shrinking ends.
  for (const [index, step] of steps.entries()) {
    const referred = steps.some((later) => later.tap?.offeredAt === index + 1 || later.quote?.turn === index + 1);
    if (step.tap?.offeredAt !== undefined && step.tap.title !== '' && !referred) {
      const { tap, ...rest } = step;
      yield replaced(steps, index, { ...rest, text: step.text === '' ? tap.title : step.text });
    }
  }
  for (const [index, step] of steps.entries()) {
    if (step.quote) {
      const { quote: _quote, ...unquoted } = step;
      yield replaced(steps, index, unquoted);
    }
    const files = step.files ?? [];
    if (files.length > 1) {
      for (let file = 0; file < files.length; file++)
        yield replaced(steps, index, { ...step, files: files.filter((_, at) => at !== file) });
    }
    if (step.text !== '') {
      for (const text of shorterTexts(step.text)) {
        const shorter = { ...step, text };
        if (deliverable(shorter)) yield replaced(steps, index, shorter);
      }
    }
  }
}

/** The bounds of one problem's shrinking. */
export interface ShrinkBounds {
  /** Conversations played at most, the first replay included. */
  maxPlays: number;
  /** Milliseconds at most. */
  maxMs: number;
}

export const SHRINK_BOUNDS: ShrinkBounds = { maxPlays: 150, maxMs: 60_000 };

/** What a play of a candidate tells the shrinker: whether it still fails with the problem, and at which message. */
export interface CandidatePlay<P> {
  play: P;
  /** The number of messages up to the one that failed with the problem, or undefined when it did not. */
  failsAt: number | undefined;
}

/** How shrinking went: the smallest failing play (undefined: the first replay did not fail: flaky), its steps, and its cost. */
export interface Shrunk<P> {
  smallest: { play: P; steps: ExploreStep[] } | undefined;
  /** The first replay, when it did not fail. */
  passedReplay: P | undefined;
  plays: number;
  gaveUp: string | null;
}

/**
 * Shrinks `steps` (whose last message fails with the problem) by playing candidates: `replay` plays
 * one, `discard` lets go of a play that is not kept. The first replay is the conversation as found:
 * when it does not fail, the failure is flaky.
 */
export async function shrinkConversation<P>(
  steps: readonly ExploreStep[],
  replay: (steps: readonly ExploreStep[]) => Promise<CandidatePlay<P>>,
  discard: (play: P) => void,
  bounds: ShrinkBounds,
  halted: () => boolean,
  clock: () => number = Date.now,
): Promise<Shrunk<P>> {
  const started = clock();
  const first = await replay(steps);
  let plays = 1;
  if (first.failsAt === undefined) return { smallest: undefined, passedReplay: first.play, plays, gaveUp: null };
  let best = { play: first.play, steps: steps.slice(0, first.failsAt) };
  for (;;) {
    let improved = false;
    for (const candidate of shrinkCandidates(best.steps)) {
      if (halted()) return { smallest: best, passedReplay: undefined, plays, gaveUp: 'the run was halted' };
      if (plays >= bounds.maxPlays)
        return { smallest: best, passedReplay: undefined, plays, gaveUp: `stopped at ${bounds.maxPlays} plays` };
      if (clock() - started >= bounds.maxMs) {
        return { smallest: best, passedReplay: undefined, plays, gaveUp: `stopped after ${Math.round(bounds.maxMs / 1000)} s` };
      }
      const tried = await replay(candidate);
      plays++;
      if (tried.failsAt !== undefined) {
        discard(best.play);
        best = { play: tried.play, steps: candidate.slice(0, tried.failsAt) };
        improved = true;
        break;
      }
      discard(tried.play);
    }
    if (!improved) return { smallest: best, passedReplay: undefined, plays, gaveUp: null };
  }
}
