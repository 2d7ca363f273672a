import type { IdentityProviderRepresentation, OrganizationRepresentation, RealmRepresentation } from '../representations.js';
import { organizationIdentityProvidersPath, organizationsPath } from './paths.js';
import type { AdminReads } from './reads.js';

/** The most organizations one list returns (Keycloak's default page is 10). */
const PAGE = 1000;

/**
 * A realm's organizations with their attributes (the list leaves them out unless briefRepresentation=false);
 * undefined while the realm has organizations disabled, when Keycloak 26 answers the list with a 404.
 */
export async function observeOrganizations(reads: AdminReads, realm: RealmRepresentation): Promise<OrganizationRepresentation[] | undefined> {
  if (realm['organizationsEnabled'] !== true) return undefined;
  const found: OrganizationRepresentation[] = [];
  for (let first = 0; ; first += PAGE) {
    const page = await reads.list<OrganizationRepresentation>({
      path: organizationsPath(realm.realm),
      query: { briefRepresentation: 'false', first: String(first), max: String(PAGE) },
      operation: 'list_organizations',
      description: `list the organizations of realm ${realm.realm}`,
      fields: ['id', 'name', 'alias'],
    });
    if (page === undefined) return undefined;
    found.push(...page);
    if (page.length < PAGE) return found;
  }
}

/** The aliases of the identity providers linked to each of `organizations`, by organization alias. */
export async function observeOrganizationLinks(reads: AdminReads, realm: string, organizations: readonly OrganizationRepresentation[], linksOf: readonly string[]): Promise<Record<string, string[]>> {
  const wanted = organizations.filter((organization) => linksOf.includes(organization.alias));
  const links = await Promise.all(wanted.map(async (organization) => {
    const providers = (await reads.list<IdentityProviderRepresentation>({
      path: organizationIdentityProvidersPath(realm, organization.id),
      operation: 'list_organization_identity_providers',
      description: `list the identity providers of organization ${organization.alias} in realm ${realm}`,
      fields: ['alias'],
    })) ?? [];
    return [organization.alias, providers.map((provider) => provider.alias)] as const;
  }));
  return Object.fromEntries(links);
}
