/**
 * The explorer's dice: a seeded generator (SplitMix32), so one seed gives the same choices in the
 * same order on every run. Each conversation draws from its own stream, forked from the seed by a
 * label, so what one conversation draws never depends on when another one was answered.
 */

/** The largest seed taken: a 32-bit unsigned whole number. */
export const MAX_SEED = 0xffffffff;

/** A fresh seed for a run given none: printed, so the run can be played again. */
export function freshSeed(): number {
  return Math.floor(Math.random() * (MAX_SEED + 1));
}

/** A 32-bit hash of a label (FNV-1a), to fork a stream by name. */
function hashLabel(label: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < label.length; index++) {
    hash ^= label.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export class Dice {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A stream of its own for `label` (`walk 3`, `shapes`), the same for the same seed and label. */
  static forked(seed: number, label: string): Dice {
    return new Dice((seed ^ hashLabel(label)) >>> 0);
  }

  /** The next 32 bits (SplitMix32). */
  next(): number {
    this.#state = (this.#state + 0x9e3779b9) >>> 0;
    let z = this.#state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** A whole number from 0 to `below - 1`. */
  below(below: number): number {
    return Math.floor((this.next() / 0x100000000) * below);
  }

  /** True with probability `chance` (0 to 1). */
  chance(chance: number): boolean {
    return this.next() / 0x100000000 < chance;
  }

  /** One item of a list that is not empty. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Dice.pick: nothing to pick from');
    return items[this.below(items.length)]!;
  }

  /** One of the weighted options, each `[weight, value]`, by weight. */
  weighted<T>(options: readonly (readonly [number, T])[]): T {
    const total = options.reduce((sum, [weight]) => sum + weight, 0);
    let roll = (this.next() / 0x100000000) * total;
    for (const [weight, value] of options) {
      if (roll < weight) return value;
      roll -= weight;
    }
    return options.at(-1)![1];
  }
}
