/**
 * quality/latency: answers come fast. Sends nothing: reads the answer times of every message turn
 * of the run on one channel (the fixed cases and the quality cases that send messages; not
 * quality/auth's and quality/malformed's turns, which are meant to be turned away) and reports p50,
 * p95 and max (nearest rank). A p95 above --latency-budget warns. Runs on every channel, last.
 */
import { type Finding, warning } from '../core/findings.js';
import type { CaseReport, LatencyFigures } from '../core/report.js';
import type { QualityCaseId, QualityContext } from './quality-context.js';
import { qualityCase, qualityConversationPattern } from './quality-turn.js';
import { now } from '../core/clock.js';

const ID = 'quality/latency';

/** Quality cases whose turns are not messages to answer, and so say nothing of answer times. */
const NOT_MESSAGES: readonly string[] = ['quality/auth', 'quality/malformed', ID] satisfies QualityCaseId[];

/** The nearest-rank percentile of sorted values: the smallest value with at least `percent`% at or below it. */
export function nearestRank(sorted: readonly number[], percent: number): number {
  return sorted[Math.max(0, Math.ceil((percent / 100) * sorted.length) - 1)]!;
}

/** p50, p95 and max of the answer times, or undefined with none. */
export function latencyFigures(latencies: readonly number[], budgetSeconds: number): LatencyFigures | undefined {
  if (latencies.length === 0) return undefined;
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    turns: sorted.length,
    p50Ms: nearestRank(sorted, 50),
    p95Ms: nearestRank(sorted, 95),
    maxMs: sorted[sorted.length - 1]!,
    budgetMs: budgetSeconds * 1000,
  };
}

/** `cases`: every case of the run so far, fixed and quality. */
export function latencyCase(context: QualityContext, channel: string, cases: readonly CaseReport[]): CaseReport {
  const started = now();
  const latencies = cases
    .filter((caseReport) => caseReport.channel === channel && !NOT_MESSAGES.includes(caseReport.id))
    .flatMap((caseReport) => caseReport.turns.map((turn) => turn.latencyMs));
  const budgetSeconds = context.plan.latencyBudgetSeconds;
  const figures = latencyFigures(latencies, budgetSeconds);
  const caseFindings: Finding[] = [];
  if (figures && figures.p95Ms > figures.budgetMs) {
    caseFindings.push(
      warning(
        'latency',
        '',
        `expected 95% of answers on ${channel} within the ${budgetSeconds} s budget (--latency-budget); p95 is ${figures.p95Ms} ms (p50 ${figures.p50Ms} ms, max ${figures.maxMs} ms, over ${figures.turns} turns)`,
        'Answer sooner: keep slow work (model calls, lookups) short or do it after answering, and reuse connections and clients between requests; or raise --latency-budget if this is expected.',
      ),
    );
  }
  return qualityCase(context, {
    id: ID,
    channel,
    conversationId: qualityConversationPattern(context, channel),
    started,
    turns: [],
    caseFindings,
    ...(figures ? { latency: figures } : {}),
  });
}
