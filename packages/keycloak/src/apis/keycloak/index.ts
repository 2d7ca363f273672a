// The pure half of the Keycloak API module; its client and handlers are in io/.
export type * from './actions.js';
export type * from './queries.js';
export type * from './representations.js';
export { keycloakApi, describeResource, describeRoles } from './api.js';
export { ownershipAttributes, ownershipOf } from '../../ownership.js';
