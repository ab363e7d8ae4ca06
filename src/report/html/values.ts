/** Defensive readers for report values that came from an agent: nothing is trusted to have its type. */

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asArray(value: unknown): readonly unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** A text cut to `max` code points: what to show, and how many code points are left out. */
export function clip(text: string, max: number): { shown: string; hidden: number } {
  if (text.length <= max) return { shown: text, hidden: 0 };
  let count = 0;
  let end = 0;
  for (const char of text) {
    if (count === max) break;
    count++;
    end += char.length;
  }
  if (end >= text.length) return { shown: text, hidden: 0 };
  let hidden = 0;
  for (let index = end; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    hidden++;
  }
  return { shown: text.slice(0, end), hidden };
}

/** A number with thousands separators, the same whatever the machine's locale. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function plural(value: number, one: string, many = `${one}s`): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}
