import { sensitive, type Sensitive } from '@keyward/kernel';
import type { QueryTable } from '@keyward/kernel/interpreter';
import { ownershipOf } from '../../../ownership.js';
import type { FlowName, KeycloakClientQuery, KeycloakFlowsQuery, KeycloakGrantReachQuery, KeycloakQuery, KeycloakRealmQuery, ObservedClient, ObservedRealm } from '../queries.js';
import type { ObservedReach } from '../role-reach.js';
import { readGrantReach } from './grant-reach.js';
import type { ClientRepresentation, ClientScopeRepresentation, ObservedRole, RealmRepresentation, RoleNames } from '../representations.js';
import type { KeycloakAdminClient } from './client.js';
import { stringField, stringsField } from './decode.js';
import { listRequiredActions, observeFlows, readFlows } from './flows.js';
import { findClient, serviceAccountUserId, type WithId } from './lookups.js';
import { clientRolesPath, clientScopesPath, clientSecretPath, realmPath, realmRolesPath, realmScopeListPath } from './paths.js';
import { AdminReads } from './reads.js';
import { ClientIdCache, compositesOf, directRoleMappings, roleNames, rolePath, type ListedRole } from './roles.js';
import type { ScopeList } from '../actions.js';
import { defaultGroupPaths, observeGroups } from './groups.js';
import { observeScopeMappings } from './scope-mappings.js';
import { observeUserFederation } from './components.js';
import { observeIdentityProviders } from './identity-providers.js';
import { observeAuthorization } from './authorization.js';
import { observeOrganizationLinks, observeOrganizations } from './organizations.js';
import { observePolicies } from './authorization-policies.js';

/** Roles with what each composite one is made of, by name. */
async function observedRoles(reads: AdminReads, realm: string, rolesPath: string, clientUuid: string | undefined, clientIds: ClientIdCache): Promise<ObservedRole[]> {
  // Without briefRepresentation=false the list leaves out the roles' attributes, where our marker is.
  const roles = (await reads.list<ListedRole>({ path: rolesPath, query: { briefRepresentation: 'false' }, operation: 'list_roles', description: `list the roles at ${rolesPath}`, fields: ['id', 'name'] })) ?? [];
  return Promise.all(roles.map(async (role) => {
    const composites: RoleNames = role.composite === true
      ? await roleNames(reads, realm, await compositesOf(reads, rolePath(realm, role.name, clientUuid), `role ${role.name}`), clientIds)
      : { realm: [], clients: {} };
    return { role, composites };
  }));
}

async function realmScopeNames(reads: AdminReads, realm: string, list: ScopeList): Promise<string[]> {
  const scopes = await reads.list<ClientScopeRepresentation>({ path: realmScopeListPath(realm, list), operation: 'list_realm_client_scopes', description: `list the ${list} client scopes of realm ${realm}`, fields: ['name'] });
  return (scopes ?? []).map((scope) => scope.name);
}

async function observeRealm(admin: KeycloakAdminClient, query: KeycloakRealmQuery): Promise<ObservedRealm | undefined> {
  const reads = new AdminReads(admin, query);
  const { realm: name } = query;
  const realm = await reads.object<RealmRepresentation>({ path: realmPath(name), operation: 'get_realm', description: `read realm ${name}`, fields: ['realm'] });
  if (realm === undefined) return undefined;
  const clientIds = new ClientIdCache();
  const flows = query.authenticationFlows === undefined ? undefined : observeFlows(reads, name, query.authenticationFlows);
  const requiredActions = query.requiredActions === true ? listRequiredActions(reads, name) : undefined;
  const idps = query.identityProviders;
  const federation = query.userFederation === undefined ? undefined : observeUserFederation(reads, name, query.userFederation.mappersOf, query.userFederation.testConnectionOf);
  const [roles, clientScopes, defaultClientScopes, optionalClientScopes, identityProviders] = await Promise.all([
    observedRoles(reads, name, realmRolesPath(name), undefined, clientIds),
    // The list carries each scope's protocol mappers.
    reads.list<ClientScopeRepresentation>({ path: clientScopesPath(name), operation: 'list_client_scopes', description: `list the client scopes of realm ${name}`, fields: ['id', 'name'] }),
    realmScopeNames(reads, name, 'default'),
    realmScopeNames(reads, name, 'optional'),
    idps === undefined ? Promise.resolve(undefined) : observeIdentityProviders(reads, name, idps.mappersOf),
  ]);
  const groups = query.groups === undefined ? undefined : await observeGroups(reads, name, query.groups);
  const defaultGroups = query.defaultGroups === true ? await defaultGroupPaths(reads, name) : undefined;
  const scopeIds = new Map((clientScopes ?? []).flatMap((scope) => (scope.id === undefined ? [] : [[scope.name, scope.id] as const])));
  const scopeMappings = query.scopeMappings === undefined ? undefined : await observeScopeMappings(reads, name, query.scopeMappings, scopeIds);
  const organizations = query.organizations === true ? await observeOrganizations(reads, realm) : undefined;
  const linksOf = query.organizationLinksOf ?? [];
  const organizationLinks = organizations === undefined || linksOf.length === 0 ? undefined : await observeOrganizationLinks(reads, name, organizations, linksOf);
  const clients = query.clients === undefined ? undefined : await existingClients(reads, name, query.clients);
  return {
    realm,
    roles,
    clientScopes: clientScopes ?? [],
    defaultClientScopes,
    optionalClientScopes,
    ...(flows === undefined ? {} : { authenticationFlows: await flows }),
    ...(requiredActions === undefined ? {} : { requiredActions: await requiredActions }),
    ...(groups === undefined ? {} : { groups }),
    ...(defaultGroups === undefined ? {} : { defaultGroups }),
    ...(scopeMappings === undefined ? {} : { scopeMappings }),
    ...(identityProviders === undefined ? {} : { identityProviders }),
    ...(federation === undefined ? {} : { userFederation: await federation }),
    ...(organizations === undefined ? {} : { organizations }),
    ...(organizationLinks === undefined ? {} : { organizationLinks }),
    ...(clients === undefined ? {} : { clients }),
  };
}

