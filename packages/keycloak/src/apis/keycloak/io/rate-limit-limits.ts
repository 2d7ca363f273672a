import type { TokenBucketLimit } from '@keyward/runtime/io';

export type { TokenBucketLimit };

/** The limits every request to Keycloak passes. */
export interface KeycloakRateLimits {
  /** Per namespace of the object that caused an admin request, so one team's backlog stays its own. */
  readonly namespace: TokenBucketLimit;
  /** All admin requests together: what protects Keycloak. */
  readonly global: TokenBucketLimit;
  /** Token-endpoint requests, charged to no namespace: logins are few, but a loop of failed ones must not flood Keycloak. */
  readonly token: TokenBucketLimit;
  /** Longest a request waits before failing with a retryable KeywardError (reason RateLimited). */
  readonly maxWaitMs: number;
}

/**
 * The existing operator's proven figures for namespace and global. maxWaitMs is 30 s: at the default
 * namespace rate that is 150 requests of a team's own backlog, beyond which holding a reconcile worker only
 * delays other objects; failing retryably hands the object back to the work queue's backoff instead.
 */
export const defaultKeycloakRateLimits: KeycloakRateLimits = {
  namespace: { ratePerSecond: 5, burst: 10 },
  global: { ratePerSecond: 50, burst: 100 },
  token: { ratePerSecond: 2, burst: 5 },
  maxWaitMs: 30_000,
};

/** Throws a RangeError naming the first unusable field, e.g. "namespace.ratePerSecond". */
export function validateKeycloakRateLimits(limits: KeycloakRateLimits): void {
  for (const name of ['namespace', 'global', 'token'] as const) {
    const limit = limits[name];
    if (!isFinitePositive(limit.ratePerSecond)) {
      throw invalid(`${name}.ratePerSecond`, 'a positive number of requests per second', limit.ratePerSecond);
    }
    if (!Number.isFinite(limit.burst) || limit.burst < 1) {
      throw invalid(`${name}.burst`, 'at least 1, or no request could ever pass', limit.burst);
    }
  }
  if (!isFinitePositive(limits.maxWaitMs)) throw invalid('maxWaitMs', 'a positive number of milliseconds', limits.maxWaitMs);
}

function isFinitePositive(value: number): boolean {
  return Number.isFinite(value) && value > 0;
}

function invalid(field: string, expected: string, actual: number): RangeError {
  return new RangeError(`Keycloak rate limit ${field} must be ${expected}; got ${String(actual)}`);
}
