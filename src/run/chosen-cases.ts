/**
 * Which cases a run plays: the run's own (`customCases`, or `scenarios`' case objects), vetted, and
 * the built-in ones the options choose, with those skipped left out.
 */
import type { Case } from '../cases/case.js';
import { ALL_CASE_IDS, CASE_IDS, CASES, EXPLORE_CASES, EXTENDED_CASES, QUALITY_CASES } from '../cases/registry.js';
import { CASE_ID, SCENARIO_CASE_PREFIX } from '../core/ids.js';
import { OptionError } from '../core/option-error.js';
import { closestName } from '../validate/did-you-mean.js';
import type { ResolvedOptions } from './options.js';

/** A case object (it has its `run`), not a team scenario's. */
export function isCase(item: Case | Readonly<Record<string, unknown>>): item is Case {
  return typeof item.run === 'function';
}

/** The run's own cases (`customCases`, or its earlier name `scenarios`), vetted: ids of their own, none a built-in case's. */
export function ownCases(options: ResolvedOptions): Case[] {
  if (options.customCases !== undefined && typeof options.scenarios !== 'string' && options.scenarios?.some(isCase)) {
    throw new OptionError('customCases', (on) => `give ${on.name('customCases')} or scenarios (its earlier name), not both`);
  }
  const field = options.scenarios !== undefined ? 'scenarios' : 'customCases';
  // `scenarios` is the team's scenario files now; a case from defineCase in it is one of your own, as before.
  const earlier = typeof options.scenarios === 'string' ? [] : (options.scenarios ?? []).filter(isCase);
  const own = [...(options.customCases ?? earlier)];
  own.forEach((testCase, index) => {
    if (!CASE_ID.test(testCase.id)) {
      throw new OptionError(
        field,
        (on) =>
          `${on.name(field)}[${index}]: "${testCase.id.slice(0, 60)}" is not a case id: lower case letters, digits, _ and -, with one / at most (acme/greeting)`,
      );
    }
    if (CASES.some((known) => known.id === testCase.id) || own.findIndex((other) => other.id === testCase.id) !== index) {
      throw new OptionError(field, (on) => `${on.name(field)}: two cases are called "${testCase.id}"; give each its own id`);
    }
  });
  return own;
}

/**
 * The chosen cases: those `cases` names (built-in of any group, or the run's own), else the fixed
 * five and the run's own; with `extended` every extended case besides, with `quality` every
 * quality case. The built-in ones in the registry's order, then the run's own in theirs.
 */
export function chooseCases(options: ResolvedOptions, own: readonly Case[]): Case[] {
  const all = [...CASES, ...own];
  // A team scenario's case (`scenario/latte-correction`, as --failed names it) is chosen with the scenarios, not here.
  const named = (options.cases ?? []).filter((id) => !id.startsWith(SCENARIO_CASE_PREFIX));
  const ids: string[] = options.cases?.length ? named : [...CASE_IDS, ...own.map((testCase) => testCase.id)];
  const known = [...ALL_CASE_IDS, ...own.map((testCase) => testCase.id)];
  for (const [field, named] of [
    ['cases', ids],
    ['skipCases', options.skipCases ?? []],
  ] as const) {
    for (const id of named) {
      if (all.some((testCase) => testCase.id === id)) continue;
      const closest = closestName(id, known);
      throw new OptionError(
        field,
        (on) =>
          `${field === 'cases' ? '' : `${on.name(field)}: `}"${id}" is not a case${closest === undefined ? '' : ` (did you mean ${closest}?)`}; the cases are ${known.join(', ')}`,
      );
    }
  }
  const skipped = new Set(options.skipCases ?? []);
  const chosen = new Set<Case>([
    ...all.filter((testCase) => ids.includes(testCase.id)),
    ...(options.extended ? EXTENDED_CASES : []),
    ...(options.quality ? QUALITY_CASES : []),
    ...(options.explore ? EXPLORE_CASES : []),
  ]);
  return all.filter((testCase) => chosen.has(testCase) && !skipped.has(testCase.id));
}
