/**
 * Milliseconds on a monotonic clock, for durations. The same clock as performance.now(), read
 * without loading perf_hooks (eight of Node's own modules, a few milliseconds of every start).
 */
export function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
