/**
 * The bubble rule (contract, "Chat bubbles"; Flow's own messaging documentation): how one long
 * model answer is cut into a few chat bubbles.
 *
 * 1. A bubble ends at a paragraph break (a blank line), except after a lead-in line that ends with
 *    `:` and between items of one list, unless the bubble is already past the soft length.
 * 2. Past the soft length, a bubble ends at the next sentence end (`. `, `! `, `? ` or `…`
 *    followed by a space).
 * 3. Never cut inside a fenced code block, unless the bubble would pass the hard limit; then cut at
 *    the last line break or space before it.
 *
 * Pure: a text and its lengths in, the bubbles out. Lengths are counted by the `measure` given (the
 * platform's unit); positions are UTF-16 indexes into the text.
 */

/** One bubble: where it starts and ends in the text (UTF-16 indexes, end exclusive), and its text. */
export interface Bubble {
  start: number;
  end: number;
  text: string;
}

export interface BubbleLimits {
  /** Past this length a bubble ends at the next sentence end, and at any paragraph break. */
  softLength: number;
  /** A bubble never passes it: inside a code block too, it is cut at the last line break or space before it. */
  hardLimit?: number;
}

/** The length of `text.slice(start, end)` in the platform's unit. */
export type Measure = (start: number, end: number) => number;

/** A place the rule may cut: the bubble before it ends at `end`, the next starts at `next`. */
interface Cut {
  end: number;
  next: number;
  kind: 'paragraph' | 'sentence';
  /** For a paragraph break: after a lead-in line ending with `:`, or between two items of one list. */
  joined: boolean;
}

const FENCE = /^ {0,3}(?:`{3,}|~{3,})/;
const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+\S/;
/** A sentence end: `.`, `!`, `?` or `…`, then a space (or a line break) before more text. */
const SENTENCE_END = /[.!?…](?=[ \t\n]+\S)/g;

interface Line {
  start: number;
  /** The end of its text, before the line break. */
  end: number;
  text: string;
  inFence: boolean;
}

/** The text's lines, each marked when it is inside a fenced code block (a fence line counts as inside). */
function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let inFence = false;
  let start = 0;
  for (;;) {
    const found = text.indexOf('\n', start);
    const end = found === -1 ? text.length : found;
    const line = text.slice(start, end).replace(/\r$/, '');
    const fence = FENCE.test(line);
    lines.push({ start, end, text: line, inFence: inFence || fence });
    if (fence) inFence = !inFence;
    if (found === -1) return lines;
    start = found + 1;
  }
}

/** Every place the rule may cut, in order: paragraph breaks and sentence ends outside code blocks. */
function cutsOf(text: string): Cut[] {
  const lines = linesOf(text);
  const cuts: Cut[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    // A paragraph break: a text line, then one or more blank lines outside a code block, then a text line.
    if (line.text.trim() !== '') {
      let after = index + 1;
      while (after < lines.length && lines[after]!.text.trim() === '' && !lines[after]!.inFence) after++;
      const next = lines[after];
      if (after > index + 1 && next !== undefined) {
        const leadIn = line.text.trimEnd().endsWith(':');
        const listGoesOn = LIST_ITEM.test(line.text) && LIST_ITEM.test(next.text);
        cuts.push({ end: line.end, next: next.start, kind: 'paragraph', joined: leadIn || listGoesOn });
      }
    }
    if (line.inFence) continue;
    for (const match of line.text.matchAll(SENTENCE_END)) {
      // `1. ` opening a numbered list item is no sentence end.
      if (/^\s*\d{1,3}$/.test(line.text.slice(0, match.index))) continue;
      const end = line.start + match.index + 1;
      let next = end;
      while (next < text.length && /[ \t\n]/.test(text[next]!)) next++;
      cuts.push({ end, next, kind: 'sentence', joined: false });
    }
  }
  return cuts.sort((a, b) => a.end - b.end);
}

/** The last line break or space before `limit` (a UTF-16 index) after `start`, or `limit` itself when there is none. */
function lastBreakBefore(text: string, start: number, limit: number): { end: number; next: number } {
  for (let index = limit; index > start; index--) {
    if (text[index] === '\n' || text[index] === ' ') return { end: index, next: index + 1 };
  }
  return { end: limit, next: limit };
}

/** The largest index whose bubble from `start` is within `max` in the platform's unit. */
function fitsUpTo(start: number, max: number, textEnd: number, measure: Measure): number {
  let low = start;
  let high = textEnd;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (measure(start, middle) <= max) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * The bubbles a text is cut into by the rule: one bubble (the whole text) when it has no place the
 * rule may cut. Empty bubbles (blank text between cuts) are left out.
 */
export function cutIntoBubbles(text: string, limits: BubbleLimits, measure: Measure): Bubble[] {
  const { softLength, hardLimit } = limits;
  const cuts = cutsOf(text);
  const bubbles: Bubble[] = [];
  let start = 0;
  const close = (end: number, next: number): void => {
    const raw = text.slice(start, end);
    const trimmed = raw.trim();
    if (trimmed !== '') {
      const lead = raw.length - raw.trimStart().length;
      bubbles.push({ start: start + lead, end: start + lead + trimmed.length, text: trimmed });
    }
    start = next;
  };
  let cutIndex = 0;
  while (start < text.length) {
    // The first cut the rule takes from here.
    let taken: Cut | undefined;
    for (; cutIndex < cuts.length; cutIndex++) {
      const cut = cuts[cutIndex]!;
      if (cut.end <= start) continue;
      const past = measure(start, cut.end) > softLength;
      if ((cut.kind === 'paragraph' && (!cut.joined || past)) || (cut.kind === 'sentence' && past)) {
        taken = cut;
        break;
      }
    }
    const end = taken?.end ?? text.length;
    if (hardLimit !== undefined && measure(start, end) > hardLimit) {
      const forced = lastBreakBefore(text, start, fitsUpTo(start, hardLimit, end, measure));
      if (forced.end > start) {
        close(forced.end, forced.next);
        continue;
      }
    }
    if (!taken) {
      close(text.length, text.length);
      break;
    }
    cutIndex++;
    close(taken.end, taken.next);
  }
  return bubbles;
}
