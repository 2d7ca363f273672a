import { deepEqual } from '@keyward/kernel/plan';
import type { AuthorizationResourceRepresentation, AuthorizationScopeRepresentation, AuthorizationSettingsRepresentation, ObservedAuthorization } from '../apis/keycloak/authorization.js';
import type { KeycloakBody } from '../apis/keycloak/actions.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../ownership.js';
import type { AuthorizationResourceSpec, AuthorizationScopeSpec, AuthorizationSettingsSpec } from './authorization-spec.js';
import type { ManagedLists } from './spec.js';
import type { ClientTarget } from './target.js';
import { addSteps, byName, clientWrites, planKeycloakList } from '../list-writes.js';
import { reconcilePolicies, type PolicyPrune } from './authorization-policies.js';

// A client's authorization services: the resource server's settings, its scopes and its resources. Scopes
// and resources are managed as sets by name when their list is given: unlisted ones are removed when they
// are ours (a resource carries our marker in its attributes; a scope cannot, so status records the scopes
// a spec made). Anything else (made by hand, by Keycloak or by a client's own resource management) stays.

export type ManagedAuthorization = Pick<ManagedLists, 'authorizationScopes' | 'authorizationResources'>;

/** Which lists remove what is ours even when they are empty or absent (spec.pruneUnlisted). */
export interface AuthorizationPrune extends PolicyPrune {
  readonly scopes?: boolean;
  readonly resources?: boolean;
}

/** What Keycloak 26 gives a resource server it creates when a client enables authorization services. */
export const NEW_RESOURCE_SERVER: Required<Pick<AuthorizationSettingsRepresentation, 'policyEnforcementMode' | 'decisionStrategy' | 'allowRemoteResourceManagement'>> = {
  policyEnforcementMode: 'ENFORCING',
  decisionStrategy: 'UNANIMOUS',
  allowRemoteResourceManagement: true,
};

const SETTINGS_FIELDS = ['policyEnforcementMode', 'decisionStrategy', 'allowRemoteResourceManagement'] as const;

/** The settings PUT, when some stated field differs: Keycloak wants all three (it answers 409 to a null one). */
function reconcileSettings(target: ClientTarget, spec: AuthorizationSettingsSpec, observed: AuthorizationSettingsRepresentation | undefined): void {
  const current = { ...NEW_RESOURCE_SERVER, ...(observed === undefined ? {} : Object.fromEntries(SETTINGS_FIELDS.filter((field) => observed[field] !== undefined).map((field) => [field, observed[field]]))) };
  const changed = SETTINGS_FIELDS.filter((field) => spec[field] !== undefined && spec[field] !== current[field]);
  if (changed.length === 0) return;
  const body: KeycloakBody = Object.fromEntries(SETTINGS_FIELDS.map((field) => [field, spec[field] ?? current[field]]));
  target.plan.add({ kind: 'keycloak.update', ...target.call, resource: { type: 'authorizationSettings', client: target.client }, body, changed: [...changed] }, 'the authorization settings differ from the spec');
}

const SCOPE_FIELDS = ['displayName', 'iconUri'] as const;

const scopeChanges = (scope: AuthorizationScopeSpec, existing: AuthorizationScopeRepresentation): string[] =>
  SCOPE_FIELDS.filter((field) => scope[field] !== undefined && scope[field] !== (existing[field] ?? ''));

type Attributes = Readonly<Record<string, readonly string[]>>;

/** A resource's attributes as Keycloak keeps them (lists; a string is a list of one), with our marker. */
function desiredAttributes(resource: AuthorizationResourceSpec): Attributes {
  const lists = Object.entries(resource.attributes ?? {}).map(([key, values]) => [key, typeof values === 'string' ? [values] : values] as const);
  return { ...Object.fromEntries(lists), [MANAGED_BY]: [MANAGED_BY_KEYWARD] };
}

/**
 * An attribute's values, the same whatever their order: Keycloak 26.7 gives them back in the order sent (and
 * drops a key without values), but its tables promise no order, so a reordered read must not read as drift.
 */
const sameValues = (a: readonly string[], b: readonly string[]): boolean => deepEqual([...a].sort(), [...b].sort());

const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && new Set(a).size === new Set([...a, ...b]).size;
const scopeNames = (resource: AuthorizationResourceRepresentation): string[] => (resource.scopes ?? []).map((scope) => scope.name ?? '');

function changedResourceFields(resource: AuthorizationResourceSpec, existing: AuthorizationResourceRepresentation): string[] {
  const changed: string[] = [];
  for (const field of ['displayName', 'type'] as const) if (resource[field] !== undefined && resource[field] !== (existing[field] ?? '')) changed.push(field);
  if (resource.ownerManagedAccess !== undefined && resource.ownerManagedAccess !== (existing.ownerManagedAccess ?? false)) changed.push('ownerManagedAccess');
  if (resource.uris !== undefined && !sameSet(resource.uris, existing.uris ?? [])) changed.push('uris');
  if (resource.scopes !== undefined && !sameSet(resource.scopes, scopeNames(existing))) changed.push('scopes');
  for (const [key, values] of Object.entries(desiredAttributes(resource))) {
    if (!sameValues(existing.attributes?.[key] ?? [], values)) changed.push(`attributes.${key}`);
  }
  return changed;
}

/** What a resource's create sends: the spec's fields, its scopes by name, its attributes with our marker. */
function resourceCreation(resource: AuthorizationResourceSpec): KeycloakBody {
  return { ...resource, scopes: scopeRefs(resource.scopes ?? []), attributes: desiredAttributes(resource) };
}

