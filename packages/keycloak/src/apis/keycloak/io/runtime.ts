import { defineApiRuntime, type ApiRuntime } from '@keyward/kernel/interpreter';
import { readSecretKey, type FairRateLimiter, type FairRateLimits, type HttpRequestObserver, type KubeClient } from '@keyward/runtime/io';
import type { KeycloakAction } from '../actions.js';
import { keycloakApi } from '../api.js';
import type { KeycloakQuery } from '../queries.js';
import { KeycloakAdminClient } from './client.js';
import { readAdminCredentials } from './credentials.js';
import { keycloakHandlers } from './handlers.js';
import { keycloakQueries } from './queries.js';
import { keycloakRateLimiter } from './rate-limits.js';
import { AdminTokenCache } from './tokens.js';
import type { KeycloakTransportOptions } from './transport.js';
import { keycloakTransportPool, type KeycloakTransportPool } from './transports.js';

export interface KeycloakRuntimeOptions {
  /** Reads the admin credentials Secrets and the Secrets that secret fields name. */
  readonly kube: KubeClient;
  /** A limiter to share (between runtimes, or with a test); by default one is made from `limits`. */
  readonly limiter?: FairRateLimiter;
  /** The limits of the limiter made here (default: defaultKeycloakRateLimits); ignored when `limiter` is given. */
  readonly limits?: FairRateLimits;
  /** Options of each server's transport (timeouts, retries, breaker). */
  readonly transport?: Omit<KeycloakTransportOptions, 'observer' | 'tenantLimiter'>;
  /** Told about every HTTP attempt, token requests and probes included. */
  readonly observer?: HttpRequestObserver;
  /** Milliseconds since the epoch, for token expiry; injectable for tests. */
  readonly now?: () => number;
}

export interface KeycloakRuntime extends ApiRuntime<KeycloakAction, KeycloakQuery> {
  readonly admin: KeycloakAdminClient;
  readonly tokens: AdminTokenCache;
  readonly transports: KeycloakTransportPool;
}

/**
 * The Keycloak API module's runtime: a transport per server URL, admin tokens per server and credentials
 * Secret, and every admin request through the fair rate limiter, its namespace the tenant.
 */
export function keycloakRuntime(options: KeycloakRuntimeOptions): KeycloakRuntime {
  const { kube } = options;
  const limiter = options.limiter ?? keycloakRateLimiter(options.limits);
  // Every server's admin requests take their namespace's turn in the one limiter.
  const transports = keycloakTransportPool({ ...options.transport, tenantLimiter: limiter, ...(options.observer === undefined ? {} : { observer: options.observer }) });
  const tokens = new AdminTokenCache({
    readCredentials: (secret) => readAdminCredentials(kube, secret),
    transportFor: transports,
    limiter,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const admin = new KeycloakAdminClient({ transportFor: transports, tokens });
  return {
    ...defineApiRuntime<KeycloakAction, KeycloakQuery>({
      api: keycloakApi,
      handlers: keycloakHandlers({ admin, readSecret: (ref) => readSecretKey(kube, ref) }),
      queries: () => keycloakQueries(admin),
      availability: transports,
      close: () => { transports.close(); },
    }),
    admin,
    tokens,
    transports,
  };
}
