// Where each kind of KeycloakResource lives in the admin API. Plans name scopes and mappers; the API wants
// their ids, so a name is looked up when no id is given.
import type { Value } from '@keyward/vocabulary';
import type { Json } from '@keyward/vocabulary';
import type { KeycloakResource } from '../actions.js';
import { describeResource } from '../api.js';
import { findClient, findClientScopeId, findIdpMapperId, findMapperId } from './lookups.js';
import {
  clientPath,
  clientRolePath,
  clientRolesPath,
  clientScopeListPath,
  clientScopePath,
  clientScopesPath,
  clientsPath,
  identityProviderMappersPath,
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
}

/** Scope links are made with a PUT of the item, not a POST to a collection. */
export const isLink = (resource: KeycloakResource): boolean => resource.type === 'realmScopeLink' || resource.type === 'clientScopeLink';

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
    case 'identityProvider': return identityProvidersPath(resource.realm);
    case 'identityProviderMapper': return identityProviderMappersPath(resource.realm, resource.alias);
    case 'realmScopeLink':
    case 'clientScopeLink':
      throw new TypeError(`${describeResource(resource)} is linked by a PUT of its item, not created in a collection`);
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
    case 'identityProvider':
      return { path: identityProviderPath(resource.realm, resource.alias), identity: { alias: resource.alias } };
    case 'identityProviderMapper': {
      const mappers = identityProviderMappersPath(resource.realm, resource.alias);
      const id = resource.id ?? (await findIdpMapperId(reads, mappers, resource.name, `identity provider ${resource.alias}`));
      return id === undefined ? undefined : { path: itemPath(mappers, id), identity: { id, name: resource.name, identityProviderAlias: resource.alias } };
    }
  }
}

