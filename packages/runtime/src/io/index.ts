// Each API module's runtime (its client and handlers) and the HTTP transport. The engine that runs plans through
// them is @keyward/kernel/interpreter; handler tables are reached through the runtimes.
export { KubeClient, ContentType, FIELD_MANAGER } from '../apis/kubernetes/io/client.js';
export type { KubeClientOptions, KubeRequestInfo, KubeCall, ListResult } from '../apis/kubernetes/io/client.js';
export type { KubernetesHandlerOptions } from '../apis/kubernetes/io/handlers.js';
export { kubernetesRuntime } from '../apis/kubernetes/io/runtime.js';
export { resourcePath, labelSelector } from '../apis/kubernetes/io/paths.js';
export { readSecretKey } from '../apis/kubernetes/io/secret-key.js';
export { KeystoneClient } from '../apis/keystone/io/client.js';
export type * from '../apis/keystone/io/client.js';
export { keystoneRuntime, keystoneClientPool } from '../apis/keystone/io/runtime.js';
export type { KeystoneClientPool, KeystoneRuntimeOptions } from '../apis/keystone/io/runtime.js';
export { TokenCache } from '../apis/keystone/io/token-cache.js';
export { HttpTransport } from './http/transport.js';
export { defaultErrorDetail } from './http/error-detail.js';
export { parseRetryAfter } from './http/retry-after.js';
export type * from './http/types.js';
export { TokenBucket } from './rate/token-bucket.js';
export type { TokenBucketLimit } from './rate/token-bucket.js';
export { Fifo } from './rate/fifo.js';
export { RateLimiter, systemRateLimiterClock } from './rate/rate-limiter.js';
export type { RateLimiterClock } from './rate/rate-limiter.js';
export { FairRateLimiter, fairLimiterClock } from './rate/fair-rate-limiter.js';
export type { FairRateLimiterOptions, RateLimitBudgets, RateLimitObserver, RateLimitType } from './rate/fair-rate-limiter.js';
export { defaultFairRateLimitNames, validateFairRateLimits } from './rate/fair-rate-limits.js';
export type { FairRateLimitNames, FairRateLimits } from './rate/fair-rate-limits.js';
