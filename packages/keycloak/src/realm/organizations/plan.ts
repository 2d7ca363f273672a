import { deepEqual, type Value } from '@keyward/kernel/plan';
import type { ObservedRealm } from '../../apis/keycloak/queries.js';
import type { KeycloakJson, OrganizationRepresentation } from '../../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../../ownership.js';
import { addSteps, planKeycloakList, realmWrites } from '../../list-writes.js';
import type { RealmSteps } from '../context.js';
import type { IdentityProviderSpec } from '../identity-providers/spec.js';
import { namesOnlyBuiltInFlows } from '../identity-providers/reconcile.js';
import { planOrganizationLinks } from './links.js';
import { organizationAlias, type OrganizationDomainSpec, type OrganizationSpec } from './spec.js';
import type { RealmPrunableField } from '../spec.js';
import { prunesWhenEmpty } from '../../prune.js';

// A realm's organizations (Keycloak 26). Facts of Keycloak 26.7: the list answers 404 while the realm has
// organizations disabled; a PUT replaces an organization whole (a field it leaves out is unset, `enabled`
// becomes true, the domains are gone) except its attributes, kept when the PUT has none and replaced whole
// when it has some; the alias never changes (a PUT without it is refused). So an update sends Keycloak's
// organization with the spec's fields over it.

/** The part of a realm spec that says which organizations it manages. */
export interface OrganizationsSpec {
  readonly organizations?: readonly OrganizationSpec[];
  readonly organizationsEnabled?: boolean;
  readonly identityProviders?: readonly IdentityProviderSpec[];
  readonly pruneUnlisted?: readonly RealmPrunableField[];
}

/** Whether organizations the spec no longer lists are removed when the list is empty or absent. */
export const organizationsPruneWhenEmpty = (spec: OrganizationsSpec): boolean => prunesWhenEmpty(spec.pruneUnlisted, 'organizations');

/** The organizations (by alias) whose linked identity providers a reconcile reads: those whose spec lists some. */
export const organizationLinksToRead = (spec: OrganizationsSpec): string[] => (spec.organizations ?? []).filter((organization) => (organization.identityProviders ?? []).length > 0).map(organizationAlias);

/** Whether a reconcile reads the organizations: the spec lists some, or prunes unlisted ones anyway. */
export const readsOrganizations = (spec: OrganizationsSpec, pruneWhenEmpty: boolean): boolean => (spec.organizations ?? []).length > 0 || pruneWhenEmpty;

const MARKER = { [MANAGED_BY]: [MANAGED_BY_KEYWARD] };

/**
 * How soon to look again when the organizations wait for the realm update that enables them: the status that
 * plan writes may be the one the next plan writes too, which would then not wake it.
 */
export const ORGANIZATIONS_FOLLOW_UP_MS = 2_000;

type Domain = OrganizationDomainSpec;
const domainKey = (domain: Domain): string => `${domain.name.toLowerCase()} ${String(domain.verified ?? false)}`;

/** Keycloak shows each domain with `verified`, false unless set. */
function sameDomains(desired: readonly Domain[], observed: readonly Domain[] | undefined): boolean {
  const current = new Set((observed ?? []).map(domainKey));
  return current.size === desired.length && desired.every((domain) => current.has(domainKey(domain)));
}

/** The fields the spec states, with our marker in the attributes (exactly the spec's when it states them). */
function desiredOrganization(spec: OrganizationSpec, current: OrganizationRepresentation | undefined): Record<string, KeycloakJson> {
  const fields: Record<string, KeycloakJson> = { name: spec.name, alias: organizationAlias(spec) };
  for (const field of ['description', 'enabled', 'redirectUrl'] as const) {
    const value = spec[field];
    if (value !== undefined) fields[field] = value;
  }
  if (spec.domains !== undefined) fields['domains'] = spec.domains.map((domain) => ({ name: domain.name, verified: domain.verified ?? false }));
  fields['attributes'] = { ...(spec.attributes ?? current?.attributes ?? {}), ...MARKER };
  return fields;
}

/** The fields in which Keycloak's organization differs from the spec (an empty text reads as none). */
function organizationChanges(spec: OrganizationSpec, desired: Record<string, KeycloakJson>, current: OrganizationRepresentation): string[] {
  const changed: string[] = [];
  if (current.name !== spec.name) changed.push('name');
  if (spec.description !== undefined && spec.description !== (current.description ?? '')) changed.push('description');
  if (spec.redirectUrl !== undefined && spec.redirectUrl !== (current.redirectUrl ?? '')) changed.push('redirectUrl');
  if (spec.enabled !== undefined && spec.enabled !== (current.enabled ?? true)) changed.push('enabled');
  if (spec.domains !== undefined && !sameDomains(spec.domains, current.domains)) changed.push('domains');
  if (!deepEqual(desired['attributes'], current.attributes ?? {})) changed.push('attributes');
  return changed;
}

