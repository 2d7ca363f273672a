import { LDAP_MAPPER_PROVIDER_TYPE, USER_STORAGE_PROVIDER_TYPE, type ComponentRepresentation, type ObservedFederationProvider } from '../components.js';
import { componentsPath } from './paths.js';
import type { AdminReads } from './reads.js';

function listComponents(reads: AdminReads, realm: string, query: Readonly<Record<string, string>>, operation: string, description: string): Promise<ComponentRepresentation[] | undefined> {
  return reads.list<ComponentRepresentation>({ path: componentsPath(realm), query, operation, description, fields: ['id', 'name', 'providerId'] });
}

/** A realm's user federation providers (one request), with the mappers of those named in `mappersOf` (one each). */
export async function observeUserFederation(reads: AdminReads, realm: string, mappersOf: readonly string[]): Promise<ObservedFederationProvider[]> {
  const providers = (await listComponents(reads, realm, { type: USER_STORAGE_PROVIDER_TYPE }, 'list_user_federation', `list the user federation providers of realm ${realm}`)) ?? [];
  const wanted = new Set(mappersOf);
  return Promise.all(providers.map(async (provider) => ({
    provider,
    mappers: wanted.has(provider.name)
      ? (await listComponents(reads, realm, { parent: provider.id, type: LDAP_MAPPER_PROVIDER_TYPE }, 'list_user_federation_mappers', `list the mappers of user federation provider ${provider.name} in realm ${realm}`)) ?? []
      : undefined,
  })));
}
