/**
 * --explore-turns: the messages one channel's exploration may send. A conversation takes its turns
 * before it starts (its length is known then, or bounded), so what is played depends on the seed and
 * the agent's answers alone, never on which conversation was answered first.
 */
export class TurnBudget {
  #taken = 0;

  constructor(readonly limit: number) {}

  get left(): number {
    return this.limit - this.#taken;
  }

  /** Takes `turns` whole, or none: whether they were all left (a crawl path or a message shape needs every one). */
  takeWhole(turns: number): boolean {
    if (this.left < turns) return false;
    this.#taken += turns;
    return true;
  }

  /** Takes up to `wanted` turns: how many were taken (0 when none are left). */
  take(wanted: number): number {
    const taken = Math.max(0, Math.min(wanted, this.left));
    this.#taken += taken;
    return taken;
  }
}
