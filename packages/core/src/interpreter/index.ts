// The impure half of @keyward/core: each API module's runtime (its client and handlers), the HTTP transport
// and the interpreter that runs plans with them. Handler tables are reached through the runtimes.
export * from './errors.js';
export * from './types.js';
export { interpret, dryRun, toKeywardError, STOPPED } from './interpret.js';
export type { InterpretOptions } from './interpret.js';
export { defaultErrorPolicy } from './error-policy.js';
export type { ErrorPolicy, FailureResponse } from './error-policy.js';
export { apiSet, defineApiRuntime } from './api-runtime.js';
export type { ApiRuntime, ApiSet, AnyApiRuntime } from './api-runtime.js';
export { EndpointBreaker, AvailabilityListeners, statusMeansDown } from './availability.js';
export type { AvailabilityChange, AvailabilityListener, AvailabilitySource, BreakerClock, BreakerSettings, EndpointBreakerOptions } from './availability.js';
export { controlRuntime } from '../apis/control/runtime.js';
export { KubeClient, ContentType, FIELD_MANAGER } from '../apis/kubernetes/io/client.js';
export type { KubeClientOptions, KubeRequestInfo, KubeCall, ListResult } from '../apis/kubernetes/io/client.js';
export type { KubernetesHandlerOptions } from '../apis/kubernetes/io/handlers.js';
export { kubernetesRuntime } from '../apis/kubernetes/io/runtime.js';
export { resourcePath, labelSelector } from '../apis/kubernetes/io/paths.js';
export { KeystoneClient } from '../apis/keystone/io/client.js';
export type * from '../apis/keystone/io/client.js';
export { keystoneRuntime, keystoneClientPool } from '../apis/keystone/io/runtime.js';
export type { KeystoneClientPool, KeystoneRuntimeOptions } from '../apis/keystone/io/runtime.js';
export { TokenCache } from '../apis/keystone/io/token-cache.js';
export { HttpTransport } from './http/transport.js';
export { defaultErrorDetail } from './http/error-detail.js';
export { parseRetryAfter } from './http/retry-after.js';
export type * from './http/types.js';
