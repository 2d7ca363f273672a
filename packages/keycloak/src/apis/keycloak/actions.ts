import type { Produces, SecretKeyRef, Template, Value } from '@keyward/kernel/plan';
import type { Sensitive } from '@keyward/kernel';
import type { RoleNames } from './representations.js';
import type { ScopeMappingTarget } from './scope-mappings.js';

/**
 * The Keycloak server an action or query talks to, and the Secret holding its admin credentials: keys
 * `username` and `password` (password grant on admin-cli) or `client-id` and `client-secret`
 * (client_credentials). The Secret is read when a token is needed, and again after a 401, so a rotated
 * admin credential is picked up without a restart.
 */
export interface KeycloakServer {
  /** The server root, e.g. http://127.0.0.1:8080 (no /admin, no /realms). */
  readonly url: string;
  readonly credentials: { readonly namespace: string; readonly name: string };
}

/** Every Keycloak action and query names its server and the namespace whose rate limit it is charged to. */
export interface KeycloakCall {
  readonly server: KeycloakServer;
  /** The namespace of the object that caused the call: its per-namespace bucket pays for it. */
  readonly chargeTo: string;
}

/** Which of a realm's or client's two client-scope lists. */
export type ScopeList = 'default' | 'optional';

/** A client by clientId, with its internal id once it is known (an earlier step may create it). */
export interface ClientAddress {
  readonly realm: string;
  readonly clientId: string;
  readonly id: Value<string>;
}

/**
 * Something in Keycloak that is created, updated and deleted as a whole. Names are what people read in
 * plans; ids are what the admin API addresses (known from the observed state, or from an earlier step).
 */
export type KeycloakResource =
  | { readonly type: 'realm'; readonly realm: string }
  | { readonly type: 'realmRole'; readonly realm: string; readonly name: string }
  /** `id` for update and delete. */
  | { readonly type: 'clientScope'; readonly realm: string; readonly name: string; readonly id?: Value<string> }
  /** A protocol mapper of a client scope; `id` for update and delete. */
  | { readonly type: 'clientScopeMapper'; readonly realm: string; readonly scope: { readonly name: string; readonly id: Value<string> }; readonly name: string; readonly id?: string }
  /** A client scope (by name) in the realm's default or optional list; create adds it, delete removes it. */
  | { readonly type: 'realmScopeLink'; readonly realm: string; readonly list: ScopeList; readonly scope: string }
  /** `id` for update and delete. */
  | { readonly type: 'client'; readonly realm: string; readonly clientId: string; readonly id?: Value<string> }
  | { readonly type: 'clientRole'; readonly client: ClientAddress; readonly name: string }
  /** A protocol mapper of a client; `id` for update and delete. */
  | { readonly type: 'clientMapper'; readonly client: ClientAddress; readonly name: string; readonly id?: string }
  /** A client scope (by name) in a client's default or optional list; create adds it, delete removes it. */
  | { readonly type: 'clientScopeLink'; readonly client: ClientAddress; readonly list: ScopeList; readonly scope: string }
  /** The realm's client profiles or client policies: one list, updated (replaced) whole. */
  | { readonly type: 'clientProfiles' | 'clientPolicies'; readonly realm: string }
  /** The secret a regeneration rotated out, where client-secret rotation keeps it valid; only deleted. */
  | { readonly type: 'rotatedClientSecret'; readonly client: ClientAddress }
  /** A top-level authentication flow; `id` for update and delete (looked up by alias without one). */
  | { readonly type: 'authenticationFlow'; readonly realm: string; readonly alias: string; readonly id?: Value<string> }
  /** A copy of flow `from` made under `alias` (create only); its id is the new flow's. */
  | { readonly type: 'authenticationFlowCopy'; readonly realm: string; readonly alias: string; readonly from: string }
  /**
   * A step of flow `flow` (an alias): an authenticator (`name` its provider id) or a sub-flow (`name` its
   * alias). Create's id is the execution's, or for a sub-flow its flow's; update and delete take the
   * execution's `id` (a sub-flow's is looked up by its alias without one).
   */
  | { readonly type: 'flowExecution'; readonly realm: string; readonly flow: string; readonly name: string; readonly subFlow: boolean; readonly id?: Value<string> }
  /** The config of an authenticator step; `id` for update and delete. */
  | { readonly type: 'authenticatorConfig'; readonly realm: string; readonly execution: { readonly name: string; readonly id: Value<string> }; readonly alias: string; readonly id?: string }
  /** A registered required action, by alias (its provider's id); create registers it, delete unregisters it. */
  | { readonly type: 'requiredAction'; readonly realm: string; readonly alias: string }
  /**
   * A realm group by path; `id` for update and delete. A subgroup is created among the children of
   * `parentId` (a top-level one without it).
   */
  | { readonly type: 'group'; readonly realm: string; readonly path: string; readonly id?: Value<string>; readonly parentId?: Value<string> }
  /** A group (by path) among the realm's default groups; create adds it, delete removes it. */
  | { readonly type: 'defaultGroup'; readonly realm: string; readonly path: string }
  /** An identity provider of a realm, by its alias (which is also its id in the admin API). */
  | { readonly type: 'identityProvider'; readonly realm: string; readonly alias: string }
  /** A mapper of an identity provider; `id` for update and delete. */
  | { readonly type: 'identityProviderMapper'; readonly realm: string; readonly alias: string; readonly name: string; readonly id?: string }
  /** The settings of a client's authorization services (its resource server); only updated. */
  | { readonly type: 'authorizationSettings'; readonly client: ClientAddress }
  /** A scope or resource of a client's authorization services; `id` for update and delete. */
  | { readonly type: 'authorizationScope' | 'authorizationResource'; readonly client: ClientAddress; readonly name: string; readonly id?: string }
  /**
   * A component of a realm (a user federation provider, or one of its mappers when `parent` names it): the
   * body carries its providerId, providerType and parentId; `id` for update and delete.
   */
  | { readonly type: 'component'; readonly realm: string; readonly name: string; readonly parent?: string; readonly id?: Value<string> }
  /** An organization of a realm, by alias (Keycloak's key, which never changes); `id` for update and delete. */
  | { readonly type: 'organization'; readonly realm: string; readonly alias: string; readonly id?: string }
  /** An identity provider (by alias) linked to an organization; create links it, delete unlinks it. */
  | { readonly type: 'organizationIdentityProvider'; readonly realm: string; readonly organization: { readonly alias: string; readonly id: Value<string> }; readonly alias: string }
  /** A policy or permission of a client's authorization services, of a Keycloak policy type; `id` for update and delete. */
  | { readonly type: 'authorizationPolicy'; readonly client: ClientAddress; readonly name: string; readonly policyType: string; readonly id?: string };

