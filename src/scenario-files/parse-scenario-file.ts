/**
 * A scenario file's text, parsed with `yaml` (positions for every node, duplicate keys refused) and
 * checked. Pure: the text in, the scenario or its problems out, each with its line and column.
 */
import { LineCounter, type Node, isMap, isScalar, isSeq, parseDocument, visit } from 'yaml';
import { type Locate, checkScenario } from './check-scenario.js';
import type { CheckedScenario, FilePosition, ScenarioProblem } from './scenario-file.js';
import { commandWords } from '../core/command-words.js';
import { MAX_ALIAS_COUNT, boundedYamlValue } from '../formats/yaml-value.js';

/** What a file's check needs beside its text. */
export interface ScenarioFileSource {
  /** The file as the user named it (shown in every problem). */
  file: string;
  /** The file's base name without `.yaml`: the id the scenario must have. */
  expectedId: string;
  /** The channels a scenario may name. */
  channels: readonly string[];
}

/** The deepest node on a path, and whether the path's last key was found (for a key's own position). */
function locator(document: ReturnType<typeof parseDocument>, lines: LineCounter): Locate {
  const at = (offset: number): FilePosition => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  return (path, part) => {
    let node: unknown = document.contents;
    let position = at(0);
    if (isMapOrSeq(node) && node.range) position = at(node.range[0]);
    for (const [depth, step] of path.entries()) {
      const last = depth === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(step));
        if (!pair) break;
        const key = pair.key as Node;
        if (last && part === 'key' && key.range) return at(key.range[0]);
        node = pair.value;
        const value = pair.value as Node | null;
        position = value?.range ? at(value.range[0]) : key.range ? at(key.range[0]) : position;
      } else if (isSeq(node) && typeof step === 'number') {
        const item = node.items[step] as Node | undefined;
        if (!item) break;
        node = item;
        if (item.range) position = at(item.range[0]);
      } else break;
    }
    return position;
  };
}

/** The key that starts at `offset`: the text up to its colon. */
function keyAt(text: string, offset: number): string {
  return (text.slice(offset).match(/^[^:\n]{1,80}/)?.[0] ?? '').trim();
}

function isMapOrSeq(node: unknown): node is Node {
  return isMap(node) || isSeq(node);
}

/** The document's value, or its problem: aliases past their bound, placed at the first alias (formats/yaml-value.ts). */
function documentValue(
  document: ReturnType<typeof parseDocument>,
  lines: LineCounter,
): { ok: true; value: unknown } | { ok: false; problem: Omit<ScenarioProblem, 'file' | 'pointer'> } {
  const built = boundedYamlValue(document, lines);
  if (built.ok) return built;
  return {
    ok: false,
    problem: {
      line: built.line,
      column: built.column,
      message: built.aliases
        ? `expected a scenario whose aliases (*name) stand for at most ${MAX_ALIAS_COUNT} copies of what they name; these expand without bound (the "billion laughs" shape), so the file is not read`
        : `expected a scenario the YAML parser can build; it could not (${built.reason})`,
      fix: 'Write the values out instead of nesting aliases of aliases.',
    },
  };
}

export function parseScenarioFile(text: string, source: ScenarioFileSource): CheckedScenario {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  const yamlProblems = document.errors.map((problem) => {
    const position = problem.linePos?.[0] ?? { line: 1, col: 1 };
    const duplicate = problem.code === 'DUPLICATE_KEY';
    return {
      file: source.file,
      pointer: '',
      line: position.line,
      column: position.col,
      message: duplicate
        ? `expected each key once in a mapping; "${keyAt(text, problem.pos[0])}" is given again here`
        : `expected YAML; ${problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
      fix: duplicate
        ? 'Remove one of the two: YAML parsers keep one silently, so the scenario would not say what you wrote.'
        : `Fix the YAML at that line (indentation, a missing colon, an unclosed quote); ${commandWords('scenarios --lint')} checks the files alone.`,
    };
  });
  // A syntax error leaves no scenario to check; a repeated key still leaves one, checked for the rest.
  if (document.errors.some((problem) => problem.code !== 'DUPLICATE_KEY')) {
    return { file: source.file, scenario: undefined, problems: yamlProblems, unchecked: [] };
  }
  const value = documentValue(document, lines);
  if (!value.ok)
    return { file: source.file, scenario: undefined, problems: [{ file: source.file, pointer: '', ...value.problem }], unchecked: [] };
  const checked = checkScenario(value.value, {
    file: source.file,
    expectedId: source.expectedId,
    locate: locator(document, lines),
    channels: source.channels,
  });
  const problems = [...yamlProblems, ...checked.problems];
  return { ...checked, problems, scenario: problems.length === 0 ? checked.scenario : undefined };
}
