// The pure half of the Keystone API module; its client and handlers are in io/.
export type * from './actions.js';
export type * from './queries.js';
export { keystoneApi } from './api.js';
