/**
 * Edit distance with swaps of neighbours (optimal string alignment), on three rolling rows, and
 * given up once it must exceed `limit` (then `limit + 1`).
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current[j] = best;
      if (best < rowBest) rowBest = best;
    }
    if (rowBest > limit) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

/** The known name closest to a misspelt one, when it is close enough to be a typo. */
export function closestName(word: string, known: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const allowed = Math.max(1, Math.floor(Math.max(word.length, name.length) / 3));
    const score = editDistance(lower, name.toLowerCase(), allowed);
    if (score <= allowed && (best === undefined || score < best.score)) best = { name, score };
  }
  return best?.name;
}
