/**
 * Runs tasks side by side, up to `concurrency` at once, taking each next task only when a slot is
 * free: `next` is called in order, so what it hands out (and the budget it takes) depends on the
 * order alone, never on which task ended first.
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

/** Each of `items` through `play`, up to `concurrency` at once; the results in the items' order. */
export async function mapInParallel<T, R>(
  items: readonly T[],
  concurrency: number,
  play: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let index = 0;
  await inParallel(concurrency, () => {
    if (index >= items.length) return undefined;
    const at = index++;
    return async () => {
      results[at] = await play(items[at]!, at);
    };
  });
  return results;
}
