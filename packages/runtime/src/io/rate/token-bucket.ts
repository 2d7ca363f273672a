/** One token bucket: refills continuously at `ratePerSecond` up to `burst` tokens, and starts full. */
export interface TokenBucketLimit {
  readonly ratePerSecond: number;
  readonly burst: number;
}

/**
 * Refill arithmetic in floating point can leave a bucket a hair short of a whole token at the very moment
 * it was computed to have one; without this slack a timer set for that moment would find nothing and re-arm.
 */
const EPSILON = 1e-9;

/** A token bucket on a caller-supplied clock (milliseconds); it keeps no timers of its own. */
export class TokenBucket {
  readonly #perMs: number;
  readonly #burst: number;
  #tokens: number;
  #updatedAt: number;

  constructor(limit: TokenBucketLimit, now: number) {
    this.#perMs = limit.ratePerSecond / 1000;
    this.#burst = limit.burst;
    this.#tokens = limit.burst;
    this.#updatedAt = now;
  }

  /** Tokens available at `now`, fractions included. */
  available(now: number): number {
    // A clock that steps back gives nothing and takes nothing.
    if (now > this.#updatedAt) {
      this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#updatedAt) * this.#perMs);
      this.#updatedAt = now;
    }
    return this.#tokens;
  }

  hasToken(now: number): boolean {
    return this.available(now) >= 1 - EPSILON;
  }

  /** Takes one token; callers check hasToken first. */
  take(now: number): void {
    this.#tokens = this.available(now) - 1;
  }

  /** The earliest moment (>= now) at which a token is available, if nobody takes one before. */
  readyAt(now: number): number {
    const tokens = this.available(now);
    return tokens >= 1 - EPSILON ? now : now + (1 - tokens) / this.#perMs;
  }

  isFull(now: number): boolean {
    return this.available(now) >= this.#burst - EPSILON;
  }

  /** How long an untouched bucket takes from empty to full: after that, forgetting it changes nothing. */
  get refillMs(): number {
    return this.#burst / this.#perMs;
  }
}
