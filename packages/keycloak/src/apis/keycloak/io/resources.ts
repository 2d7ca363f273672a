// Where each type of KeycloakResource lives in the admin API, one record per type. Plans name scopes and
// mappers; the API wants their ids, so a name is looked up when no id is given.
import type { Value, Json } from '@keyward/kernel/plan';
import type { KeycloakResource } from '../actions.js';
import type { ResourceOf, ResourceType } from '../resource-types.js';
import { describeResource } from '../api.js';
import { findExecutionId, findFlowId } from './flows.js';
import { findGroupId } from './groups.js';
import { findClient, findClientScopeId, findIdpMapperId, findMapperId } from './lookups.js';
import {
  clientPath,
  clientPolicyListPath,
  clientRolePath,
  clientRolesPath,
  clientScopeListPath,
  clientScopePath,
  clientScopesPath,
  clientsPath,
  defaultGroupsPath,
  groupChildrenPath,
  groupItemPath,
  groupsPath,
  identityProviderMappersPath,
  componentsPath,
  identityProviderPath,
  identityProvidersPath,
  itemPath,
  mapperPath,
  mappersPath,
  realmPath,
  realmRolePath,
  realmRolesPath,
  realmScopeListPath,
  realmsPath,
  rotatedClientSecretPath,
  authenticatorConfigPath,
  executionPath,
  flowCopyPath,
  flowExecutionsPath,
  flowPath,
  flowsPath,
  registerRequiredActionPath,
  requiredActionPath,
  authorizationResourcesPath,
  authorizationScopesPath,
  authorizationPoliciesPath,
  policyTypePath,
  resourceServerPath,
  organizationPath,
  organizationsPath,
  organizationIdentityProvidersPath,
} from './paths.js';
import type { AdminReads } from './reads.js';

/** Substitutes the output of an earlier step (a client's id). */
export type Resolve = <T>(value: Value<T>) => T;

/** A resource that exists (or is about to be linked): its path, and the fields a PUT of it must carry. */
export interface ResourceItem {
  readonly path: string;
  /** Keycloak's PUT wants these even when unchanged: roles and scopes their name (else 400 or 500), mappers their id. */
  readonly identity: Readonly<Record<string, Json>>;
  /** What a link links: the scope's id, which is the link's id in plans. */
  readonly linkedId?: string;
  /** Where a PUT goes when not to `path` (a flow step is changed through its flow, deleted by its id). */
  readonly updatePath?: string;
}

/** How the admin API addresses one type of resource. */
interface ResourcePaths<R extends KeycloakResource> {
  /** Where a POST creates it, or why nothing is created in a collection (see `link`). */
  readonly collection: ((resource: R, resolve: Resolve) => string) | { readonly notCreated: string };
  /** Where it is; undefined when a name it is looked up by names nothing (it is not there). */
  readonly item: (resource: R, resolve: Resolve, reads: AdminReads) => ResourceItem | undefined | Promise<ResourceItem | undefined>;
  /** Made with a PUT of the item, not a POST to a collection (scope links, default groups). */
  readonly link?: true;
  /** The body field holding the id of what a create makes, for the creates Keycloak answers with it and no Location. */
  readonly createdIdField?: string;
  /** The id of what a create makes, for the creates Keycloak answers without a Location (204). */
  readonly knownId?: (resource: R) => string;
  /** What a create sends, when not the body. */
  readonly createBody?: (resource: R, body: Record<string, unknown>) => unknown;
  /**
   * Whether it exists now, found by what a create names (no id yet): asked after a create answered 409. Absent
   * for types a create cannot find again by name; their 409 stays a failure.
   */
  readonly exists?: (resource: R, resolve: Resolve, reads: AdminReads) => Promise<boolean>;
}

/** Found again by a GET of its path, for types addressed by name. */
async function foundAt(reads: AdminReads, path: string, what: string): Promise<boolean> {
  return (await reads.object({ path, operation: 'find_created', description: `read ${what} again` })) !== undefined;
}

/** Found again by a lookup that answers its id, or undefined when there is none. */
const foundId = async (id: Promise<string | undefined>): Promise<boolean> => (await id) !== undefined;

async function mapperItem(reads: AdminReads, ownerPath: string, name: string, id: string | undefined, owner: string): Promise<ResourceItem | undefined> {
  const found = id ?? (await findMapperId(reads, ownerPath, name, owner));
  return found === undefined ? undefined : { path: mapperPath(ownerPath, found), identity: { id: found, name } };
}

async function flowItem(reads: AdminReads, resolve: Resolve, realm: string, alias: string, given: Value<string> | undefined): Promise<ResourceItem | undefined> {
  const id = given === undefined ? await findFlowId(reads, realm, alias) : resolve(given);
  return id === undefined ? undefined : { path: flowPath(realm, id), identity: { id, alias } };
}

