// The interpreter's pure engine: it runs a plan through whatever handlers it is given and renders a dry run.
// The handlers that do I/O (clients, HTTP transport) are in @keyward/runtime/io, which re-exports this.
export * from './errors.js';
export * from './types.js';
export { secretKeyValue } from './secret-key.js';
export { interpret, dryRun, toKeywardError, STOPPED } from './interpret.js';
export type { InterpretOptions } from './interpret.js';
export { defaultErrorPolicy } from './error-policy.js';
export { errorPolicyOf, removeOrphans, runReconcile } from './drive.js';
export type { DriveHooks, DriveOptions, DriveTarget, OrphanRemoval, ReadBack, ReconcileOutcome, Requeue } from './drive.js';
export type { ErrorPolicy, FailureResponse } from './error-policy.js';
export { apiSet, defineApiRuntime } from './api-runtime.js';
export type { ApiRuntime, ApiSet, AnyApiRuntime } from './api-runtime.js';
export { EndpointBreaker, AvailabilityListeners, statusMeansDown } from './availability.js';
export type { AvailabilityChange, AvailabilityListener, AvailabilitySource, BreakerClock, BreakerSettings, EndpointAvailability, EndpointBreakerOptions } from './availability.js';
export { controlRuntime } from '../apis/control/runtime.js';
export { tokenRefusal } from '../apis/keystone/token-check.js';
