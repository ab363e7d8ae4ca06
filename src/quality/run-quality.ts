/**
 * The quality cases of --quality, after the fixed ones: checks beyond the contract's shapes that a
 * production endpoint needs. What runs where:
 *
 * - once per run, on the first channel: quality/auth, quality/malformed, quality/concurrency (they
 *   test the endpoint, not what a platform shows);
 * - on every channel: quality/forward-compat, quality/retry, quality/long-input (their answers are
 *   judged against that channel's platform), and quality/latency (figures per channel).
 *
 * They run in that order: auth and malformed first, then the per-channel cases (up to
 * --concurrency conversations at once), then the concurrency case on its own, so its load is its
 * own; latency last, over every turn before it. Reported in the table's order, case by case.
 */
import { runPooled } from '../run/pool.js';
import type { CaseReport } from '../core/report.js';
import { authCase } from './auth.js';
import { concurrencyCase } from './concurrency.js';
import { forwardCompatCase } from './forward-compat.js';
import { latencyCase } from './latency.js';
import { longInputCase } from './long-input.js';
import { malformedCase } from './malformed.js';
import type { QualityContext } from './quality-context.js';
import { retryCase } from './retry.js';

type PerChannelCase = (context: QualityContext, channel: string) => Promise<CaseReport>;

export async function runQualityCases(context: QualityContext): Promise<CaseReport[]> {
  const { channels, concurrency } = context.plan;
  const first = channels[0]!;
  const auth = await authCase(context, first);
  const malformed = await malformedCase(context, first);

  const perChannel: readonly PerChannelCase[] = [forwardCompatCase, retryCase, longInputCase];
  const channelCases = await runPooled(
    perChannel.flatMap((run) => channels.map((channel) => () => run(context, channel))),
    concurrency,
  );
  const byCase = (index: number): CaseReport[] => channelCases.slice(index * channels.length, (index + 1) * channels.length);
  const [forwardCompat, retry, longInput] = [byCase(0), byCase(1), byCase(2)];

  const concurrent = await concurrencyCase(context, first);
  const sent = [auth, malformed, ...channelCases, concurrent];
  const latency = channels.map((channel) => latencyCase(context, channel, [...context.fixedCases, ...sent]));

  return [auth, malformed, ...forwardCompat, concurrent, ...retry, ...longInput, ...latency];
}
