/** Edit distance (insertions, deletions, substitutions, and swaps of neighbours). */
function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name closest to a misspelt one, when it is close enough to be a typo. */
export function closestName(word: string, known: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const score = distance(lower, name.toLowerCase());
    if (best === undefined || score < best.score) best = { name, score };
  }
  if (best === undefined) return undefined;
  const allowed = Math.max(1, Math.floor(Math.max(word.length, best.name.length) / 3));
  return best.score <= allowed ? best.name : undefined;
}
