// Where each kind of KeycloakResource lives in the admin API. Plans name scopes and mappers; the API wants
// their ids, so a name is looked up when no id is given.
import type { Value } from '@keyward/vocabulary';
import type { Json } from '@keyward/vocabulary';
import type { KeycloakResource } from '../actions.js';
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

/** Scope links are made with a PUT of the item, not a POST to a collection. */
export const isLink = (resource: KeycloakResource): boolean => resource.type === 'realmScopeLink' || resource.type === 'clientScopeLink' || resource.type === 'defaultGroup';

/** Where a POST creates `resource` (not for links, see isLink). */
export function collectionOf(resource: KeycloakResource, resolve: Resolve): string {
  switch (resource.type) {
    case 'realm': return realmsPath;
    case 'realmRole': return realmRolesPath(resource.realm);
    case 'clientScope': return clientScopesPath(resource.realm);
    case 'clientScopeMapper': return mappersPath(clientScopePath(resource.realm, resolve(resource.scope.id)));
    case 'client': return clientsPath(resource.realm);
    case 'clientRole': return clientRolesPath(resource.client.realm, resolve(resource.client.id));
    case 'clientMapper': return mappersPath(clientPath(resource.client.realm, resolve(resource.client.id)));
    case 'authenticationFlow': return flowsPath(resource.realm);
    case 'authenticationFlowCopy': return flowCopyPath(resource.realm, resource.from);
    case 'flowExecution': return `${flowExecutionsPath(resource.realm, resource.flow)}/${resource.subFlow ? 'flow' : 'execution'}`;
    case 'authenticatorConfig': return `${executionPath(resource.realm, resolve(resource.execution.id))}/config`;
    case 'requiredAction': return registerRequiredActionPath(resource.realm);
    case 'group': return resource.parentId === undefined ? groupsPath(resource.realm) : groupChildrenPath(resource.realm, resolve(resource.parentId));
    case 'identityProvider': return identityProvidersPath(resource.realm);
    case 'identityProviderMapper': return identityProviderMappersPath(resource.realm, resource.alias);
    case 'authorizationScope': return authorizationScopesPath(resource.client.realm, resolve(resource.client.id));
    case 'authorizationResource': return authorizationResourcesPath(resource.client.realm, resolve(resource.client.id));
    case 'authorizationPolicy':
      return policyTypePath(resource.client.realm, resolve(resource.client.id), resource.policyType);
    case 'authorizationSettings':
      throw new TypeError(`${describeResource(resource)} are made with the client's authorizationServicesEnabled, not created`);
    case 'component': return componentsPath(resource.realm);
    case 'organization': return organizationsPath(resource.realm);
    case 'organizationIdentityProvider': return organizationIdentityProvidersPath(resource.realm, resolve(resource.organization.id));
    case 'realmScopeLink':
    case 'clientScopeLink':
    case 'defaultGroup':
      throw new TypeError(`${describeResource(resource)} is linked by a PUT of its item, not created in a collection`);
    case 'clientProfiles':
    case 'clientPolicies':
      throw new TypeError(`${describeResource(resource)} are replaced by a PUT of the list, not created`);
    case 'rotatedClientSecret':
      throw new TypeError(`${describeResource(resource)} is made by a regeneration, not created`);
  }
}

async function mapperItem(reads: AdminReads, ownerPath: string, name: string, id: string | undefined, owner: string): Promise<ResourceItem | undefined> {
  const found = id ?? (await findMapperId(reads, ownerPath, name, owner));
  return found === undefined ? undefined : { path: mapperPath(ownerPath, found), identity: { id: found, name } };
}

