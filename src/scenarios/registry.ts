/**
 * Every case of the check, in the order reports list them. The runner, `--case`, baselines and
 * every report format read this list.
 */
import { RULES } from '../core/findings.js';
import { buttonTap } from './button-tap.js';
import { doubleText } from './double-text.js';
import { documentCase } from './extended/document.js';
import { quoteOwn } from './extended/quote-own.js';
import { videoCase } from './extended/video.js';
import { voiceNoteCase } from './extended/voice-note.js';
import { noReply } from './no-reply.js';
import { photoCase } from './photo.js';
import { auth } from './quality/auth.js';
import { concurrency } from './quality/concurrency.js';
import { forwardCompat } from './quality/forward-compat.js';
import { largeAttachment } from './quality/large-attachment.js';
import { latency } from './quality/latency.js';
import { longInput } from './quality/long-input.js';
import { malformed } from './quality/malformed.js';
import { retry } from './quality/retry.js';
import type { Scenario, ScenarioSetting } from './scenario.js';
import { typed } from './typed.js';

/** The contract's fixed cases, played on every run. */
export const CONTRACT_SCENARIOS = [typed, doubleText, photoCase, buttonTap, noReply] as const;

/** The contract's extended cases (--extended, or --case ID): every other kind of message the request can carry. */
export const EXTENDED_SCENARIOS = [voiceNoteCase, documentCase, videoCase, quoteOwn] as const;

/**
 * The quality cases (--quality), played after the fixed ones in this order: auth and malformed
 * first, concurrency alone (its load is its own), latency last (it reads every turn before it).
 */
export const QUALITY_SCENARIOS = [auth, malformed, forwardCompat, concurrency, retry, longInput, largeAttachment, latency] as const;

export const SCENARIOS: readonly Scenario[] = [...CONTRACT_SCENARIOS, ...EXTENDED_SCENARIOS, ...QUALITY_SCENARIOS];

export type CaseId = (typeof CONTRACT_SCENARIOS)[number]['id'];
export type ExtendedCaseId = (typeof EXTENDED_SCENARIOS)[number]['id'];
export type QualityCaseId = (typeof QUALITY_SCENARIOS)[number]['id'];
/** Any case's id: what --case takes. */
export type AnyCaseId = CaseId | ExtendedCaseId | QualityCaseId;

/** The fixed cases' ids, stable in every output format. */
export const CASE_IDS: readonly CaseId[] = CONTRACT_SCENARIOS.map((scenario) => scenario.id);
/** The extended cases' ids. */
export const EXTENDED_CASE_IDS: readonly ExtendedCaseId[] = EXTENDED_SCENARIOS.map((scenario) => scenario.id);
/** The quality cases' ids. */
export const QUALITY_CASE_IDS: readonly QualityCaseId[] = QUALITY_SCENARIOS.map((scenario) => scenario.id);
/** Every case's id, in the registry's order. */
export const ALL_CASE_IDS: readonly AnyCaseId[] = [...CASE_IDS, ...EXTENDED_CASE_IDS, ...QUALITY_CASE_IDS];

export function isAnyCaseId(id: string): id is AnyCaseId {
  return ALL_CASE_IDS.some((known) => known === id);
}

/** A case's own setting, with its option field and the case that declares it. */
export interface RegisteredSetting extends ScenarioSetting {
  /** The option field: `latencyBudgetSeconds`. */
  field: string;
  caseId: string;
}

/** The settings the cases declare, in the cases' order. */
export function settingsOf(scenarios: readonly Scenario[]): RegisteredSetting[] {
  return scenarios.flatMap((scenario) =>
    Object.entries(scenario.settings ?? {}).map(([field, setting]) => ({ ...setting, field, caseId: scenario.id })),
  );
}

/** The built-in cases' settings: each an option of the library and a flag of the command line. */
export const SCENARIO_SETTINGS: readonly RegisteredSetting[] = settingsOf(SCENARIOS);

type SettingFieldOf<S> = S extends { settings: infer Settings } ? keyof Settings & string : never;
/** The option fields of the built-in cases' settings: `latencyBudgetSeconds`, `qualityConversations`. */
export type SettingField = SettingFieldOf<
  (typeof QUALITY_SCENARIOS)[number] | (typeof CONTRACT_SCENARIOS)[number] | (typeof EXTENDED_SCENARIOS)[number]
>;

/** The rule ids the cases declare, in the cases' order, each once. */
export function ruleIdsOf(scenarios: readonly Scenario[]): string[] {
  return [...new Set(scenarios.flatMap((scenario) => (scenario.rules ?? []).map((rule) => rule.id)))];
}

/** Every rule id a built-in finding can name: the common checks', then the built-in cases' own. */
export const ALL_RULE_IDS: readonly string[] = [...RULES, ...ruleIdsOf(SCENARIOS)];
