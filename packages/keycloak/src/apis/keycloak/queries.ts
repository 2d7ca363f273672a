import type { Returns } from '@keyward/kernel/plan';
import type { Sensitive } from '@keyward/kernel';
import type { OwnerObject } from '../../ownership.js';
import type { KeycloakCall } from './actions.js';
import type { ObservedAuthorization } from './authorization.js';
import type { FlowsRead, ObservedFlow, RequiredActionRepresentation } from './flow-representations.js';
import type { GroupReads, ObservedGroup } from './groups.js';
import type { ObservedScopeMapping, ScopeMappingTarget } from './scope-mappings.js';
import type { ObservedFederationProvider } from './components.js';
import type { ObservedReach, ReachRead } from './role-reach.js';
import type { ClientRepresentation, ClientScopeRepresentation, ObservedIdentityProvider, ObservedRole, OrganizationRepresentation, RealmRepresentation, RoleNames } from './representations.js';

/** A realm as Keycloak has it, with the parts a KeycloakRealm manages. */
export interface ObservedRealm {
  /** GET /admin/realms/{realm}: secrets (the SMTP password) come back masked. */
  readonly realm: RealmRepresentation;
  readonly roles: readonly ObservedRole[];
  /** Every client scope of the realm, built-in ones included, with their protocol mappers. */
  readonly clientScopes: readonly ClientScopeRepresentation[];
  /** Names of the realm's default and optional client scopes. */
  readonly defaultClientScopes: readonly string[];
  readonly optionalClientScopes: readonly string[];
  /** The realm's top-level authentication flows, when the query asked for them. */
  readonly authenticationFlows?: readonly ObservedFlow[];
  /** The realm's registered required actions, when the query asked for them. */
  readonly requiredActions?: readonly RequiredActionRepresentation[];
  /** The realm's top-level groups, when the query asks for them. */
  readonly groups?: readonly ObservedGroup[];
  /** The paths of the realm's default groups, when the query asks for them. */
  readonly defaultGroups?: readonly string[];
  /** The scope mappings of the targets the query names. */
  readonly scopeMappings?: readonly ObservedScopeMapping[];
  /** The realm's identity providers, when the query asked for them. */
  readonly identityProviders?: readonly ObservedIdentityProvider[];
  /** The realm's user federation providers, when the query asked for them. */
  readonly userFederation?: readonly ObservedFederationProvider[];
  /** The realm's organizations, when the query asked for them and the realm has organizations enabled. */
  readonly organizations?: readonly OrganizationRepresentation[];
  /** The aliases of the identity providers linked to each organization the query names, by organization alias. */
  readonly organizationLinks?: Readonly<Record<string, readonly string[]>>;
  /** Those of the clientIds the query names that the realm has. */
  readonly clients?: readonly string[];
}

/** A client as Keycloak has it, with the parts a KeycloakClient manages. */
export interface ObservedClient {
  /** GET /admin/realms/{realm}/clients/{id}, protocol mappers included. */
  readonly client: ClientRepresentation & { readonly id: string };
  /** The current secret of a confidential client owned by the query's owner; undefined otherwise. */
  readonly secret: Sensitive | undefined;
  readonly roles: readonly ObservedRole[];
  /** Names of the client's default and optional client scopes. */
  readonly defaultClientScopes: readonly string[];
  readonly optionalClientScopes: readonly string[];
  /** The roles its service account holds directly (not through composites); undefined without one. */
  readonly serviceAccountRoles: RoleNames | undefined;
  /** Its authorization services, when the query asked and the client has them enabled. */
  readonly authorization?: ObservedAuthorization;
}

/** Reads a realm; undefined when there is none of that name. */
export interface KeycloakRealmQuery extends KeycloakCall, Returns<ObservedRealm | undefined> {
  readonly kind: 'keycloak.realm';
  readonly realm: string;
  /** Read the realm's authentication flows too (one request, plus one per flow whose steps are read, plus configs). */
  readonly authenticationFlows?: FlowsRead;
  /** Read the realm's registered required actions too (one request). */
  readonly requiredActions?: boolean;
  /** Which groups to read; none without (a realm whose spec manages no groups costs no group reads). */
  readonly groups?: GroupReads;
  /** Whether to read the realm's default groups (one request). */
  readonly defaultGroups?: boolean;
  /** Client scopes and clients whose scope mappings to read (about two requests each). */
  readonly scopeMappings?: readonly ScopeMappingTarget[];
  /**
   * Whether to read the realm's identity providers (one more request), and the aliases of those whose mappers
   * to read (one request each): a realm that lists none and made none has nothing there to keep or prune.
   */
  readonly identityProviders?: { readonly mappersOf: readonly string[] };
  /**
   * Whether to read the realm's user federation providers (one request), the names of those whose mappers
   * to read (one request each), and of the LDAP ones whose connection Keycloak tests (one request each).
   */
  readonly userFederation?: { readonly mappersOf: readonly string[]; readonly testConnectionOf?: readonly string[] };
  /** Whether to read the realm's organizations (one request per 1000, none while the realm has them disabled). */
  readonly organizations?: boolean;
  /** The organizations (by alias) whose linked identity providers to read (one request each). */
  readonly organizationLinksOf?: readonly string[];
  /** ClientIds to look for (one request each): which of them the realm has is ObservedRealm.clients. */
  readonly clients?: readonly string[];
}

/**
 * Reads a client by clientId (an exact match); undefined when the realm or the client does not exist. Its
 * secret is read only when the client's ownership attributes name `owner`: a client someone else owns never
 * has its secret read on another object's behalf.
 */
export interface KeycloakClientQuery extends KeycloakCall, Returns<ObservedClient | undefined> {
  readonly kind: 'keycloak.client';
  readonly realm: string;
  readonly clientId: string;
  readonly owner: OwnerObject;
  /**
   * Whether to read the client's roles (one more request); without, ObservedClient.roles is empty. A client
   * whose spec lists no roles and that created none has nothing to keep or prune among them.
   */
  readonly roles: boolean;
  /**
   * Whether to read the client's authorization settings, scopes and resources (three more requests, only
   * for a client with authorization services enabled).
   */
  readonly authorization?: boolean;
  /**
   * With `authorization`: list its policies and permissions (one more request), and read the parts of those
   * named here (a few requests each).
   */
  readonly authorizationPolicies?: readonly string[];
}

/** A realm's top-level authentication flow, as clients and bindings name it. */
export interface FlowName {
  readonly id: string;
  readonly alias: string;
}

/** Reads a realm's top-level authentication flows (built-in ones included); undefined when there is no realm. */
export interface KeycloakFlowsQuery extends KeycloakCall, Returns<readonly FlowName[] | undefined> {
  readonly kind: 'keycloak.flows';
  readonly realm: string;
}

/**
 * Reads what the roles and groups `read` names lead to in a realm (each composite role's parts, each group's
 * roles and its parents'), each role once: a request per role and group reached, and one per client.
 * Empty when the realm does not exist.
 */
export interface KeycloakGrantReachQuery extends KeycloakCall, Returns<ObservedReach> {
  readonly kind: 'keycloak.grantReach';
  readonly realm: string;
  readonly read: ReachRead;
}

export type KeycloakQuery = KeycloakRealmQuery | KeycloakClientQuery | KeycloakFlowsQuery | KeycloakGrantReachQuery;
