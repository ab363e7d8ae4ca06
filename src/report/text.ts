/** Small text helpers of the human outputs: what the report's text is made of. */

/** The reply a finding's pointer names, from an answer body, or undefined. */
export function replyOf(answer: unknown, path: string): unknown {
  const match = /^\/replies\/(\d+)(?:\/|$)/.exec(path);
  const replies = (answer as { replies?: unknown } | null)?.replies;
  return match && Array.isArray(replies) ? replies[Number(match[1])] : undefined;
}

// Text from an agent or a file made safe for a terminal (core/unsafe-text.ts; every output's own: report/escape.ts).
export { printable } from '../core/unsafe-text.js';

/** `turn 2`, `turns 1 and 3`, `turns 1, 2 and 5`: where a finding came, counted from 1. */
export function turnsText(turns: readonly number[]): string {
  const numbers = turns.map((turn) => String(turn + 1));
  if (numbers.length === 1) return `turn ${numbers[0]}`;
  // A run of many turns (quality/malformed's 44 invalid requests) as ranges: `turns 2–45`.
  if (numbers.length > MAX_LISTED_TURNS) return `turns ${ranges(turns.map((turn) => turn + 1))}`;
  return `turns ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}

/** Turns a list names one by one at most; more are named as ranges. */
const MAX_LISTED_TURNS = 4;

/** `1–3, 5, 7–9`: numbers as ranges. */
export function ranges(numbers: readonly number[]): string {
  const sorted = [...numbers].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let start = 0; start < sorted.length;) {
    let end = start;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    parts.push(end > start ? `${sorted[start]}–${sorted[end]}` : String(sorted[start]));
    start = end + 1;
  }
  return parts.join(', ');
}
