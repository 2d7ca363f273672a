export * from './backoff.js';
export * from './work-queue.js';
export * from './metrics.js';
export * from './http-endpoints.js';
export * from './logger.js';
export * from './leader-election.js';
export { QueryRunner } from './query-runner.js';
export type { CacheView, QueryRunnerDependencies } from './query-runner.js';
