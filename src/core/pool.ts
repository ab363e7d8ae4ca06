/**
 * Tasks side by side, at most a number of them in flight: the one pool the run's cases and
 * --explore's conversations go through.
 */

/**
 * Runs tasks side by side, up to `concurrency` at once, taking each next task only when a slot is
 * free: `next` is called in order, so what it hands out (and any budget it takes) depends on the
 * order alone, never on which task ended first. Ends once `next` hands out none and every task is done.
 */
export async function inParallel(concurrency: number, next: () => (() => Promise<void>) | undefined): Promise<void> {
  let done = false;
  const worker = async (): Promise<void> => {
    while (!done) {
      const task = next();
      if (task === undefined) {
        done = true;
        return;
      }
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
}

/** Runs tasks with at most `limit` in flight at once; results keep the tasks' order. */
export async function runPooled<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let index = 0;
  await inParallel(Math.min(limit, tasks.length), () => {
    if (index >= tasks.length) return undefined;
    const at = index++;
    return async () => {
      results[at] = await tasks[at]!();
    };
  });
  return results;
}
