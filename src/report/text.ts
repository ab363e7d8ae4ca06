/** Small text helpers of the human outputs: what the report's text is made of. */

/** The reply a finding's pointer names, from an answer body, or undefined. */
export function replyOf(answer: unknown, path: string): unknown {
  const match = /^\/replies\/(\d+)(?:\/|$)/.exec(path);
  const replies = (answer as { replies?: unknown } | null)?.replies;
  return match && Array.isArray(replies) ? replies[Number(match[1])] : undefined;
}

/**
 * Text from the agent made safe for a terminal or CI log: control characters (escape sequences,
 * line breaks that would start a fake `::error` line) shown as \u escapes.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `turn 2`, `turns 1 and 3`, `turns 1, 2 and 5`: where a finding came, counted from 1. */
export function turnsText(turns: readonly number[]): string {
  const numbers = turns.map((turn) => String(turn + 1));
  if (numbers.length === 1) return `turn ${numbers[0]}`;
  return `turns ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}
