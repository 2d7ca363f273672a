export interface KeyedBackoffOptions {
  /** Delay after the first failure. */
  readonly baseMs?: number;
  /** Longest delay the exponential part reaches. */
  readonly maxMs?: number;
  /** Growth per consecutive failure. */
  readonly factor?: number;
  /**
   * Spreads delays so keys that failed together do not retry together. Receives the capped delay; its result
   * is used as is (floored at 0), so a jitter that adds may exceed `maxMs` by what it adds.
   */
  readonly jitter?: (ms: number) => number;
}

/**
 * Per-key exponential backoff, as client-go's item exponential failure rate limiter: the n-th consecutive
 * failure of a key waits base * factor^(n-1), capped at max. Pure bookkeeping; the caller owns the timers.
 */
export class KeyedBackoff<K extends string = string> {
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private readonly jitter: (ms: number) => number;
  private readonly counts = new Map<K, number>();

  constructor({ baseMs = 5, maxMs = 300_000, factor = 2, jitter = (ms) => ms }: KeyedBackoffOptions = {}) {
    if (!(baseMs > 0)) throw new RangeError(`baseMs must be > 0, got ${String(baseMs)}`);
    if (!(maxMs >= baseMs)) throw new RangeError(`maxMs must be >= baseMs, got ${String(maxMs)}`);
    if (!(factor >= 1)) throw new RangeError(`factor must be >= 1, got ${String(factor)}`);
    this.baseMs = baseMs;
    this.maxMs = maxMs;
    this.factor = factor;
    this.jitter = jitter;
  }

  /** Records a failure of `key` and returns how long to wait before trying it again. */
  next(key: K): number {
    const failures = this.failures(key);
    this.counts.set(key, failures + 1);
    // factor ** failures overflows to Infinity after enough failures, which the cap absorbs.
    const capped = Math.min(this.maxMs, this.baseMs * this.factor ** failures);
    return Math.max(0, this.jitter(capped));
  }

  /** Forgets the failures of `key` (after a success), so its next failure waits `baseMs` again. */
  reset(key: K): void {
    this.counts.delete(key);
  }

  /** Consecutive failures of `key` recorded since its last reset. */
  failures(key: K): number {
    return this.counts.get(key) ?? 0;
  }
}