/** An authorization scope or resource: addressed by the id plans read; a PUT names it, or Keycloak answers 409 (a null name). */
function authorizationItem(collection: (realm: string, client: string) => string): ResourcePaths<ResourceOf<'authorizationScope' | 'authorizationResource'>> {
  return {
    collection: (resource, resolve) => collection(resource.client.realm, resolve(resource.client.id)),
    item: (resource, resolve) => (resource.id === undefined ? undefined : { path: itemPath(collection(resource.client.realm, resolve(resource.client.id)), resource.id), identity: { name: resource.name } }),
  };
}

const clientPolicyList = (list: 'profiles' | 'policies'): ResourcePaths<ResourceOf<'clientProfiles' | 'clientPolicies'>> => ({
  collection: { notCreated: 'are replaced by a PUT of the list, not created' },
  item: (resource) => ({ path: clientPolicyListPath(resource.realm, list), identity: {} }),
});

const linked = { notCreated: 'is linked by a PUT of its item, not created in a collection' };

const RESOURCE_PATHS: { readonly [T in ResourceType]: ResourcePaths<ResourceOf<T>> } = {
  realm: {
    collection: () => realmsPath,
    // Sending the name keeps a PUT from renaming the realm.
    item: (resource) => ({ path: realmPath(resource.realm), identity: { realm: resource.realm } }),
    exists: (resource, _resolve, reads) => foundAt(reads, realmPath(resource.realm), `realm ${resource.realm}`),
  },
  realmRole: {
    collection: (resource) => realmRolesPath(resource.realm),
    item: (resource) => ({ path: realmRolePath(resource.realm, resource.name), identity: { name: resource.name } }),
    exists: (resource, _resolve, reads) => foundAt(reads, realmRolePath(resource.realm, resource.name), `realm role ${resource.name}`),
  },
  clientScope: {
    collection: (resource) => clientScopesPath(resource.realm),
    item: async (resource, resolve, reads) => {
      const id = resource.id === undefined ? await findClientScopeId(reads, resource.realm, resource.name) : resolve(resource.id);
      return id === undefined ? undefined : { path: clientScopePath(resource.realm, id), identity: { name: resource.name } };
    },
    exists: (resource, _resolve, reads) => foundId(findClientScopeId(reads, resource.realm, resource.name)),
  },
  clientScopeMapper: {
    collection: (resource, resolve) => mappersPath(clientScopePath(resource.realm, resolve(resource.scope.id))),
    item: (resource, resolve, reads) => mapperItem(reads, clientScopePath(resource.realm, resolve(resource.scope.id)), resource.name, resource.id, `client scope ${resource.scope.name}`),
    exists: (resource, resolve, reads) => foundId(findMapperId(reads, clientScopePath(resource.realm, resolve(resource.scope.id)), resource.name, `client scope ${resource.scope.name}`)),
  },
  realmScopeLink: {
    collection: linked,
    link: true,
    item: async (resource, _resolve, reads) => {
      const id = await findClientScopeId(reads, resource.realm, resource.scope);
      return id === undefined ? undefined : { path: itemPath(realmScopeListPath(resource.realm, resource.list), id), identity: {}, linkedId: id };
    },
  },
  client: {
    collection: (resource) => clientsPath(resource.realm),
    item: async (resource, resolve, reads) => {
      const id = resource.id === undefined ? (await findClient(reads, resource.realm, resource.clientId))?.id : resolve(resource.id);
      return id === undefined ? undefined : { path: clientPath(resource.realm, id), identity: { clientId: resource.clientId } };
    },
    exists: async (resource, _resolve, reads) => (await findClient(reads, resource.realm, resource.clientId)) !== undefined,
  },
  clientRole: {
    collection: (resource, resolve) => clientRolesPath(resource.client.realm, resolve(resource.client.id)),
    item: (resource, resolve) => ({ path: clientRolePath(resource.client.realm, resolve(resource.client.id), resource.name), identity: { name: resource.name } }),
    exists: (resource, resolve, reads) => foundAt(reads, clientRolePath(resource.client.realm, resolve(resource.client.id), resource.name), `role ${resource.name} of client ${resource.client.clientId}`),
  },
  clientMapper: {
    collection: (resource, resolve) => mappersPath(clientPath(resource.client.realm, resolve(resource.client.id))),
    item: (resource, resolve, reads) => mapperItem(reads, clientPath(resource.client.realm, resolve(resource.client.id)), resource.name, resource.id, `client ${resource.client.clientId}`),
    exists: (resource, resolve, reads) => foundId(findMapperId(reads, clientPath(resource.client.realm, resolve(resource.client.id)), resource.name, `client ${resource.client.clientId}`)),
  },
  clientScopeLink: {
    collection: linked,
    link: true,
    item: async (resource, resolve, reads) => {
      const id = await findClientScopeId(reads, resource.client.realm, resource.scope);
      const list = clientScopeListPath(resource.client.realm, resolve(resource.client.id), resource.list);
      return id === undefined ? undefined : { path: itemPath(list, id), identity: {}, linkedId: id };
    },
  },
  clientProfiles: clientPolicyList('profiles'),
  clientPolicies: clientPolicyList('policies'),
  rotatedClientSecret: {
    collection: { notCreated: 'is made by a regeneration, not created' },
    item: (resource, resolve) => ({ path: rotatedClientSecretPath(resource.client.realm, resolve(resource.client.id)), identity: {} }),
  },
  authenticationFlow: {
    collection: (resource) => flowsPath(resource.realm),
    item: (resource, resolve, reads) => flowItem(reads, resolve, resource.realm, resource.alias, resource.id),
    exists: (resource, _resolve, reads) => foundId(findFlowId(reads, resource.realm, resource.alias)),
  },
  authenticationFlowCopy: {
    collection: (resource) => flowCopyPath(resource.realm, resource.from),
    item: (resource, resolve, reads) => flowItem(reads, resolve, resource.realm, resource.alias, undefined),
    exists: (resource, _resolve, reads) => foundId(findFlowId(reads, resource.realm, resource.alias)),
  },
  flowExecution: {
    collection: (resource) => `${flowExecutionsPath(resource.realm, resource.flow)}/${resource.subFlow ? 'flow' : 'execution'}`,
    item: async (resource, resolve, reads) => {
      const id = resource.id === undefined ? await findExecutionId(reads, resource.realm, resource.flow, resource.name, resource.subFlow) : resolve(resource.id);
      return id === undefined ? undefined : { path: executionPath(resource.realm, id), updatePath: flowExecutionsPath(resource.realm, resource.flow), identity: { id } };
    },
    exists: (resource, _resolve, reads) => foundId(findExecutionId(reads, resource.realm, resource.flow, resource.name, resource.subFlow)),
  },
  authenticatorConfig: {
    collection: (resource, resolve) => `${executionPath(resource.realm, resolve(resource.execution.id))}/config`,
    item: (resource) => (resource.id === undefined ? undefined : { path: authenticatorConfigPath(resource.realm, resource.id), identity: { id: resource.id } }),
  },
  requiredAction: {
    collection: (resource) => registerRequiredActionPath(resource.realm),
    item: (resource) => ({ path: requiredActionPath(resource.realm, resource.alias), identity: { alias: resource.alias } }),
    exists: (resource, _resolve, reads) => foundAt(reads, requiredActionPath(resource.realm, resource.alias), `required action ${resource.alias}`),
    // A required action is registered under its provider's id, which is its alias.
    knownId: (resource) => resource.alias,
  },
  group: {
    collection: (resource, resolve) => (resource.parentId === undefined ? groupsPath(resource.realm) : groupChildrenPath(resource.realm, resolve(resource.parentId))),
    // Plans address a group by the id they read or created; its PUT names it, or Keycloak would rename it.
    item: (resource, resolve) => (resource.id === undefined ? undefined : { path: groupItemPath(resource.realm, resolve(resource.id)), identity: { name: resource.path.slice(resource.path.lastIndexOf('/') + 1) } }),
    exists: (resource, _resolve, reads) => foundId(findGroupId(reads, resource.realm, resource.path)),
  },
  defaultGroup: {
    collection: linked,
    link: true,
    item: async (resource, _resolve, reads) => {
      const id = await findGroupId(reads, resource.realm, resource.path);
      return id === undefined ? undefined : { path: itemPath(defaultGroupsPath(resource.realm), id), identity: {}, linkedId: id };
    },
  },
  identityProvider: {
    collection: (resource) => identityProvidersPath(resource.realm),
    item: (resource) => ({ path: identityProviderPath(resource.realm, resource.alias), identity: { alias: resource.alias } }),
    exists: (resource, _resolve, reads) => foundAt(reads, identityProviderPath(resource.realm, resource.alias), `identity provider ${resource.alias}`),
  },
  identityProviderMapper: {
    collection: (resource) => identityProviderMappersPath(resource.realm, resource.alias),
    item: async (resource, _resolve, reads) => {
      const mappers = identityProviderMappersPath(resource.realm, resource.alias);
      const id = resource.id ?? (await findIdpMapperId(reads, mappers, resource.name, `identity provider ${resource.alias}`));
      return id === undefined ? undefined : { path: itemPath(mappers, id), identity: { id, name: resource.name, identityProviderAlias: resource.alias } };
    },
    exists: (resource, _resolve, reads) => foundId(findIdpMapperId(reads, identityProviderMappersPath(resource.realm, resource.alias), resource.name, `identity provider ${resource.alias}`)),
  },
  authorizationSettings: {
    collection: { notCreated: "are made with the client's authorizationServicesEnabled, not created" },
    item: (resource, resolve) => ({ path: resourceServerPath(resource.client.realm, resolve(resource.client.id)), identity: {} }),
  },
  authorizationScope: { ...authorizationItem(authorizationScopesPath), createdIdField: 'id' },
  authorizationResource: { ...authorizationItem(authorizationResourcesPath), createdIdField: '_id' },
  component: {
    collection: (resource) => componentsPath(resource.realm),
    // Plans address a component by the id they read or created.
    item: (resource, resolve) => {
      if (resource.id === undefined) return undefined;
      const id = resolve(resource.id);
      return { path: itemPath(componentsPath(resource.realm), id), identity: { id, name: resource.name } };
    },
  },
  organization: {
    collection: (resource) => organizationsPath(resource.realm),
    // Plans address an organization by the id they read; its PUT names the alias, or Keycloak refuses it.
    item: (resource) => (resource.id === undefined ? undefined : { path: organizationPath(resource.realm, resource.id), identity: { alias: resource.alias } }),
  },
  organizationIdentityProvider: {
    collection: (resource, resolve) => organizationIdentityProvidersPath(resource.realm, resolve(resource.organization.id)),
    item: (resource, resolve) => ({ path: itemPath(organizationIdentityProvidersPath(resource.realm, resolve(resource.organization.id)), resource.alias), identity: {} }),
    // A link is the provider's alias, and its body is the alias alone.
    knownId: (resource) => resource.alias,
    createBody: (resource) => resource.alias,
  },
  authorizationPolicy: {
    collection: (resource, resolve) => policyTypePath(resource.client.realm, resolve(resource.client.id), resource.policyType),
    // Deleted by id; updated (replaced whole) at its type's path, named, or Keycloak would blank the name.
    item: (resource, resolve) => {
      if (resource.id === undefined) return undefined;
      const client = resolve(resource.client.id);
      const path = itemPath(authorizationPoliciesPath(resource.client.realm, client), resource.id);
      return { path, updatePath: itemPath(policyTypePath(resource.client.realm, client, resource.policyType), resource.id), identity: { id: resource.id, name: resource.name } };
    },
    createdIdField: 'id',
  },
};