/** Those of `clientIds` the realm has. */
async function existingClients(reads: AdminReads, realm: string, clientIds: readonly string[]): Promise<string[]> {
  const found = await Promise.all(clientIds.map(async (clientId) => ((await findClient(reads, realm, clientId)) === undefined ? [] : [clientId])));
  return found.flat();
}

/** Where client-secret rotation keeps the secret a regeneration replaced (still valid until invalidated). */
const ROTATED_SECRET_ATTRIBUTE = 'client.secret.rotated';

/**
 * A client without its `secret` field: Keycloak includes the secret in every client representation it gives an
 * admin, and it must reach nobody but the client's owner, through ObservedClient.secret.
 */
function withoutSecret(client: WithId<ClientRepresentation>): WithId<ClientRepresentation> {
  const { secret: _secret, attributes, ...rest } = client;
  if (attributes === undefined) return rest;
  // Client-secret rotation keeps the secret it rotated out, in the clear, in this attribute.
  const { [ROTATED_SECRET_ATTRIBUTE]: _rotated, ...kept } = attributes;
  return { ...rest, attributes: kept };
}

async function observeClient(admin: KeycloakAdminClient, query: KeycloakClientQuery): Promise<ObservedClient | undefined> {
  const reads = new AdminReads(admin, query);
  const { realm, clientId } = query;
  // The exact-match list returns the full representation (the same as a GET by id), so one read finds and reads it.
  const found = await findClient(reads, realm, clientId);
  if (found === undefined) return undefined;
  const client = withoutSecret(found);
  const ours = ownershipOf(client.attributes, query.owner).kind === 'ours';
  const confidential = client['publicClient'] !== true;
  const readAuthorization = query.authorization === true && client['authorizationServicesEnabled'] === true;
  const [roles, serviceAccountRoles, secret, authorization, policies] = await Promise.all([
    query.roles ? observedRoles(reads, realm, clientRolesPath(realm, client.id), client.id, new ClientIdCache()) : Promise.resolve([]),
    client['serviceAccountsEnabled'] === true ? serviceAccountRoleNames(reads, realm, client.id, clientId) : Promise.resolve(undefined),
    ours && confidential ? clientSecret(reads, realm, client.id, clientId) : Promise.resolve(undefined),
    readAuthorization ? observeAuthorization(reads, realm, client.id, clientId) : Promise.resolve(undefined),
    readAuthorization && query.authorizationPolicies !== undefined ? observePolicies(reads, realm, client.id, clientId, query.authorizationPolicies) : Promise.resolve(undefined),
  ]);
  return {
    client,
    secret,
    roles,
    // A client's representation lists its scopes by name.
    defaultClientScopes: stringsField(client, 'defaultClientScopes'),
    optionalClientScopes: stringsField(client, 'optionalClientScopes'),
    serviceAccountRoles,
    ...(authorization === undefined ? {} : { authorization: policies === undefined ? authorization : { ...authorization, policies } }),
  };
}

async function serviceAccountRoleNames(reads: AdminReads, realm: string, uuid: string, clientId: string): Promise<RoleNames | undefined> {
  const userId = await serviceAccountUserId(reads, realm, uuid, clientId);
  return userId === undefined ? undefined : (await directRoleMappings(reads, realm, userId, `the service account of client ${clientId}`)).names;
}

/** A confidential client's secret; undefined when it has none (Keycloak then answers without a value). */
async function clientSecret(reads: AdminReads, realm: string, uuid: string, clientId: string): Promise<Sensitive | undefined> {
  const credential = await reads.object({ path: clientSecretPath(realm, uuid), operation: 'get_client_secret', description: `read the secret of client ${clientId} in realm ${realm}` });
  const value = credential === undefined ? undefined : stringField(credential, 'value');
  return value === undefined || value === '' ? undefined : sensitive(value);
}

async function observeFlowNames(admin: KeycloakAdminClient, query: KeycloakFlowsQuery): Promise<FlowName[] | undefined> {
  const flows = await readFlows(new AdminReads(admin, query), query.realm);
  return flows?.map(({ id, alias }) => ({ id, alias }));
}

/** In a realm that is not there every read is a 404, so the answer is empty without a read of the realm. */
function observeGrantReach(admin: KeycloakAdminClient, query: KeycloakGrantReachQuery): Promise<ObservedReach> {
  return readGrantReach(new AdminReads(admin, query), query.realm, query.read);
}

/** Answers to the Keycloak queries. */
export function keycloakQueries(admin: KeycloakAdminClient): QueryTable<KeycloakQuery> {
  return {
    'keycloak.realm': (query) => observeRealm(admin, query),
    'keycloak.client': (query) => observeClient(admin, query),
    'keycloak.flows': (query) => observeFlowNames(admin, query),
    'keycloak.grantReach': (query) => observeGrantReach(admin, query),
  };
}
