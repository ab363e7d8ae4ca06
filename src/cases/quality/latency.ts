/**
 * quality/latency: answers come fast. Sends nothing: reads the answer times of every message turn
 * of the run on one channel (the fixed cases and the quality cases that send messages; not
 * quality/auth's and quality/malformed's turns, which are meant to be turned away, nor
 * quality/large-attachment's, whose time is mostly the 7 MB upload) and reports p50,
 * p95 and max (nearest rank). A p95 above --latency-budget warns. Runs on every channel, last.
 */
import { warning } from '../../core/findings.js';
import { MAX_WAIT_SECONDS } from '../../contract/contract.js';
import type { LatencyFigures } from '../../core/report.js';
import type { QualityCase } from '../case.js';
import { auth } from './auth.js';
import { largeAttachment } from './large-attachment.js';
import { malformed } from './malformed.js';

const ID = 'quality/latency';

/** Cases whose turns are not messages to answer, or are mostly upload, and so say nothing of answer times. */
const NOT_MESSAGES: readonly string[] = [auth.id, malformed.id, largeAttachment.id, ID];

/** The nearest-rank percentile of sorted values: the smallest value with at least `percent`% at or below it. */
export function nearestRank(sorted: readonly number[], percent: number): number {
  return sorted[Math.max(0, Math.ceil((percent / 100) * sorted.length) - 1)]!;
}

/** p50, p95 and max of the answer times, or undefined with none. */
export function latencyFigures(latencies: readonly number[], budgetMs: number): LatencyFigures | undefined {
  if (latencies.length === 0) return undefined;
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    turns: sorted.length,
    p50Ms: nearestRank(sorted, 50),
    p95Ms: nearestRank(sorted, 95),
    maxMs: sorted[sorted.length - 1]!,
    budgetMs,
  };
}

export const latency = {
  id: ID,
  description: 'On each channel, 95% of the run’s answers come within the latency budget (--latency-budget).',
  scope: 'channel',
  group: 'quality',
  order: 1000, // last: it reads every turn played before it
  doc: {
    runs: 'every channel',
    sends: "nothing: reads the answer times of the channel's message turns (not the auth or malformed probes, nor the 5 MiB upload)",
    finding: 'p50, p95 and max (nearest rank) printed; p95 above `--latency-budget` seconds (default 10) warns (`latency`)',
  },
  rules: [{ id: 'latency' }],
  playsOnce: true,
  settings: {
    budgetMs: {
      description: 'A p95 latency above it, in milliseconds, is a warning',
      default: 10_000,
      max: MAX_WAIT_SECONDS * 1000,
      option: {
        field: 'latencyBudgetSeconds' as const,
        flag: 'latency-budget',
        placeholder: 'SECONDS',
        description: 'A p95 latency above it is a warning in quality/latency',
        default: 10,
        max: MAX_WAIT_SECONDS,
        scale: 1000,
      },
    },
  },
  async run(context) {
    const { channel } = context;
    const latencies = context
      .finishedCases()
      .filter((caseReport) => caseReport.channel === channel && !NOT_MESSAGES.includes(caseReport.id))
      .flatMap((caseReport) => caseReport.plays.flatMap((play) => play.turns.map((turn) => turn.latencyMs)));
    const budgetMs = context.setting('budgetMs');
    const budgetSeconds = budgetMs / 1000;
    const figures = latencyFigures(latencies, budgetMs);
    if (!figures) return {};
    const findings =
      figures.p95Ms > figures.budgetMs
        ? [
            warning(
              'latency',
              '',
              `expected 95% of answers on ${channel} within the ${budgetSeconds} s budget (--latency-budget); p95 is ${figures.p95Ms} ms (p50 ${figures.p50Ms} ms, max ${figures.maxMs} ms, over ${figures.turns} turns)`,
              'Answer sooner: keep slow work (model calls, lookups) short or do it after answering, and reuse connections and clients between requests; or raise --latency-budget if this is expected.',
            ),
          ]
        : [];
    return { findings, latency: figures };
  },
} satisfies QualityCase<typeof ID>;