/** Whether an update gives the organization a domain it lacks: another organization may have to let go of it first. */
const addsDomain = (spec: OrganizationSpec, current: OrganizationRepresentation): boolean => {
  const held = new Set((current.domains ?? []).map((domain) => domain.name.toLowerCase()));
  return (spec.domains ?? []).some((domain) => !held.has(domain.name.toLowerCase()));
};

/**
 * Listed organizations created or brought to the spec (so they carry our marker), unlisted ones that carry it
 * deleted while the list is managed (given and not empty, or `pruneWhenEmpty`). Keycloak links a domain to
 * one organization of a realm, so deletions go first, then updates that add no domain, then the others, then
 * creations: a domain moved from one organization to another is let go of before it is taken. Returns the id
 * of each listed organization (an output of its creation for a new one), by alias.
 */
export function planOrganizations(steps: RealmSteps, specs: readonly OrganizationSpec[], observed: readonly OrganizationRepresentation[], pruneWhenEmpty: boolean): Map<string, Value<string>> {
  const resource = (alias: string, id?: string) => ({ type: 'organization', realm: steps.realm, alias, ...(id === undefined ? {} : { id }) }) as const;
  const organizations = planKeycloakList({
    ...realmWrites(steps),
    desired: specs,
    observed,
    desiredKey: organizationAlias,
    observedKey: (organization) => organization.alias,
    changes: (spec, current) => organizationChanges(spec, desiredOrganization(spec, current), current),
    ours: (organization) => carriesMarker(organization.attributes),
    pruneWhenEmpty,
    create: (spec) => ({ resource: resource(organizationAlias(spec)), body: desiredOrganization(spec, undefined) }),
    update: (spec, current) => ({ resource: resource(current.alias, current.id), body: { ...current, ...desiredOrganization(spec, current) } }),
    delete: (organization) => resource(organization.alias, organization.id),
  });
  addSteps(steps.plan, organizations.deletes.map((item) => item.step));
  const existing = organizations.listed.flatMap(({ desired, observed: current, step }) => (current === undefined ? [] : [{ desired, current, step }]));
  const ordered = [...existing.filter((u) => !addsDomain(u.desired, u.current)), ...existing.filter((u) => addsDomain(u.desired, u.current))];
  addSteps(steps.plan, ordered.map((item) => item.step));
  const ids = new Map<string, Value<string>>(existing.map(({ current }) => [current.alias, current.id]));
  for (const { desired: spec, step } of organizations.listed) {
    if (step?.action.kind === 'keycloak.create') ids.set(organizationAlias(spec), steps.plan.add(step.action, step.reason).output('id'));
  }
  return ids;
}

/**
 * The organization steps of a reconcile; returns why they cannot be made, if they cannot. Keycloak keeps
 * organizations only in a realm with organizationsEnabled (as the spec sets it, else as the realm has it).
 * A realm made in this plan gets them at once; one whose organizations are being enabled in this plan gets
 * them in a reconcile soon after, once they can be read.
 */
export function planRealmOrganizations(steps: RealmSteps, spec: OrganizationsSpec, observed: ObservedRealm | undefined, pruneWhenEmpty: boolean): string | undefined {
  const specs = spec.organizations ?? [];
  if (!readsOrganizations(spec, pruneWhenEmpty)) return undefined;
  const enabled = spec.organizationsEnabled ?? observed?.realm['organizationsEnabled'] === true;
  if (!enabled) {
    return specs.length === 0 ? undefined : `spec.organizations lists ${String(specs.length)} organization${specs.length === 1 ? '' : 's'}, but realm ${steps.realm} has organizations disabled: set spec.organizationsEnabled to true`;
  }
  if (observed === undefined) {
    // Keycloak refuses a link to a provider that does not exist (400): in a new realm, only the providers made
    // in this plan are linked, the others in the reconcile that makes them.
    const made = new Set((spec.identityProviders ?? []).filter(namesOnlyBuiltInFlows).map((provider) => provider.alias));
    const linkable = specs.map((organization) => ({ ...organization, identityProviders: (organization.identityProviders ?? []).filter((link) => made.has(link.alias)) }));
    planOrganizationLinks(steps, linkable, planOrganizations(steps, specs, [], pruneWhenEmpty), {});
    return undefined;
  }
  if (observed.organizations === undefined) {
    steps.plan.add({ kind: 'control.requeueAfter', afterMs: ORGANIZATIONS_FOLLOW_UP_MS }, 'read the organizations once the realm has them enabled');
    return undefined;
  }
  planOrganizationLinks(steps, specs, planOrganizations(steps, specs, observed.organizations, pruneWhenEmpty), observed.organizationLinks ?? {});
  return undefined;
}