/** Where `resource` is; undefined when a name it is looked up by names nothing (it is not there). */
export async function itemOf(resource: KeycloakResource, resolve: Resolve, reads: AdminReads): Promise<ResourceItem | undefined> {
  switch (resource.type) {
    case 'realm':
      // Sending the name keeps a PUT from renaming the realm.
      return { path: realmPath(resource.realm), identity: { realm: resource.realm } };
    case 'realmRole':
      return { path: realmRolePath(resource.realm, resource.name), identity: { name: resource.name } };
    case 'clientScope': {
      const id = resource.id === undefined ? await findClientScopeId(reads, resource.realm, resource.name) : resolve(resource.id);
      return id === undefined ? undefined : { path: clientScopePath(resource.realm, id), identity: { name: resource.name } };
    }
    case 'clientScopeMapper':
      return mapperItem(reads, clientScopePath(resource.realm, resolve(resource.scope.id)), resource.name, resource.id, `client scope ${resource.scope.name}`);
    case 'realmScopeLink': {
      const id = await findClientScopeId(reads, resource.realm, resource.scope);
      return id === undefined ? undefined : { path: itemPath(realmScopeListPath(resource.realm, resource.list), id), identity: {}, linkedId: id };
    }
    case 'client': {
      const id = resource.id === undefined ? (await findClient(reads, resource.realm, resource.clientId))?.id : resolve(resource.id);
      return id === undefined ? undefined : { path: clientPath(resource.realm, id), identity: { clientId: resource.clientId } };
    }
    case 'clientRole':
      return { path: clientRolePath(resource.client.realm, resolve(resource.client.id), resource.name), identity: { name: resource.name } };
    case 'clientMapper':
      return mapperItem(reads, clientPath(resource.client.realm, resolve(resource.client.id)), resource.name, resource.id, `client ${resource.client.clientId}`);
    case 'clientScopeLink': {
      const id = await findClientScopeId(reads, resource.client.realm, resource.scope);
      const list = clientScopeListPath(resource.client.realm, resolve(resource.client.id), resource.list);
      return id === undefined ? undefined : { path: itemPath(list, id), identity: {}, linkedId: id };
    }
    case 'clientProfiles':
      return { path: clientPolicyListPath(resource.realm, 'profiles'), identity: {} };
    case 'clientPolicies':
      return { path: clientPolicyListPath(resource.realm, 'policies'), identity: {} };
    case 'rotatedClientSecret':
      return { path: rotatedClientSecretPath(resource.client.realm, resolve(resource.client.id)), identity: {} };
    case 'authenticationFlow':
    case 'authenticationFlowCopy': {
      const given = resource.type === 'authenticationFlow' ? resource.id : undefined;
      const id = given === undefined ? await findFlowId(reads, resource.realm, resource.alias) : resolve(given);
      return id === undefined ? undefined : { path: flowPath(resource.realm, id), identity: { id, alias: resource.alias } };
    }
    case 'flowExecution': {
      const id = resource.id === undefined ? await findExecutionId(reads, resource.realm, resource.flow, resource.name, resource.subFlow) : resolve(resource.id);
      return id === undefined ? undefined : { path: executionPath(resource.realm, id), updatePath: flowExecutionsPath(resource.realm, resource.flow), identity: { id } };
    }
    case 'authenticatorConfig':
      return resource.id === undefined ? undefined : { path: authenticatorConfigPath(resource.realm, resource.id), identity: { id: resource.id } };
    case 'requiredAction':
      return { path: requiredActionPath(resource.realm, resource.alias), identity: { alias: resource.alias } };
    case 'group':
      // Plans address a group by the id they read or created; its PUT names it, or Keycloak would rename it.
      return resource.id === undefined ? undefined : { path: groupItemPath(resource.realm, resolve(resource.id)), identity: { name: resource.path.slice(resource.path.lastIndexOf('/') + 1) } };
    case 'defaultGroup': {
      const id = await findGroupId(reads, resource.realm, resource.path);
      return id === undefined ? undefined : { path: itemPath(defaultGroupsPath(resource.realm), id), identity: {}, linkedId: id };
    }
    case 'identityProvider':
      return { path: identityProviderPath(resource.realm, resource.alias), identity: { alias: resource.alias } };
    case 'identityProviderMapper': {
      const mappers = identityProviderMappersPath(resource.realm, resource.alias);
      const id = resource.id ?? (await findIdpMapperId(reads, mappers, resource.name, `identity provider ${resource.alias}`));
      return id === undefined ? undefined : { path: itemPath(mappers, id), identity: { id, name: resource.name, identityProviderAlias: resource.alias } };
    }
    case 'authorizationSettings':
      return { path: resourceServerPath(resource.client.realm, resolve(resource.client.id)), identity: {} };
    case 'authorizationScope':
    case 'authorizationResource': {
      // Plans address them by the id they read; a PUT names them, or Keycloak answers 409 (a null name).
      const collection = collectionOf(resource, resolve);
      return resource.id === undefined ? undefined : { path: itemPath(collection, resource.id), identity: { name: resource.name } };
    }
    case 'component': {
      // Plans address a component by the id they read or created.
      if (resource.id === undefined) return undefined;
      const id = resolve(resource.id);
      return { path: itemPath(componentsPath(resource.realm), id), identity: { id, name: resource.name } };
    }
    case 'organization':
      // Plans address an organization by the id they read; its PUT names the alias, or Keycloak refuses it.
      return resource.id === undefined ? undefined : { path: organizationPath(resource.realm, resource.id), identity: { alias: resource.alias } };
    case 'organizationIdentityProvider':
      return { path: itemPath(organizationIdentityProvidersPath(resource.realm, resolve(resource.organization.id)), resource.alias), identity: {} };
    case 'authorizationPolicy': {
      // Deleted by id; updated (replaced whole) at its type's path, named, or Keycloak would blank the name.
      const policies = authorizationPoliciesPath(resource.client.realm, resolve(resource.client.id));
      return resource.id === undefined ? undefined : { path: itemPath(policies, resource.id), updatePath: itemPath(collectionOf(resource, resolve), resource.id), identity: { id: resource.id, name: resource.name } };
    }
  }
}

/** The body field holding the id of what a create makes, for the creates Keycloak answers with it and no Location. */
export function createdIdField(resource: KeycloakResource): string | undefined {
  if (resource.type === 'authorizationScope' || resource.type === 'authorizationPolicy') return 'id';
  return resource.type === 'authorizationResource' ? '_id' : undefined;
}

/** The id of what a create makes, for the creates Keycloak answers without a Location (204). */
export function knownId(resource: KeycloakResource): string | undefined {
  // A required action is registered under its provider's id, which is its alias; a link is the provider's alias.
  return resource.type === 'requiredAction' || resource.type === 'organizationIdentityProvider' ? resource.alias : undefined;
}

/** What a create sends: the body, but for an organization's link, whose body is the provider's alias alone. */
export function createBody(resource: KeycloakResource, body: Record<string, unknown>): unknown {
  return resource.type === 'organizationIdentityProvider' ? resource.alias : body;
}

