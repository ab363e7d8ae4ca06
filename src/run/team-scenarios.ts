/**
 * A run's team scenarios (`--scenarios [DIR]`, the `scenarios` option): the files read and checked
 * before anything is sent, and each valid scenario's opening as a case of the run. The YAML parser
 * is loaded only here, when scenarios are asked for: a run without them never loads it.
 */
import { UsageError } from '../core/usage-error.js';
import { OptionError } from '../core/option-error.js';
import type { Case } from '../cases/case.js';
import type { CheckedScenario, TeamScenario, UncheckedKey } from '../scenario-files/scenario-file.js';
import { checkScenario } from '../scenario-files/check-scenario.js';
import { playableScenarios, uncheckedKeys, withDuplicateIds } from '../scenario-files/scenario-set.js';
import { scenarioCase } from '../scenario-files/scenario-case.js';

/** The team scenarios of a run: where they came from, each file checked, and the cases that play them. */
export interface TeamScenarios {
  /** The folder read, or undefined for scenarios the library was given as objects. */
  folder: string | undefined;
  checked: CheckedScenario[];
  /** Files beside them that were not read (`*.yml`). */
  ignored: string[];
  /** The scenarios played (valid, and named by `only` when it is given). */
  played: TeamScenario[];
  /** Their cases, in the files' order. */
  cases: Case[];
  /** Each key not checked here once, with where it stands. */
  unchecked: { key: string; places: UncheckedKey[] }[];
}

/** Scenarios given to the library as objects: each checked like a file, named by its place in the list. */
function checkObjects(objects: readonly unknown[], channels: readonly string[]): CheckedScenario[] {
  return withDuplicateIds(
    objects.map((object, index) =>
      checkScenario(object, {
        file: `scenarios[${index}]`,
        expectedId: undefined,
        locate: () => ({ line: 0, column: 0 }),
        channels,
      }),
    ),
  );
}

/**
 * Reads and checks the scenarios: a folder's `*.yaml` files, or objects as their YAML parses to.
 * `only` keeps the scenarios of those ids (an id no file has is an OptionError, as `flow test --only`
 * refuses one); `channels` are those a scenario may name. A folder that cannot be read is the
 * --scenarios flag's error, or, given `folderNamed` (scenarios --lint's folder argument), its own.
 */
export async function resolveTeamScenarios(
  given: string | readonly unknown[],
  channels: readonly string[],
  only: readonly string[] | undefined,
  folderNamed?: string,
): Promise<TeamScenarios> {
  let folder: string | undefined;
  let checked: CheckedScenario[];
  let ignored: string[] = [];
  if (typeof given === 'string') {
    const { readScenarioFolder, ScenarioFolderError } = await import('../scenario-files/read-scenario-files.js');
    try {
      ({ checked, ignored } = readScenarioFolder(given, channels));
    } catch (cause) {
      if (cause instanceof ScenarioFolderError && folderNamed !== undefined) throw new UsageError(`${folderNamed}: ${cause.message}`);
      if (cause instanceof ScenarioFolderError) throw new OptionError('scenarios', (on) => `${on.name('scenarios')}: ${cause.message}`);
      throw cause;
    }
    folder = given;
  } else checked = checkObjects(given, channels);
  const ids = checked.map((entry) => entry.scenario?.id ?? entry.file.replace(/^.*\//, '').replace(/\.yaml$/, ''));
  for (const id of only ?? []) {
    if (!ids.includes(id)) {
      throw new OptionError(
        'onlyScenarios',
        (on) => `${on.name('onlyScenarios')}: no scenario is called "${id}"; the scenarios are ${ids.join(', ') || 'none'}`,
      );
    }
  }
  const chosen = only === undefined ? checked : checked.filter((entry, index) => only.includes(ids[index]!));
  const played = playableScenarios(chosen);
  return { folder, checked: chosen, ignored, played, cases: played.map(scenarioCase), unchecked: uncheckedKeys(chosen) };
}
