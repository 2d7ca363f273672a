import type { KeycloakObject } from './representations.js';

// A client's authorization services (its resource server) as Keycloak 26's admin API gives them, under
// /clients/{id}/authz/resource-server.

/** The resource server's own settings; a PUT must state all three, or Keycloak answers 409. */
export interface AuthorizationSettingsRepresentation extends KeycloakObject {
  readonly policyEnforcementMode?: string;
  readonly decisionStrategy?: string;
  readonly allowRemoteResourceManagement?: boolean;
}

/** A scope: Keycloak keeps no attributes or description on it, so nothing in it can mark it as ours. */
export interface AuthorizationScopeRepresentation extends KeycloakObject {
  readonly id: string;
  readonly name: string;
  readonly displayName?: string;
  readonly iconUri?: string;
}

/** A resource; Keycloak names its id `_id`, and lists its scopes with their ids and names. */
export interface AuthorizationResourceRepresentation extends KeycloakObject {
  readonly _id: string;
  readonly name: string;
  readonly displayName?: string;
  readonly type?: string;
  readonly uris?: readonly string[];
  readonly scopes?: readonly { readonly id?: string; readonly name?: string }[];
  readonly attributes?: Readonly<Record<string, readonly string[]>>;
  readonly ownerManagedAccess?: boolean;
}

/** A client's authorization services as read: the settings, and every scope and resource (ours or not). */
export interface ObservedAuthorization {
  readonly settings: AuthorizationSettingsRepresentation;
  readonly scopes: readonly AuthorizationScopeRepresentation[];
  readonly resources: readonly AuthorizationResourceRepresentation[];
}
