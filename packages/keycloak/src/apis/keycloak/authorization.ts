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

/** The policy types that are permissions: made under /permission, their parts read item by item. */
export const PERMISSION_KINDS: ReadonlySet<string> = new Set(['resource', 'scope']);

/** A policy or permission as the policy list gives it: `config` holds its parts as JSON text of ids. */
export interface AuthorizationPolicyRepresentation extends KeycloakObject {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly description?: string;
  readonly logic?: string;
  readonly decisionStrategy?: string;
  readonly config?: Readonly<Record<string, string>>;
}

/** A policy's parts by name, as a spec states them (ids resolved by reads); a time policy's bounds and a regex policy's fields as text. */
export interface PolicyParts extends KeycloakObject {
  readonly roles?: readonly { readonly name: string; readonly required: boolean }[];
  readonly fetchRoles?: boolean;
  readonly users?: readonly string[];
  readonly groups?: readonly { readonly path: string; readonly extendChildren: boolean }[];
  readonly groupsClaim?: string;
  readonly clients?: readonly string[];
  readonly policies?: readonly string[];
  readonly resources?: readonly string[];
  readonly scopes?: readonly string[];
  readonly targetContextAttributes?: boolean;
  /** A permission's type of resources (Keycloak's config `defaultResourceType`); empty when none. */
  readonly resourceType?: string;
}

/** A policy; `parts` only for those a spec lists (reading them costs requests). */
export interface ObservedPolicy extends AuthorizationPolicyRepresentation {
  readonly parts?: PolicyParts;
}

/** A client's authorization services as read: the settings, and every scope and resource (ours or not). */
export interface ObservedAuthorization {
  readonly settings: AuthorizationSettingsRepresentation;
  readonly scopes: readonly AuthorizationScopeRepresentation[];
  readonly resources: readonly AuthorizationResourceRepresentation[];
  /** Its policies and permissions (ours or not), when the query asked for them. */
  readonly policies?: readonly ObservedPolicy[];
}
