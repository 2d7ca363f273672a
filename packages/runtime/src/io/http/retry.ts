import type { KeywardError } from '@keyward/kernel/interpreter';
import type { HttpMethod, HttpRequest, HttpRetryOptions } from './types.js';

const DEFAULTS = { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 5_000, retryAfterCapMs: 30_000 } as const;

/** Methods whose repetition has the effect of one call, so a failure that may not have reached the server is retried. */
const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set<HttpMethod>(['GET', 'HEAD', 'PUT', 'DELETE']);

/** Whether and after what pause a failed attempt is tried again: exponential backoff, or the server's Retry-After. */
export class RetryPolicy {
  readonly #maxAttempts: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #retryAfterCapMs: number;

  constructor(options: HttpRetryOptions = {}) {
    this.#maxAttempts = options.maxAttempts ?? DEFAULTS.maxAttempts;
    this.#baseDelayMs = options.baseDelayMs ?? DEFAULTS.baseDelayMs;
    this.#maxDelayMs = options.maxDelayMs ?? DEFAULTS.maxDelayMs;
    this.#retryAfterCapMs = options.retryAfterCapMs ?? DEFAULTS.retryAfterCapMs;
    if (!Number.isInteger(this.#maxAttempts) || this.#maxAttempts < 1) throw new RangeError(`maxAttempts must be an integer >= 1, got ${String(this.#maxAttempts)}`);
    if (!(this.#baseDelayMs >= 0)) throw new RangeError(`baseDelayMs must be >= 0, got ${String(this.#baseDelayMs)}`);
    if (!(this.#maxDelayMs >= this.#baseDelayMs)) throw new RangeError(`maxDelayMs must be >= baseDelayMs, got ${String(this.#maxDelayMs)}`);
    if (!(this.#retryAfterCapMs >= 0)) throw new RangeError(`retryAfterCapMs must be >= 0, got ${String(this.#retryAfterCapMs)}`);
  }

  /**
   * The pause before the next attempt after `error` ended attempt number `attempt` (1 for the first), or
   * undefined when the request fails with it: the failure is not retryable, the attempts are used up, the
   * request may not be repeated, or the server asked for a longer pause than is waited for here.
   */
  delayAfter(request: Pick<HttpRequest, 'method' | 'retry'>, attempt: number, error: KeywardError): number | undefined {
    if (!error.retryable || attempt >= this.#maxAttempts || !(request.retry ?? IDEMPOTENT.has(request.method))) return undefined;
    if (error.retryAfterMs !== undefined) return error.retryAfterMs <= this.#retryAfterCapMs ? error.retryAfterMs : undefined;
    return Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** (attempt - 1));
  }
}
