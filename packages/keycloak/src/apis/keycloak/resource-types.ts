import type { KeycloakResource } from './actions.js';

/** The types of resource Keycloak plans create, update and delete. */
export type ResourceType = KeycloakResource['type'];

/** The resource of type `T` (an intersection, so a member shared by two types narrows to either). */
export type ResourceOf<T extends ResourceType> = KeycloakResource & { readonly type: T };
