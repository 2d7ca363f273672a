import type { AuthorizationResourceRepresentation, AuthorizationScopeRepresentation, AuthorizationSettingsRepresentation, ObservedAuthorization } from '../authorization.js';
import { authorizationResourcesPath, authorizationScopesPath, resourceServerPath } from './paths.js';
import type { AdminReads } from './reads.js';

/**
 * A client's authorization settings, scopes and resources: three requests. The resource list carries each
 * resource's attributes and scopes (Keycloak's `deep` default). Undefined without a resource server (404).
 */
export async function observeAuthorization(reads: AdminReads, realm: string, uuid: string, clientId: string): Promise<ObservedAuthorization | undefined> {
  const what = `the authorization services of client ${clientId} in realm ${realm}`;
  const [settings, scopes, resources] = await Promise.all([
    reads.object<AuthorizationSettingsRepresentation>({ path: resourceServerPath(realm, uuid), operation: 'get_resource_server', description: `read ${what}` }),
    reads.list<AuthorizationScopeRepresentation>({ path: authorizationScopesPath(realm, uuid), operation: 'list_authorization_scopes', description: `list the scopes of ${what}`, fields: ['id', 'name'] }),
    reads.list<AuthorizationResourceRepresentation>({ path: authorizationResourcesPath(realm, uuid), operation: 'list_authorization_resources', description: `list the resources of ${what}`, fields: ['_id', 'name'] }),
  ]);
  return settings === undefined ? undefined : { settings, scopes: scopes ?? [], resources: resources ?? [] };
}
