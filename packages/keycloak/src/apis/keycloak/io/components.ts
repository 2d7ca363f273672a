import { LDAP_MAPPER_PROVIDER_TYPE, USER_STORAGE_PROVIDER_TYPE, type ComponentRepresentation, type ConnectionTest, type ObservedFederationProvider } from '../components.js';
import { componentsPath, realmPath } from './paths.js';
import type { AdminReads } from './reads.js';

/** What Keycloak shows for a stored secret; its connection test then binds with the stored one. */
const MASK = '**********';

function listComponents(reads: AdminReads, realm: string, query: Readonly<Record<string, string>>, operation: string, description: string): Promise<ComponentRepresentation[] | undefined> {
  return reads.list<ComponentRepresentation>({ path: componentsPath(realm), query, operation, description, fields: ['id', 'name', 'providerId'] });
}

/**
 * Keycloak's bind test of an LDAP provider, with the provider's stored settings (the componentId and the
 * mask make it use the stored bind credential): 204, or 400 with an errorMessage.
 */
async function testConnection(reads: AdminReads, realm: string, provider: ComponentRepresentation): Promise<ConnectionTest> {
  const first = (key: string): string | undefined => provider.config?.[key]?.[0];
  const body = {
    action: 'testAuthentication',
    componentId: provider.id,
    connectionUrl: first('connectionUrl'),
    bindDn: first('bindDn'),
    bindCredential: MASK,
    authType: first('authType') ?? 'simple',
    useTruststoreSpi: first('useTruststoreSpi'),
    connectionTimeout: first('connectionTimeout'),
    startTls: first('startTls'),
  };
  const response = await reads.probe({ path: `${realmPath(realm)}/testLDAPConnection`, operation: 'test_ldap_connection', description: `test the connection of user federation provider ${provider.name} in realm ${realm}`, body });
  if (response.status < 300) return { passed: true };
  const answer = response.body;
  const error = typeof answer === 'object' && answer !== null && 'errorMessage' in answer && typeof answer.errorMessage === 'string' ? answer.errorMessage : `HTTP ${String(response.status)}`;
  return { passed: false, error };
}

/**
 * A realm's user federation providers (one request), with the mappers of those named in `mappersOf` and the
 * connection test of the LDAP ones named in `testConnectionOf` (one request each).
 */
export async function observeUserFederation(reads: AdminReads, realm: string, mappersOf: readonly string[], testConnectionOf: readonly string[] = []): Promise<ObservedFederationProvider[]> {
  const providers = (await listComponents(reads, realm, { type: USER_STORAGE_PROVIDER_TYPE }, 'list_user_federation', `list the user federation providers of realm ${realm}`)) ?? [];
  const wanted = new Set(mappersOf);
  const tested = new Set(testConnectionOf);
  return Promise.all(providers.map(async (provider) => {
    const [mappers, connectionTest] = await Promise.all([
      wanted.has(provider.name)
        ? listComponents(reads, realm, { parent: provider.id, type: LDAP_MAPPER_PROVIDER_TYPE }, 'list_user_federation_mappers', `list the mappers of user federation provider ${provider.name} in realm ${realm}`)
        : Promise.resolve(undefined),
      tested.has(provider.name) && provider.providerId === 'ldap' ? testConnection(reads, realm, provider) : Promise.resolve(undefined),
    ]);
    return { provider, mappers: wanted.has(provider.name) ? mappers ?? [] : undefined, ...(connectionTest === undefined ? {} : { connectionTest }) };
  }));
}