/** A resource is replaced whole: fields and attributes the spec does not state are sent back as they are. */
function resourceUpdate(resource: AuthorizationResourceSpec, existing: AuthorizationResourceRepresentation): KeycloakBody {
  return {
    displayName: resource.displayName ?? existing.displayName,
    type: resource.type ?? existing.type,
    uris: resource.uris ?? existing.uris ?? [],
    scopes: scopeRefs(resource.scopes ?? scopeNames(existing)),
    attributes: { ...existing.attributes, ...desiredAttributes(resource) },
    ownerManagedAccess: resource.ownerManagedAccess ?? existing.ownerManagedAccess ?? false,
  };
}

const scopeRefs = (names: readonly string[]): { name: string }[] => names.map((name) => ({ name }));

/** The record for status: names sorted, and no field for an empty list. */
function managedOf(scopes: readonly string[], resources: readonly string[]): ManagedAuthorization {
  const sorted = (names: readonly string[]): string[] => [...new Set(names)].sort();
  return { ...(scopes.length === 0 ? {} : { authorizationScopes: sorted(scopes) }), ...(resources.length === 0 ? {} : { authorizationResources: sorted(resources) }) };
}

/**
 * Brings a client's authorization services to `spec`. `observed` is undefined when they are not read (the
 * spec states none and status records none) or do not exist yet (this plan creates the client or enables
 * them: Keycloak then starts from NEW_RESOURCE_SERVER and no scopes or resources). Returns the scopes and
 * resources now ours, for status.
 */
export function reconcileAuthorization(
  target: ClientTarget,
  spec: AuthorizationSettingsSpec | undefined,
  observed: ObservedAuthorization | undefined,
  managed: ManagedAuthorization | undefined,
  prune: AuthorizationPrune = {},
): ManagedAuthorization {
  const recordedScopes = managed?.authorizationScopes ?? [];
  const recordedResources = managed?.authorizationResources ?? [];
  if (spec === undefined && observed === undefined) return managedOf(recordedScopes, recordedResources);
  if (spec !== undefined) reconcileSettings(target, spec, observed?.settings);

  const scopes = observed?.scopes ?? [];
  const resources = observed?.resources ?? [];
  const listedScopes = spec?.scopes ?? [];
  const listedResources = spec?.resources ?? [];
  const address = (type: 'authorizationScope' | 'authorizationResource', name: string, id?: string) => ({ type, client: target.client, name, ...(id === undefined ? {} : { id }) }) as const;
  const resourcePlan = planKeycloakList({
    ...clientWrites(target, 'authorization resource'),
    desired: listedResources,
    observed: resources,
    ...byName,
    changes: changedResourceFields,
    ours: (resource) => carriesMarker(resource.attributes) || recordedResources.includes(resource.name),
    pruneWhenEmpty: prune.resources === true,
    create: (resource) => ({ resource: address('authorizationResource', resource.name), body: resourceCreation(resource) }),
    update: (resource, existing) => ({ resource: address('authorizationResource', resource.name, existing._id), body: resourceUpdate(resource, existing) }),
    delete: (resource) => address('authorizationResource', resource.name, resource._id),
  });
  const removedResources = resourcePlan.deletes.map((item) => item.observed);
  // Keycloak refuses (400) to delete a scope a resource still uses: one that a resource the spec does not
  // manage uses stays, and stays recorded.
  const resourceNames = new Set(listedResources.map((resource) => resource.name));
  const remaining = resources.filter((resource) => !resourceNames.has(resource.name) && !removedResources.includes(resource));
  const usedElsewhere = new Set(remaining.flatMap(scopeNames));
  const scopePlan = planKeycloakList({
    ...clientWrites(target, 'authorization scope'),
    desired: listedScopes,
    observed: scopes,
    ...byName,
    changes: scopeChanges,
    ours: (scope) => recordedScopes.includes(scope.name) && !usedElsewhere.has(scope.name),
    pruneWhenEmpty: prune.scopes === true,
    create: (scope) => ({ resource: address('authorizationScope', scope.name), body: { ...scope } }),
    // A scope is replaced whole: fields the spec does not state are sent back as they are.
    update: (scope, existing) => ({ resource: address('authorizationScope', scope.name, existing.id), body: Object.fromEntries(SCOPE_FIELDS.map((field) => [field, scope[field] ?? existing[field]])) }),
    delete: (scope) => address('authorizationScope', scope.name, scope.id),
  });
  addSteps(target.plan, scopePlan.listed.map((item) => item.step));
  addSteps(target.plan, resourcePlan.listed.map((item) => item.step));
  // After the resources and scopes that permissions name, before any is removed; only when they were read
  // (or this plan enables authorization, which starts with none).
  if (observed === undefined || observed.policies !== undefined) reconcilePolicies(target, spec?.policies, spec?.permissions, observed?.policies ?? [], prune);
  addSteps(target.plan, resourcePlan.deletes.map((item) => item.step));
  addSteps(target.plan, scopePlan.deletes.map((item) => item.step));

  const scopeNamesListed = new Set(listedScopes.map((scope) => scope.name));
  const removedScopes = scopePlan.deletes.map((item) => item.observed);
  const keptScopes = scopes.filter((scope) => !scopeNamesListed.has(scope.name) && recordedScopes.includes(scope.name) && !removedScopes.includes(scope)).map((scope) => scope.name);
  const keptResources = resources.filter((resource) => !resourceNames.has(resource.name) && !removedResources.includes(resource) && (carriesMarker(resource.attributes) || recordedResources.includes(resource.name)));
  return managedOf([...listedScopes.map((scope) => scope.name), ...keptScopes], [...resourceNames, ...keptResources.map((resource) => resource.name)]);
}
