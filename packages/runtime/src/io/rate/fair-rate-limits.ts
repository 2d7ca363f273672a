import type { TokenBucketLimit } from './token-bucket.js';

/** The limits every request through a FairRateLimiter passes. */
export interface FairRateLimits {
  /** Per tenant that caused a request, so one tenant's backlog stays its own. */
  readonly tenant: TokenBucketLimit;
  /** All tenants' requests together: what protects the server. */
  readonly global: TokenBucketLimit;
  /** Token-endpoint requests (logins), charged to no tenant: few, but a loop of failed ones must not flood the server. */
  readonly token: TokenBucketLimit;
  /** Longest a request waits before failing with a retryable KeywardError (reason RateLimited). */
  readonly maxWaitMs: number;
}

/** What a limiter's errors and metrics call the API and its tenants. */
export interface FairRateLimitNames {
  /** The API, in errors and metric names: "keycloak". */
  readonly api: string;
  /** The API as people name it: "Keycloak". */
  readonly label: string;
  /** What a tenant is: "namespace". */
  readonly tenant: string;
  /** What a tenant's requests are: "admin" (an "admin request", the "admin" queue). */
  readonly kind: string;
}

/** The words of a limiter whose API names none of its own. */
export const defaultFairRateLimitNames: FairRateLimitNames = { api: 'http', label: 'HTTP', tenant: 'tenant', kind: 'tenant' };

/** Throws a RangeError naming the first unusable field, e.g. "tenant.ratePerSecond". */
export function validateFairRateLimits(limits: FairRateLimits, names: FairRateLimitNames = defaultFairRateLimitNames): void {
  for (const name of ['tenant', 'global', 'token'] as const) {
    const limit = limits[name];
    if (!isFinitePositive(limit.ratePerSecond)) {
      throw invalid(names, `${name}.ratePerSecond`, 'a positive number of requests per second', limit.ratePerSecond);
    }
    if (!Number.isFinite(limit.burst) || limit.burst < 1) {
      throw invalid(names, `${name}.burst`, 'at least 1, or no request could ever pass', limit.burst);
    }
  }
  if (!isFinitePositive(limits.maxWaitMs)) throw invalid(names, 'maxWaitMs', 'a positive number of milliseconds', limits.maxWaitMs);
}

function isFinitePositive(value: number): boolean {
  return Number.isFinite(value) && value > 0;
}

function invalid(names: FairRateLimitNames, field: string, expected: string, actual: number): RangeError {
  return new RangeError(`${names.label} rate limit ${field} must be ${expected}; got ${String(actual)}`);
}
