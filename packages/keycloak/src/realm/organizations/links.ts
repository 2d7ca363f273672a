import type { Value } from '@keyward/kernel/plan';
import type { RealmSteps } from '../context.js';
import { organizationAlias, type OrganizationSpec } from './spec.js';

// The identity providers linked to a realm's organizations. Facts of Keycloak 26.7: a provider is linked with
// a POST of its alias to /organizations/{id}/identity-providers (204; 409 when linked already, 400 for an
// unknown provider or one another organization has) and unlinked with a DELETE of it there (204; 404 when
// not linked). Linking sets the provider's `organizationId`; unlinking clears it and the `kc.org.domain` config
// key. A link carries no marker, so an organization's links are exactly the listed ones while its list is
// given and not empty, and untouched otherwise.

/**
 * Links and unlinks providers so that each organization whose spec lists some has exactly those. `ids` are
 * the organizations' ids (outputs of this plan for new ones); `linked` what Keycloak has linked, by
 * organization alias (none for an organization not read).
 */
export function planOrganizationLinks(steps: RealmSteps, specs: readonly OrganizationSpec[], ids: ReadonlyMap<string, Value<string>>, linked: Readonly<Record<string, readonly string[]>>): void {
  for (const spec of specs) {
    const wanted = (spec.identityProviders ?? []).map((link) => link.alias);
    const alias = organizationAlias(spec);
    const id = ids.get(alias);
    if (wanted.length === 0 || id === undefined) continue;
    const current = linked[alias] ?? [];
    const resource = (provider: string) => ({ type: 'organizationIdentityProvider', realm: steps.realm, organization: { alias, id }, alias: provider }) as const;
    // Unlinked first: a provider moved from one organization to another is let go of before it is taken.
    for (const provider of current) {
      if (!wanted.includes(provider)) steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource: resource(provider) }, `the spec no longer links it to organization ${alias}`);
    }
    for (const provider of wanted) {
      if (!current.includes(provider)) steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource: resource(provider) }, `the spec links it to organization ${alias}`);
    }
  }
}
