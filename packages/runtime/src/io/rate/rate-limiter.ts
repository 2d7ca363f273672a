import { Fifo } from './fifo.js';
import { TokenBucket, type TokenBucketLimit } from './token-bucket.js';

/** Time and one-shot timers; injectable so tests drive time. */
export interface RateLimiterClock {
  now(): number;
  /** Calls `callback` once after `ms`; the returned function cancels it. */
  setTimer(ms: number, callback: () => void): () => void;
}

export const systemRateLimiterClock: RateLimiterClock = {
  now: () => performance.now(),
  setTimer: (ms, callback) => {
    const timer = setTimeout(callback, ms);
    // A process waiting only for a token may exit.
    timer.unref();
    return () => { clearTimeout(timer); };
  },
};

/**
 * A first-come first-served token bucket: `acquire` resolves when a token is free. At most one timer runs,
 * for the moment the next waiter can go; an idle limiter holds none.
 */
export class RateLimiter {
  readonly #bucket: TokenBucket;
  readonly #clock: RateLimiterClock;
  readonly #waiting = new Fifo<() => void>();
  #cancelTimer: (() => void) | undefined;

  constructor(limit: TokenBucketLimit, clock: RateLimiterClock = systemRateLimiterClock) {
    if (!(limit.ratePerSecond > 0)) throw new RangeError(`rate limit: ratePerSecond must be > 0, got ${String(limit.ratePerSecond)}`);
    if (!(limit.burst >= 1)) throw new RangeError(`rate limit: burst must be >= 1, got ${String(limit.burst)}`);
    this.#clock = clock;
    this.#bucket = new TokenBucket(limit, clock.now());
  }

  /** Requests waiting for a token. */
  get waiting(): number {
    return this.#waiting.size;
  }

  acquire(): Promise<void> {
    const now = this.#clock.now();
    if (this.#waiting.size === 0 && this.#bucket.hasToken(now)) {
      this.#bucket.take(now);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#arm();
    });
  }

  #release(): void {
    this.#cancelTimer = undefined;
    const now = this.#clock.now();
    while (this.#waiting.size > 0 && this.#bucket.hasToken(now)) {
      this.#bucket.take(now);
      this.#waiting.shift()?.();
    }
    this.#arm();
  }

  #arm(): void {
    if (this.#cancelTimer !== undefined || this.#waiting.size === 0) return;
    const now = this.#clock.now();
    this.#cancelTimer = this.#clock.setTimer(Math.max(0, this.#bucket.readyAt(now) - now), () => { this.#release(); });
  }
}
