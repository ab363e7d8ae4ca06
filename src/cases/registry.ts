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
import type { Case, SettingOption } from './case.js';
import { settingsOf } from './case-settings.js';
import { typed } from './typed.js';

/** The contract's fixed cases, played on every run. */
export const CONTRACT_CASES = [typed, doubleText, photoCase, buttonTap, noReply] as const;

/** The contract's extended cases (--extended, or --case ID): every other kind of message the request can carry. */
export const EXTENDED_CASES = [voiceNoteCase, documentCase, videoCase, quoteOwn] as const;

/**
 * The quality cases (--quality), played after the fixed ones in this order: auth and malformed
 * first, concurrency alone (its load is its own), latency last (it reads every turn before it).
 */
export const QUALITY_CASES = [auth, malformed, forwardCompat, concurrency, retry, longInput, largeAttachment, latency] as const;

export const CASES: readonly Case[] = [...CONTRACT_CASES, ...EXTENDED_CASES, ...QUALITY_CASES];

export type CaseId = (typeof CONTRACT_CASES)[number]['id'];
export type ExtendedCaseId = (typeof EXTENDED_CASES)[number]['id'];
export type QualityCaseId = (typeof QUALITY_CASES)[number]['id'];
/** Any case's id: what --case takes. */
export type AnyCaseId = CaseId | ExtendedCaseId | QualityCaseId;

/** The fixed cases' ids, stable in every output format. */
export const CASE_IDS: readonly CaseId[] = CONTRACT_CASES.map((testCase) => testCase.id);
/** The extended cases' ids. */
export const EXTENDED_CASE_IDS: readonly ExtendedCaseId[] = EXTENDED_CASES.map((testCase) => testCase.id);
/** The quality cases' ids. */
export const QUALITY_CASE_IDS: readonly QualityCaseId[] = QUALITY_CASES.map((testCase) => testCase.id);
/** Every case's id, in the registry's order. */
export const ALL_CASE_IDS: readonly AnyCaseId[] = [...CASE_IDS, ...EXTENDED_CASE_IDS, ...QUALITY_CASE_IDS];

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
