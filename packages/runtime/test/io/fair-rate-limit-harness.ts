import { FairRateLimiter, type RateLimitObserver } from '../../src/io/rate/fair-rate-limiter.js';
import type { FairRateLimitNames, FairRateLimits } from '../../src/io/rate/fair-rate-limits.js';
import type { TokenBucketLimit } from '../../src/io/rate/token-bucket.js';
import { FakeLimiterClock } from './fair-rate-limit-clock.js';

/** A request let through: whose, and when. */
export interface Grant {
  readonly label: string;
  readonly at: number;
}

/** A request rejected: whose, when, and with what. */
export interface Rejection {
  readonly label: string;
  readonly at: number;
  readonly error: unknown;
}

const generous: TokenBucketLimit = { ratePerSecond: 1000, burst: 1000 };

/** The words of the limiter's first user, whose tenants are namespaces, so messages read as its operators see them. */
export const namespaceWords: FairRateLimitNames = { api: 'keycloak', label: 'Keycloak', tenant: 'namespace', kind: 'admin' };

/** Limits for a test: whatever it does not name is too generous to matter. */
export function limits(overrides: Partial<FairRateLimits>): FairRateLimits {
  return { tenant: generous, global: generous, token: generous, maxWaitMs: 3_600_000, ...overrides };
}

/** A limiter on a fake clock that records every grant and rejection in order. */
export class LimiterHarness {
  readonly clock = new FakeLimiterClock();
  readonly limiter: FairRateLimiter;
  readonly grants: Grant[] = [];
  readonly rejections: Rejection[] = [];

  constructor(rateLimits: FairRateLimits, observer?: RateLimitObserver) {
    const options = { clock: this.clock, names: namespaceWords };
    this.limiter = new FairRateLimiter(rateLimits, observer === undefined ? options : { ...options, observer });
  }

  /** Queues `count` requests charged to the tenant `namespace`, labelled namespace/1, namespace/2, ... */
  admin(namespace: string, count = 1): void {
    for (let i = 1; i <= count; i++) this.#track(`${namespace}/${String(i)}`, this.limiter.acquire(namespace));
  }

  /** Queues `count` token-endpoint requests, labelled token/1, token/2, ... */
  token(count = 1): void {
    for (let i = 1; i <= count; i++) this.#track(`token/${String(i)}`, this.limiter.acquireToken());
  }

  /** Grant times of one label prefix ("team-a/" or "token/"). */
  timesOf(prefix: string): number[] {
    return this.grants.filter((grant) => grant.label.startsWith(prefix)).map((grant) => grant.at);
  }

  #track(label: string, acquired: Promise<void>): void {
    acquired.then(
      () => { this.grants.push({ label, at: this.clock.now() }); },
      (error: unknown) => { this.rejections.push({ label, at: this.clock.now(), error }); },
    );
  }
}
