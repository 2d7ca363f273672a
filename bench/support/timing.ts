import { performance } from 'node:perf_hooks';

export interface Span {
  readonly seconds: number;
  /** CPU time (user and system) this process spent meanwhile, on any core. */
  readonly cpuSeconds: number;
}

/** Wall-clock and CPU time `work` took. */
export async function measured(work: () => Promise<unknown>): Promise<Span> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

/** Seconds `work` took. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  return (await measured(work)).seconds;
}

/** A figure for the JSON output, to `digits` decimals. */
export function rounded(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** `promise`, or an error naming `what` after `ms`: a benchmark that cannot finish should say why, not hang. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => { reject(new Error(`timed out after ${String(ms / 1000)} s waiting for ${what}`)); }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
