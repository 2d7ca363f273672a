// Admin API paths, relative to /admin. Names and ids are path segments, so they are encoded here.
import type { ScopeList } from '../actions.js';
import { PERMISSION_KINDS } from '../authorization.js';

const segment = encodeURIComponent;

export const realmsPath = '/realms';
export const realmPath = (realm: string): string => `${realmsPath}/${segment(realm)}`;

export const realmRolesPath = (realm: string): string => `${realmPath(realm)}/roles`;
export const realmRolePath = (realm: string, name: string): string => `${realmRolesPath(realm)}/${segment(name)}`;

export const clientScopesPath = (realm: string): string => `${realmPath(realm)}/client-scopes`;
export const clientScopePath = (realm: string, id: string): string => `${clientScopesPath(realm)}/${segment(id)}`;

/** The mappers of a client scope or client (its path). */
export const mappersPath = (ownerPath: string): string => `${ownerPath}/protocol-mappers/models`;
export const mapperPath = (ownerPath: string, id: string): string => `${mappersPath(ownerPath)}/${segment(id)}`;

/** A realm's default or optional client scopes: what new clients get. */
export const realmScopeListPath = (realm: string, list: ScopeList): string => `${realmPath(realm)}/default-${list}-client-scopes`;

export const clientsPath = (realm: string): string => `${realmPath(realm)}/clients`;
export const clientPath = (realm: string, id: string): string => `${clientsPath(realm)}/${segment(id)}`;
export const clientRolesPath = (realm: string, id: string): string => `${clientPath(realm, id)}/roles`;
export const clientRolePath = (realm: string, id: string, name: string): string => `${clientRolesPath(realm, id)}/${segment(name)}`;
export const clientScopeListPath = (realm: string, id: string, list: ScopeList): string => `${clientPath(realm, id)}/${list}-client-scopes`;
export const clientSecretPath = (realm: string, id: string): string => `${clientPath(realm, id)}/client-secret`;
/** The secret a regeneration rotated out, while client-secret rotation keeps it valid (404 without one). */
export const rotatedClientSecretPath = (realm: string, id: string): string => `${clientSecretPath(realm, id)}/rotated`;
export const serviceAccountUserPath = (realm: string, id: string): string => `${clientPath(realm, id)}/service-account-user`;

/** The roles a composite role is made of (its path), all of them or only those of one container. */
export const compositesPath = (rolePath: string): string => `${rolePath}/composites`;

/** A user's direct role mappings: all, the realm's, or one client's. */
export const roleMappingsPath = (realm: string, userId: string): string => `${realmPath(realm)}/users/${segment(userId)}/role-mappings`;
export const realmRoleMappingsPath = (realm: string, userId: string): string => `${roleMappingsPath(realm, userId)}/realm`;
export const clientRoleMappingsPath = (realm: string, userId: string, clientUuid: string): string => `${roleMappingsPath(realm, userId)}/clients/${segment(clientUuid)}`;

/** A realm's client profiles or client policies, each a list read and replaced whole. */
export const clientPolicyListPath = (realm: string, list: 'profiles' | 'policies'): string => `${realmPath(realm)}/client-policies/${list}`;

/** A realm's top-level authentication flows. */
/** A realm's identity providers, by alias, and their mappers. */
export const identityProvidersPath = (realm: string): string => `${realmPath(realm)}/identity-provider/instances`;
export const identityProviderPath = (realm: string, alias: string): string => `${identityProvidersPath(realm)}/${segment(alias)}`;
export const identityProviderMappersPath = (realm: string, alias: string): string => `${identityProviderPath(realm, alias)}/mappers`;
/** Components: user federation providers and their mappers, among others. */
export const componentsPath = (realm: string): string => `${realmPath(realm)}/components`;

/** Appends an id to a collection path. */
export const itemPath = (collection: string, id: string): string => `${collection}/${segment(id)}`;

/** Authentication flows: by id to read, update and delete, by alias to copy and to reach their steps. */
export const authenticationPath = (realm: string): string => `${realmPath(realm)}/authentication`;
export const flowsPath = (realm: string): string => `${authenticationPath(realm)}/flows`;
export const flowPath = (realm: string, idOrAlias: string): string => `${flowsPath(realm)}/${segment(idOrAlias)}`;
export const flowCopyPath = (realm: string, alias: string): string => `${flowPath(realm, alias)}/copy`;
export const flowExecutionsPath = (realm: string, alias: string): string => `${flowPath(realm, alias)}/executions`;
export const executionPath = (realm: string, id: string): string => `${authenticationPath(realm)}/executions/${segment(id)}`;
export const registerRequiredActionPath = (realm: string): string => `${authenticationPath(realm)}/register-required-action`;
export const requiredActionsPath = (realm: string): string => `${authenticationPath(realm)}/required-actions`;
export const authenticatorConfigPath = (realm: string, id: string): string => `${authenticationPath(realm)}/config/${segment(id)}`;
export const requiredActionPath = (realm: string, alias: string): string => `${requiredActionsPath(realm)}/${segment(alias)}`;
/** A realm's top-level groups, one group, its subgroups, and its direct role mappings. */
export const groupsPath = (realm: string): string => `${realmPath(realm)}/groups`;
export const groupItemPath = (realm: string, id: string): string => `${groupsPath(realm)}/${segment(id)}`;
export const groupChildrenPath = (realm: string, id: string): string => `${groupItemPath(realm, id)}/children`;
export const groupRoleMappingsPath = (realm: string, id: string): string => `${groupItemPath(realm, id)}/role-mappings`;
/** A group by its path (`/a/b`), each name a segment of its own. */
export const groupByPathPath = (realm: string, path: string): string => `${realmPath(realm)}/group-by-path/${path.split('/').filter((name) => name !== '').map(segment).join('/')}`;
export const defaultGroupsPath = (realm: string): string => `${realmPath(realm)}/default-groups`;
/** A client's authorization services (its resource server), and their scopes and resources. */
export const resourceServerPath = (realm: string, id: string): string => `${clientPath(realm, id)}/authz/resource-server`;
export const authorizationScopesPath = (realm: string, id: string): string => `${resourceServerPath(realm, id)}/scope`;
export const authorizationResourcesPath = (realm: string, id: string): string => `${resourceServerPath(realm, id)}/resource`;
/** A realm's organizations (Keycloak 26), one by id, and the identity providers linked to one. */
export const organizationsPath = (realm: string): string => `${realmPath(realm)}/organizations`;
export const organizationPath = (realm: string, id: string): string => `${organizationsPath(realm)}/${segment(id)}`;
export const organizationIdentityProvidersPath = (realm: string, id: string): string => `${organizationPath(realm, id)}/identity-providers`;
/** Policies are made and replaced under their type; permissions (resource, scope) under /permission. */
export const policyTypePath = (realm: string, id: string, type: string): string =>
  `${resourceServerPath(realm, id)}/${PERMISSION_KINDS.has(type) ? 'permission' : 'policy'}/${type}`;
/** A client's authorization policies and permissions, listed, read and deleted here. */
export const authorizationPoliciesPath = (realm: string, id: string): string => `${resourceServerPath(realm, id)}/policy`;
