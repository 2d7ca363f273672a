import Bottleneck from 'bottleneck';
import type { HttpLimiterOptions } from './types.js';

const DEFAULT_MAX_CONCURRENT = 10;

function limiter(options: HttpLimiterOptions | undefined): Bottleneck {
  return new Bottleneck({ maxConcurrent: options?.maxConcurrent ?? DEFAULT_MAX_CONCURRENT, minTime: options?.minTimeMs ?? 0 });
}

/**
 * The endpoint's limiter and, when bucket options are given, one limiter per bucket, created on first use.
 * A request queues in its bucket first and only then in the endpoint's limiter, so a tenant's burst waits in
 * its own queue and the endpoint's slots go round the tenants that have work.
 */
export class Limiters {
  readonly #endpoint: Bottleneck;
  readonly #bucketOptions: HttpLimiterOptions | undefined;
  readonly #buckets = new Map<string, Bottleneck>();

  constructor(endpoint: HttpLimiterOptions | undefined, bucket: HttpLimiterOptions | undefined) {
    this.#endpoint = limiter(endpoint);
    this.#bucketOptions = bucket;
  }

  /** Runs `job` once the bucket's limiter (if any) and then the endpoint's let it go; `job` must not reject. */
  schedule<T>(bucket: string | undefined, job: () => Promise<T>): Promise<T> {
    const throughEndpoint = (): Promise<T> => this.#endpoint.schedule(job);
    const own = this.#bucket(bucket);
    return own === undefined ? throughEndpoint() : own.schedule(throughEndpoint);
  }

  #bucket(name: string | undefined): Bottleneck | undefined {
    if (name === undefined || this.#bucketOptions === undefined) return undefined;
    let found = this.#buckets.get(name);
    if (found === undefined) {
      found = limiter(this.#bucketOptions);
      this.#buckets.set(name, found);
    }
    return found;
  }
}
