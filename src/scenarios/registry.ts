/**
 * Every case of the check, in the order reports list them. The runner, `--case`, baselines and
 * every report format read this list.
 */
import { buttonTap } from './button-tap.js';
import { doubleText } from './double-text.js';
import { noReply } from './no-reply.js';
import { photoCase } from './photo.js';
import { auth } from './quality/auth.js';
import { concurrency } from './quality/concurrency.js';
import { forwardCompat } from './quality/forward-compat.js';
import { latency } from './quality/latency.js';
import { longInput } from './quality/long-input.js';
import { malformed } from './quality/malformed.js';
import { retry } from './quality/retry.js';
import type { Scenario } from './scenario.js';
import { typed } from './typed.js';

/** The contract's fixed cases, played on every run. */
export const CONTRACT_SCENARIOS = [typed, doubleText, photoCase, buttonTap, noReply] as const;

/**
 * The quality cases (--quality), played after the fixed ones in this order: auth and malformed
 * first, concurrency alone (its load is its own), latency last (it reads every turn before it).
 */
export const QUALITY_SCENARIOS = [auth, malformed, forwardCompat, concurrency, retry, longInput, latency] as const;

export const SCENARIOS: readonly Scenario[] = [...CONTRACT_SCENARIOS, ...QUALITY_SCENARIOS];

export type CaseId = (typeof CONTRACT_SCENARIOS)[number]['id'];
export type QualityCaseId = (typeof QUALITY_SCENARIOS)[number]['id'];

/** The fixed cases' ids, stable in every output format. */
export const CASE_IDS: readonly CaseId[] = CONTRACT_SCENARIOS.map((scenario) => scenario.id);
/** The quality cases' ids. */
export const QUALITY_CASE_IDS: readonly QualityCaseId[] = QUALITY_SCENARIOS.map((scenario) => scenario.id);

export function isCaseId(id: string): id is CaseId {
  return CASE_IDS.some((known) => known === id);
}
