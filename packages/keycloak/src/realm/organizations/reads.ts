import type { KeycloakRealmQuery } from '../../apis/keycloak/queries.js';
import { organizationLinksToRead, organizationsPruneWhenEmpty, readsOrganizations, type OrganizationsSpec } from './plan.js';

/** The organization fields of a realm query: none for a realm whose spec manages no organizations. */
export function organizationsQuery(spec: OrganizationsSpec): Pick<KeycloakRealmQuery, 'organizations' | 'organizationLinksOf'> {
  if (!readsOrganizations(spec, organizationsPruneWhenEmpty(spec))) return {};
  const linksOf = organizationLinksToRead(spec);
  return { organizations: true, ...(linksOf.length === 0 ? {} : { organizationLinksOf: linksOf }) };
}
