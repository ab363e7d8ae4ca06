/**
 * Every case of the check, in the order reports list them. The runner, `--case`, baselines and
 * every report format read this list.
 */
import { RULES } from '../core/findings.js';
import { buttonTap } from './button-tap.js';
import { EXTENDED_CASE_MODULES, QUALITY_CASE_MODULES } from './case-modules.js';
import { doubleText } from './double-text.js';
import { exploreCase } from './explore/explore-case.js';
import { noReply } from './no-reply.js';
import { photoCase } from './photo.js';
import type { Case, SettingOption } from './case.js';
import { settingsOf } from './case-settings.js';
import { typed } from './typed.js';

/** The contract's fixed cases, played on every run. */
export const CONTRACT_CASES = [typed, doubleText, photoCase, buttonTap, noReply] as const;

/** Cases in their declared `order`, lowest first (ties, which the build refuses, by id). */
function inPlayOrder<C extends Case>(cases: readonly C[]): readonly C[] {
  return [...cases].sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity) || a.id.localeCompare(b.id));
}

/**
 * The contract's extended cases (--extended, or --case ID): every other kind of message the request
 * can carry. Each file of src/cases/extended/ that exports a case (case-modules.ts, written by the build).
 */
export const EXTENDED_CASES = inPlayOrder(EXTENDED_CASE_MODULES);

/**
 * The quality cases (--quality): each file of src/cases/quality/ that exports a case
 * (case-modules.ts, written by the build), played after the fixed ones in the `order` each
 * declares: auth and malformed first, concurrency alone (its load is its own), latency last (it
 * reads every turn before it).
 */
export const QUALITY_CASES = inPlayOrder(QUALITY_CASE_MODULES);

/** --explore's case: generated conversations on each channel, after the fixed cases and the scenarios. */
export const EXPLORE_CASES = [exploreCase] as const;

export const CASES: readonly Case[] = [...CONTRACT_CASES, ...EXTENDED_CASES, ...EXPLORE_CASES, ...QUALITY_CASES];

export type CaseId = (typeof CONTRACT_CASES)[number]['id'];
export type ExploreCaseId = (typeof EXPLORE_CASES)[number]['id'];
export type ExtendedCaseId = (typeof EXTENDED_CASES)[number]['id'];
export type QualityCaseId = (typeof QUALITY_CASES)[number]['id'];
/** Any case's id: what --case takes. */
export type AnyCaseId = CaseId | ExtendedCaseId | ExploreCaseId | QualityCaseId;

/** The fixed cases' ids, stable in every output format. */
export const CASE_IDS: readonly CaseId[] = CONTRACT_CASES.map((testCase) => testCase.id);
/** The extended cases' ids. */
export const EXTENDED_CASE_IDS: readonly ExtendedCaseId[] = EXTENDED_CASES.map((testCase) => testCase.id);
/** The quality cases' ids. */
export const QUALITY_CASE_IDS: readonly QualityCaseId[] = QUALITY_CASES.map((testCase) => testCase.id);
/** Every case's id, in the registry's order. */
export const ALL_CASE_IDS: readonly AnyCaseId[] = [
  ...CASE_IDS,
  ...EXTENDED_CASE_IDS,
  ...EXPLORE_CASES.map((testCase) => testCase.id),
  ...QUALITY_CASE_IDS,
];

export function isAnyCaseId(id: string): id is AnyCaseId {
  return ALL_CASE_IDS.some((known) => known === id);
}

/** The built-in cases' settings that have an option field and a flag of their own (`latencyBudgetSeconds`, `--latency-budget`). */
export const SETTING_OPTIONS: readonly SettingOption[] = settingsOf(CASES).flatMap((setting) => (setting.option ? [setting.option] : []));

type OptionFieldsOf<Settings> = {
  [Name in keyof Settings]: Settings[Name] extends { option: { field: infer Field extends string } } ? Field : never;
}[keyof Settings];
type SettingFieldOf<S> = S extends { settings: infer Settings } ? OptionFieldsOf<Settings> : never;
/** The option fields of the built-in cases' settings: `latencyBudgetSeconds`, `qualityConversations`. */
export type SettingField = SettingFieldOf<
  (typeof QUALITY_CASES)[number] | (typeof CONTRACT_CASES)[number] | (typeof EXTENDED_CASES)[number]
>;

/** The rule ids the cases declare, in the cases' order, each once. */
export function ruleIdsOf(cases: readonly Case[]): string[] {
  return [...new Set(cases.flatMap((testCase) => (testCase.rules ?? []).map((rule) => rule.id)))];
}

/** Every rule id a built-in finding can name: the common checks', then the built-in cases' own. */
export const ALL_RULE_IDS: readonly string[] = [...RULES, ...ruleIdsOf(CASES)];
