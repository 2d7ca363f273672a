import { deepEqual } from '@keyward/vocabulary';
import type { AuthorizationResourceRepresentation, AuthorizationScopeRepresentation, AuthorizationSettingsRepresentation, ObservedAuthorization } from '../apis/keycloak/authorization.js';
import type { KeycloakBody } from '../apis/keycloak/actions.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../ownership.js';
import type { AuthorizationResourceSpec, AuthorizationScopeSpec, AuthorizationSettingsSpec } from './authorization-spec.js';
import type { ManagedLists } from './spec.js';
import type { ClientTarget } from './target.js';
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

function reconcileScope(target: ClientTarget, scope: AuthorizationScopeSpec, existing: AuthorizationScopeRepresentation | undefined): void {
  const base = { type: 'authorizationScope', client: target.client, name: scope.name } as const;
  if (existing === undefined) {
    target.plan.add({ kind: 'keycloak.create', ...target.call, resource: base, body: { ...scope } }, 'the spec lists this authorization scope');
    return;
  }
  const changed = SCOPE_FIELDS.filter((field) => scope[field] !== undefined && scope[field] !== (existing[field] ?? ''));
  if (changed.length === 0) return;
  // A scope is replaced whole: fields the spec does not state are sent back as they are.
  const body = Object.fromEntries(SCOPE_FIELDS.map((field) => [field, scope[field] ?? existing[field]]));
  target.plan.add({ kind: 'keycloak.update', ...target.call, resource: { ...base, id: existing.id }, body, changed: [...changed] }, 'the authorization scope differs from the spec');
}

type Attributes = Readonly<Record<string, readonly string[]>>;

/** A resource's attributes as Keycloak keeps them (lists), with our marker. */
function desiredAttributes(resource: AuthorizationResourceSpec): Attributes {
  return { ...Object.fromEntries(Object.entries(resource.attributes ?? {}).map(([key, value]) => [key, [value]])), [MANAGED_BY]: [MANAGED_BY_KEYWARD] };
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && new Set(a).size === new Set([...a, ...b]).size;
const scopeNames = (resource: AuthorizationResourceRepresentation): string[] => (resource.scopes ?? []).map((scope) => scope.name ?? '');

function changedResourceFields(resource: AuthorizationResourceSpec, existing: AuthorizationResourceRepresentation): string[] {
  const changed: string[] = [];
  for (const field of ['displayName', 'type'] as const) if (resource[field] !== undefined && resource[field] !== (existing[field] ?? '')) changed.push(field);
  if (resource.ownerManagedAccess !== undefined && resource.ownerManagedAccess !== (existing.ownerManagedAccess ?? false)) changed.push('ownerManagedAccess');
  if (resource.uris !== undefined && !sameSet(resource.uris, existing.uris ?? [])) changed.push('uris');
  if (resource.scopes !== undefined && !sameSet(resource.scopes, scopeNames(existing))) changed.push('scopes');
  for (const [key, values] of Object.entries(desiredAttributes(resource))) {
    if (!deepEqual(existing.attributes?.[key] ?? [], values)) changed.push(`attributes.${key}`);
  }
  return changed;
}

function reconcileResource(target: ClientTarget, resource: AuthorizationResourceSpec, existing: AuthorizationResourceRepresentation | undefined): void {
  const base = { type: 'authorizationResource', client: target.client, name: resource.name } as const;
  const scopes = (names: readonly string[]): { name: string }[] => names.map((name) => ({ name }));
  if (existing === undefined) {
    const body = { ...resource, scopes: scopes(resource.scopes ?? []), attributes: desiredAttributes(resource) };
    target.plan.add({ kind: 'keycloak.create', ...target.call, resource: base, body }, 'the spec lists this authorization resource');
    return;
  }
  const changed = changedResourceFields(resource, existing);
  if (changed.length === 0) return;
  // A resource is replaced whole: fields and attributes the spec does not state are sent back as they are.
  const body = {
    displayName: resource.displayName ?? existing.displayName,
    type: resource.type ?? existing.type,
    uris: resource.uris ?? existing.uris ?? [],
    scopes: scopes(resource.scopes ?? scopeNames(existing)),
    attributes: { ...existing.attributes, ...desiredAttributes(resource) },
    ownerManagedAccess: resource.ownerManagedAccess ?? existing.ownerManagedAccess ?? false,
  };
  target.plan.add({ kind: 'keycloak.update', ...target.call, resource: { ...base, id: existing._id }, body, changed }, 'the authorization resource differs from the spec');
}

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
  for (const scope of listedScopes) reconcileScope(target, scope, scopes.find((item) => item.name === scope.name));
  for (const resource of listedResources) reconcileResource(target, resource, resources.find((item) => item.name === resource.name));
  // After the resources and scopes that permissions name, before any is removed; only when they were read
  // (or this plan enables authorization, which starts with none).
  if (observed === undefined || observed.policies !== undefined) reconcilePolicies(target, spec?.policies, spec?.permissions, observed?.policies ?? [], prune);

  const resourceNames = new Set(listedResources.map((resource) => resource.name));
  const pruneResources = listedResources.length > 0 || prune.resources === true;
  const removedResources = resources.filter((resource) => !resourceNames.has(resource.name) && pruneResources && (carriesMarker(resource.attributes) || recordedResources.includes(resource.name)));
  for (const resource of removedResources) {
    target.plan.add(
      { kind: 'keycloak.delete', ...target.call, resource: { type: 'authorizationResource', client: target.client, name: resource.name, id: resource._id } },
      'the spec no longer lists this authorization resource, which it created',
    );
  }

  // Keycloak refuses (400) to delete a scope a resource still uses: one that a resource the spec does not
  // manage uses stays, and stays recorded.
  const remaining = resources.filter((resource) => !resourceNames.has(resource.name) && !removedResources.includes(resource));
  const usedElsewhere = new Set(remaining.flatMap(scopeNames));
  const scopeNamesListed = new Set(listedScopes.map((scope) => scope.name));
  const pruneScopes = listedScopes.length > 0 || prune.scopes === true;
  const ourScopes = scopes.filter((scope) => !scopeNamesListed.has(scope.name) && recordedScopes.includes(scope.name));
  const removedScopes = pruneScopes ? ourScopes.filter((scope) => !usedElsewhere.has(scope.name)) : [];
  for (const scope of removedScopes) {
    target.plan.add(
      { kind: 'keycloak.delete', ...target.call, resource: { type: 'authorizationScope', client: target.client, name: scope.name, id: scope.id } },
      'the spec no longer lists this authorization scope, which it created',
    );
  }

  const keptScopes = ourScopes.filter((scope) => !removedScopes.includes(scope)).map((scope) => scope.name);
  const keptResources = resources.filter((resource) => !resourceNames.has(resource.name) && !removedResources.includes(resource) && (carriesMarker(resource.attributes) || recordedResources.includes(resource.name)));
  return managedOf([...listedScopes.map((scope) => scope.name), ...keptScopes], [...resourceNames, ...keptResources.map((resource) => resource.name)]);
}
