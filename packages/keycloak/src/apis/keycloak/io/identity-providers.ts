import type { IdentityProviderMapperRepresentation, IdentityProviderRepresentation, ObservedIdentityProvider } from '../representations.js';
import { identityProviderMappersPath, identityProvidersPath } from './paths.js';
import type { AdminReads } from './reads.js';

/** The most identity providers one list returns; Keycloak pages the list. */
const PAGE = 1000;

/** A realm's identity providers (the list carries their config), with the mappers of those in `mappersOf`. */
export async function observeIdentityProviders(reads: AdminReads, realm: string, mappersOf: readonly string[]): Promise<ObservedIdentityProvider[]> {
  const providers = (await reads.list<IdentityProviderRepresentation>({
    path: identityProvidersPath(realm),
    query: { first: '0', max: String(PAGE) },
    operation: 'list_identity_providers',
    description: `list the identity providers of realm ${realm}`,
    fields: ['alias', 'providerId'],
  })) ?? [];
  const wanted = new Set(mappersOf);
  return Promise.all(providers.map(async (provider) => ({
    provider,
    mappers: wanted.has(provider.alias) ? await identityProviderMappers(reads, realm, provider.alias) : undefined,
  })));
}

export async function identityProviderMappers(reads: AdminReads, realm: string, alias: string): Promise<IdentityProviderMapperRepresentation[]> {
  return (await reads.list<IdentityProviderMapperRepresentation>({
    path: identityProviderMappersPath(realm, alias),
    operation: 'list_identity_provider_mappers',
    description: `list the mappers of identity provider ${alias} in realm ${realm}`,
    fields: ['id', 'name'],
  })) ?? [];
}
