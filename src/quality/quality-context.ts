import type { AgentClient } from '../http/client.js';
import type { CaseReport } from '../core/report.js';
import type { CheckPlan } from '../run/check-endpoint.js';

/** What the quality cases get: the resolved run, the open client, and the fixed cases' reports. */
export interface QualityContext {
  plan: CheckPlan;
  client: AgentClient;
  /** This run's id, for fresh conversation and message ids. */
  runId: string;
  /** The fixed cases of this run, done (quality/latency reads their turns' latencies). */
  fixedCases: readonly CaseReport[];
}

/** The quality cases' ids, stable in every output format. */
export const QUALITY_CASE_IDS = [
  'quality/auth',
  'quality/malformed',
  'quality/forward-compat',
  'quality/concurrency',
  'quality/retry',
  'quality/long-input',
  'quality/latency',
] as const;
export type QualityCaseId = (typeof QUALITY_CASE_IDS)[number];
