export * from './backoff.js';
export * from './work-queue.js';
