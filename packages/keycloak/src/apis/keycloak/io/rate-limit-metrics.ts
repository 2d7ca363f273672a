import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { RateLimitBudgets, RateLimitObserver, RateLimitType } from './rate-limit.js';

/** The same buckets as core's other waits: from nothing to minutes when a backlog builds up. */
const WAIT_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

/** Anything that reports budgets, such as a FairRateLimiter. */
export interface RateLimitBudgetSource {
  budgets(): RateLimitBudgets;
}

/**
 * The Keycloak rate limiter's Prometheus metrics on a given registry (the runtime's, usually). `observer`
 * goes to the limiter's constructor; the gauges read the limiter's budgets when scraped, once
 * `watchBudgets` has named it, so no timer keeps them current.
 */
export class KeycloakRateLimitMetrics {
  readonly wait: Histogram<'limit'>;
  readonly acquired: Counter<'limit'>;
  readonly timedOut: Counter<'limit'>;
  readonly budget: Gauge<'limit'>;
  readonly namespacesWaiting: Gauge;
  readonly requestsWaiting: Gauge<'queue'>;
  readonly observer: RateLimitObserver;
  #source: RateLimitBudgetSource | undefined;

  constructor(registry: Registry) {
    const registers = [registry];
    const budgets = (): RateLimitBudgets | undefined => this.#source?.budgets();

    this.wait = new Histogram({
      name: 'keyward_keycloak_rate_limit_wait_seconds',
      help: 'Time Keycloak requests waited for a token or until they gave up, by the limit that held them (a served admin request counts under namespace and global, adding up to its wait).',
      labelNames: ['limit'],
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.acquired = new Counter({
      name: 'keyward_keycloak_rate_limit_acquired_total',
      help: 'Tokens taken from the Keycloak rate limits (namespace, global, token).',
      labelNames: ['limit'],
      registers,
    });
    this.timedOut = new Counter({
      name: 'keyward_keycloak_rate_limit_timed_out_total',
      help: 'Keycloak requests that gave up waiting, by the limit that held them.',
      labelNames: ['limit'],
      registers,
    });
    this.budget = new Gauge({
      name: 'keyward_keycloak_rate_limit_budget_tokens',
      help: 'Tokens left in the global and token-endpoint buckets of the Keycloak rate limiter.',
      labelNames: ['limit'],
      registers,
      collect() {
        const now = budgets();
        if (now === undefined) return;
        this.set({ limit: 'global' }, now.global);
        this.set({ limit: 'token' }, now.token);
      },
    });
    this.namespacesWaiting = new Gauge({
      name: 'keyward_keycloak_rate_limit_namespaces_waiting',
      help: 'Namespaces with Keycloak admin requests waiting for the rate limiter.',
      registers,
      collect() {
        const now = budgets();
        if (now !== undefined) this.set(now.namespacesWaiting);
      },
    });
    this.requestsWaiting = new Gauge({
      name: 'keyward_keycloak_rate_limit_waiting_requests',
      help: 'Keycloak requests waiting for the rate limiter: admin requests and token-endpoint requests.',
      labelNames: ['queue'],
      registers,
      collect() {
        const now = budgets();
        if (now === undefined) return;
        this.set({ queue: 'admin' }, now.adminRequestsWaiting);
        this.set({ queue: 'token' }, now.tokenRequestsWaiting);
      },
    });
    this.observer = {
      onAcquired: (limit: RateLimitType, waitMs: number) => {
        this.acquired.inc({ limit });
        this.wait.observe({ limit }, waitMs / 1000);
      },
      onTimedOut: (limit: RateLimitType, waitMs: number) => {
        this.timedOut.inc({ limit });
        this.wait.observe({ limit }, waitMs / 1000);
      },
    };
  }

  /** The limiter whose budgets the gauges report. */
  watchBudgets(source: RateLimitBudgetSource): void {
    this.#source = source;
  }
}
