/** What the benchmark's parts share: medians, and one line per figure with its target. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const row = (what: string, figure: string, target: string, holds: boolean) =>
  `${what.padEnd(58)} ${figure.padStart(22)}   target ${target.padEnd(10)} ${holds ? 'holds' : 'MISSED'}`;
