import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { RateLimitBudgets, RateLimitObserver, RateLimitType } from '../io/rate/fair-rate-limiter.js';
import type { FairRateLimitNames } from '../io/rate/fair-rate-limits.js';

/** The same buckets as the other waits: from nothing to minutes when a backlog builds up. */
const WAIT_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

/** Anything that reports budgets, such as a FairRateLimiter. */
export interface RateLimitBudgetSource {
  budgets(): RateLimitBudgets;
}

/**
 * A FairRateLimiter's Prometheus metrics on a given registry (the runtime's, usually), named after its API
 * (keyward_<api>_rate_limit_...) and labelled with its words: for Keycloak limit="namespace", queue="admin".
 * `observer` goes to the limiter's constructor; the gauges read the limiter's budgets when scraped, once
 * `watchBudgets` has named it, so no timer keeps them current.
 */
export class FairRateLimitMetrics {
  readonly wait: Histogram<'limit'>;
  readonly acquired: Counter<'limit'>;
  readonly timedOut: Counter<'limit'>;
  readonly budget: Gauge<'limit'>;
  readonly tenantsWaiting: Gauge;
  readonly requestsWaiting: Gauge<'queue'>;
  readonly observer: RateLimitObserver;
  #source: RateLimitBudgetSource | undefined;

  constructor(registry: Registry, names: FairRateLimitNames) {
    const registers = [registry];
    const budgets = (): RateLimitBudgets | undefined => this.#source?.budgets();
    const { label, tenant, kind } = names;
    const prefix = `keyward_${names.api}_rate_limit`;
    const limitLabel = (limit: RateLimitType): string => (limit === 'tenant' ? tenant : limit);

    this.wait = new Histogram({
      name: `${prefix}_wait_seconds`,
      help: `Time ${label} requests waited for a token or until they gave up, by the limit that held them (a served ${kind} request counts under ${tenant} and global, adding up to its wait).`,
      labelNames: ['limit'],
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.acquired = new Counter({
      name: `${prefix}_acquired_total`,
      help: `Tokens taken from the ${label} rate limits (${tenant}, global, token).`,
      labelNames: ['limit'],
      registers,
    });
    this.timedOut = new Counter({
      name: `${prefix}_timed_out_total`,
      help: `${label} requests that gave up waiting, by the limit that held them.`,
      labelNames: ['limit'],
      registers,
    });
    this.budget = new Gauge({
      name: `${prefix}_budget_tokens`,
      help: `Tokens left in the global and token-endpoint buckets of the ${label} rate limiter.`,
      labelNames: ['limit'],
      registers,
      collect() {
        const now = budgets();
        if (now === undefined) return;
        this.set({ limit: 'global' }, now.global);
        this.set({ limit: 'token' }, now.token);
      },
    });
    this.tenantsWaiting = new Gauge({
      name: `${prefix}_${tenant}s_waiting`,
      help: `${capitalized(tenant)}s with ${label} ${kind} requests waiting for the rate limiter.`,
      registers,
      collect() {
        const now = budgets();
        if (now !== undefined) this.set(now.tenantsWaiting);
      },
    });
    this.requestsWaiting = new Gauge({
      name: `${prefix}_waiting_requests`,
      help: `${label} requests waiting for the rate limiter: ${kind} requests and token-endpoint requests.`,
      labelNames: ['queue'],
      registers,
      collect() {
        const now = budgets();
        if (now === undefined) return;
        this.set({ queue: kind }, now.tenantRequestsWaiting);
        this.set({ queue: 'token' }, now.tokenRequestsWaiting);
      },
    });
    this.observer = {
      onAcquired: (limit: RateLimitType, waitMs: number) => {
        this.acquired.inc({ limit: limitLabel(limit) });
        this.wait.observe({ limit: limitLabel(limit) }, waitMs / 1000);
      },
      onTimedOut: (limit: RateLimitType, waitMs: number) => {
        this.timedOut.inc({ limit: limitLabel(limit) });
        this.wait.observe({ limit: limitLabel(limit) }, waitMs / 1000);
      },
    };
  }

  /** The limiter whose budgets the gauges report. */
  watchBudgets(source: RateLimitBudgetSource): void {
    this.#source = source;
  }
}

function capitalized(word: string): string {
  return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
}