/** A JSON body; leaves may be sensitive or outputs of earlier steps. */
export type KeycloakBody = Readonly<Record<string, Template | undefined>>;

/**
 * Values of a body read from Secrets when the step runs, keyed by their dotted path in the body
 * (`smtpServer.password`, `secret`): plans never hold them.
 */
export type SecretFields = Readonly<Record<string, SecretKeyRef>>;

/**
 * Creates a resource: POST of `body` (links are a PUT without one). Its id comes back for later steps (a
 * realm's and a role's is its name, a link's the scope's id). A resource that already exists fails with
 * Conflict (409). When a read right after finds it, the Conflict is retryable: the plan
 * was made from a state that is gone (often an earlier create of ours that got no answer while Keycloak went on
 * and made it), and the next reconcile reads it and goes on by the ownership rules.
 */
export interface KeycloakCreateAction extends KeycloakCall, Produces<{ readonly id: string }> {
  readonly kind: 'keycloak.create';
  readonly resource: KeycloakResource;
  readonly body?: KeycloakBody;
  readonly secretFields?: SecretFields;
}

/**
 * Updates a resource with a PUT of `body`: the fields that differ, plus whatever Keycloak replaces whole
 * (a realm's smtpServer is sent complete, its password from `secretFields` or kept by sending the mask).
 */
export interface KeycloakUpdateAction extends KeycloakCall {
  readonly kind: 'keycloak.update';
  readonly resource: KeycloakResource;
  readonly body: KeycloakBody;
  readonly secretFields?: SecretFields;
  /** The names of the fields that differ, for the plan; never values (some are secrets). */
  readonly changed: readonly string[];
}

/** Deletes a resource; one already gone (404) counts as unchanged. */
export interface KeycloakDeleteAction extends KeycloakCall {
  readonly kind: 'keycloak.delete';
  readonly resource: KeycloakResource;
}

/** Who holds roles: a composite role (its composites), a client's service account, or a group. */
export type RoleHolder =
  | { readonly type: 'role'; readonly realm: string; readonly name: string; readonly client?: ClientAddress }
  | { readonly type: 'serviceAccount'; readonly client: ClientAddress }
  | { readonly type: 'group'; readonly realm: string; readonly path: string; readonly id: Value<string> }
  /** The scope of a client scope or a client: the roles it may put in tokens. */
  | { readonly type: 'scopeMappings'; readonly realm: string; readonly target: ScopeMappingTarget };

/** Grants roles, by name, to a holder; roles it holds already are left as they are. */
export interface KeycloakGrantRolesAction extends KeycloakCall {
  readonly kind: 'keycloak.grantRoles';
  readonly holder: RoleHolder;
  readonly roles: RoleNames;
}

/** Takes roles, by name, from a holder; roles it does not hold are ignored. */
export interface KeycloakRevokeRolesAction extends KeycloakCall {
  readonly kind: 'keycloak.revokeRoles';
  readonly holder: RoleHolder;
  readonly roles: RoleNames;
}

/** Has Keycloak generate a new secret for a confidential client; the old one stops working at once. */
export interface KeycloakRegenerateSecretAction extends KeycloakCall, Produces<{ readonly secret: Sensitive }> {
  readonly kind: 'keycloak.regenerateClientSecret';
  readonly client: ClientAddress;
}

export type KeycloakAction =
  | KeycloakCreateAction
  | KeycloakUpdateAction
  | KeycloakDeleteAction
  | KeycloakGrantRolesAction
  | KeycloakRevokeRolesAction
  | KeycloakRegenerateSecretAction;
