// Bounded concurrency for the floors and for setting up thousands of objects without flooding the API server.

/** Runs `work` over `items` with at most `concurrency` calls in flight; results in item order. */
export async function promisePool<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** Calls `create(0 .. count-1)` in batches of `size` at once (set-up, not measured). */
export async function inBatches(count: number, size: number, create: (index: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < count; i += size) {
    await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => create(i + j)));
  }
}
