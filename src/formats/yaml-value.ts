/**
 * A YAML document's value, built within bounds: aliases that expand into a very large value (the
 * "billion laughs" shape) or nest past what the parser builds are refused, placed at the first
 * alias, instead of exhausting memory. Shared by the scenario files and a --spec contract in YAML.
 */
import { type Document, type LineCounter, visit } from 'yaml';

/** Copies of what it names an alias may stand for, at the most (the yaml library's own default). */
export const MAX_ALIAS_COUNT = 100;

export type BoundedValue =
  | { ok: true; value: unknown }
  | {
      ok: false;
      /** Where the first alias is (from 1). */
      line: number;
      column: number;
      /** Whether aliases are the cause; else the parser's own reason. */
      aliases: boolean;
      reason: string;
    };

export function boundedYamlValue(document: Document, lines: LineCounter): BoundedValue {
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (cause) {
    let at = 0;
    visit(document, {
      Alias(_key, node) {
        at = node.range?.[0] ?? 0;
        return visit.BREAK;
      },
    });
    const { line, col } = lines.linePos(at);
    const reason = cause instanceof Error ? cause.message : String(cause);
    return { ok: false, line, column: col, aliases: /alias/i.test(reason), reason: reason.slice(0, 120) };
  }
}