/** The record of `resource`'s type. */
// The table is keyed by type, so the record found is the one for this resource: TypeScript cannot follow that
// correlation through an index, hence the cast.
const pathsOf = <R extends KeycloakResource>(resource: R): ResourcePaths<R> => RESOURCE_PATHS[resource.type] as unknown as ResourcePaths<R>;

/** Scope links and default groups are made with a PUT of the item, not a POST to a collection. */
export const isLink = (resource: KeycloakResource): boolean => pathsOf(resource).link === true;

/** Where a POST creates `resource` (not for links, see isLink). */
export function collectionOf(resource: KeycloakResource, resolve: Resolve): string {
  const { collection } = pathsOf(resource);
  if (typeof collection === 'function') return collection(resource, resolve);
  throw new TypeError(`${describeResource(resource)} ${collection.notCreated}`);
}

/** Where `resource` is; undefined when a name it is looked up by names nothing (it is not there). */
export async function itemOf(resource: KeycloakResource, resolve: Resolve, reads: AdminReads): Promise<ResourceItem | undefined> {
  return pathsOf(resource).item(resource, resolve, reads);
}

/** The body field holding the id of what a create makes, for the creates Keycloak answers with it and no Location. */
export const createdIdField = (resource: KeycloakResource): string | undefined => pathsOf(resource).createdIdField;

/** The id of what a create makes, for the creates Keycloak answers without a Location (204). */
export const knownId = (resource: KeycloakResource): string | undefined => pathsOf(resource).knownId?.(resource);

/**
 * After a create of `resource` answered 409: whether it exists now, so that a create whose answer was lost
 * (a timeout while Keycloak went on) is told from a true conflict; undefined when its type cannot tell.
 */
export async function existsNow(resource: KeycloakResource, resolve: Resolve, reads: AdminReads): Promise<boolean | undefined> {
  return pathsOf(resource).exists?.(resource, resolve, reads);
}

/** What a create sends: the body, unless the type sends something else. */
export function createBody(resource: KeycloakResource, body: Record<string, unknown>): unknown {
  const make = pathsOf(resource).createBody;
  return make === undefined ? body : make(resource, body);
}
