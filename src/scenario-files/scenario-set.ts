/**
 * A set of checked scenarios: duplicate ids across files, what is playable, and the keys not
 * checked here grouped so each is listed once. Pure.
 */
import type { CheckedScenario, ScenarioProblem, TeamScenario, UncheckedKey } from './scenario-file.js';

/** The files checked together: each file's problems, plus an id two files share. */
export function withDuplicateIds(checked: readonly CheckedScenario[]): CheckedScenario[] {
  const firstFile = new Map<string, string>();
  return checked.map((entry) => {
    const id = entry.scenario?.id;
    if (id === undefined) return entry;
    const first = firstFile.get(id);
    if (first === undefined) {
      firstFile.set(id, entry.file);
      return entry;
    }
    const duplicate: ScenarioProblem = {
      file: entry.file,
      pointer: '/id',
      line: 0,
      column: 0,
      message: `expected ids unique across the scenarios; "${id}" is also the id of ${first}`,
      fix: 'Give each scenario its own id: `--only` and the reports name a scenario by it.',
    };
    return { ...entry, scenario: undefined, problems: [...entry.problems, duplicate] };
  });
}

/** The scenarios with no problem, in the files' order. */
export function playableScenarios(checked: readonly CheckedScenario[]): TeamScenario[] {
  // A scenario with no opening (Flow's person starts it) has nothing to play here: it is not played, never passed.
  return checked.flatMap((entry) => (entry.scenario && entry.scenario.opening.length > 0 ? [entry.scenario] : []));
}

/** Each key not checked here once, as a pointer with list indices as `*`, with where it stands. */
export function uncheckedKeys(checked: readonly CheckedScenario[]): { key: string; places: UncheckedKey[] }[] {
  const byKey = new Map<string, UncheckedKey[]>();
  for (const place of checked.flatMap((entry) => entry.unchecked)) {
    const key = place.pointer.replace(/\/\d+(?=\/|$)/g, '/*');
    byKey.set(key, [...(byKey.get(key) ?? []), place]);
  }
  return [...byKey].map(([key, places]) => ({ key, places }));
}

/** `tests/scenarios/a.yaml:3:5`, or the file alone where no position is known. */
export function placeOf(place: { file: string; line: number; column: number }): string {
  return place.line > 0 ? `${place.file}:${place.line}:${place.column}` : place.file;
}
