import { FairRateLimiter, type FairRateLimiterOptions, type FairRateLimitNames, type FairRateLimits } from '@keyward/runtime/io';

/** Keycloak's tenants are the namespaces of the objects that cause admin requests. */
export const keycloakRateLimitNames: FairRateLimitNames = { api: 'keycloak', label: 'Keycloak', tenant: 'namespace', kind: 'admin' };

/**
 * The existing operator's proven figures for a namespace and global. maxWaitMs is 30 s: at the default
 * namespace rate that is 150 requests of a team's own backlog, beyond which holding a reconcile worker only
 * delays other objects; failing retryably hands the object back to the work queue's backoff instead.
 */
export const defaultKeycloakRateLimits: FairRateLimits = {
  tenant: { ratePerSecond: 5, burst: 10 },
  global: { ratePerSecond: 50, burst: 100 },
  token: { ratePerSecond: 2, burst: 5 },
  maxWaitMs: 30_000,
};

/** The fair limiter of Keycloak requests: each namespace a tenant, errors and metrics in Keycloak's words. */
export function keycloakRateLimiter(limits: FairRateLimits = defaultKeycloakRateLimits, options: Omit<FairRateLimiterOptions, 'names'> = {}): FairRateLimiter {
  return new FairRateLimiter(limits, { ...options, names: keycloakRateLimitNames });
}
