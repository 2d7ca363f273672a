export type * from './actions.js';
export { REQUEUE_AFTER } from './actions.js';
export { controlApi } from './api.js';
