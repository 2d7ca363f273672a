import Bottleneck from 'bottleneck';
import type { HttpLimiterOptions, TenantRateLimiter } from './types.js';

const DEFAULT_MAX_CONCURRENT = 10;

/**
 * The tenant limiter, when there is one, and the endpoint's. A request charged to a tenant waits for its
 * tenant's turn first and only then queues in the endpoint's limiter, so a tenant's burst waits behind
 * itself and the endpoint's slots go round the tenants that have work.
 */
export class Limiters {
  readonly #endpoint: Bottleneck;
  readonly #tenants: TenantRateLimiter | undefined;

  constructor(endpoint: HttpLimiterOptions | undefined, tenants: TenantRateLimiter | undefined) {
    this.#endpoint = new Bottleneck({ maxConcurrent: endpoint?.maxConcurrent ?? DEFAULT_MAX_CONCURRENT, minTime: endpoint?.minTimeMs ?? 0 });
    this.#tenants = tenants;
  }

  /**
   * Runs `job` once the tenant's limiter (if the request names a tenant and there is a limiter) and then the
   * endpoint's let it go; `job` must not reject. Rejects with the tenant limiter's RateLimited error when the
   * request waited too long for its turn: then nothing was sent.
   */
  async schedule<T>(tenant: string | undefined, job: () => Promise<T>): Promise<T> {
    if (tenant !== undefined && this.#tenants !== undefined) await this.#tenants.acquire(tenant);
    return this.#endpoint.schedule(job);
  }
}
