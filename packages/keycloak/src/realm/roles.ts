import { deepEqual } from '@keyward/vocabulary';
import type { ObservedRole, RoleNames, RoleRepresentation } from '../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../ownership.js';
import { removesUnlisted } from '../prune.js';
import { isBuiltInRealmRole } from './built-ins.js';
import type { RealmSteps } from './context.js';
import { NO_ROLES, hasRoles, rolesNotIn } from './role-names.js';
import type { RealmRoleSpec } from './spec.js';

/** A role as the spec wants it. Keycloak keeps role attributes as lists and replaces them whole on update. */
export function desiredRole(spec: RealmRoleSpec): RoleRepresentation {
  const attributes = Object.fromEntries(Object.entries(spec.attributes ?? {}).map(([key, value]) => [key, [value]]));
  return {
    name: spec.name,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    attributes: { ...attributes, [MANAGED_BY]: [MANAGED_BY_KEYWARD] },
  };
}

/** The fields in which Keycloak's role differs from the spec's (an absent description reads as an empty one). */
function roleChanges(desired: RoleRepresentation, observed: RoleRepresentation): string[] {
  return [
    ...((desired.description ?? '') === (observed.description ?? '') ? [] : ['description']),
    ...(deepEqual(desired.attributes ?? {}, observed.attributes ?? {}) ? [] : ['attributes']),
  ];
}

function compositesOf(spec: RealmRoleSpec): RoleNames | undefined {
  const { composites } = spec;
  return composites === undefined ? undefined : { realm: composites.realm ?? [], clients: composites.clients ?? {} };
}

/** Grants and revokes the composites of one role; when the spec states composites, exactly those. */
function planComposites(steps: RealmSteps, spec: RealmRoleSpec, held: RoleNames): void {
  const wanted = compositesOf(spec);
  if (wanted === undefined) return;
  const holder = { type: 'role', realm: steps.realm, name: spec.name } as const;
  const grant = rolesNotIn(wanted, held);
  const revoke = rolesNotIn(held, wanted);
  if (hasRoles(grant)) steps.plan.add({ kind: 'keycloak.grantRoles', ...steps.call, holder, roles: grant }, `role ${spec.name} is composed of them`);
  if (hasRoles(revoke)) steps.plan.add({ kind: 'keycloak.revokeRoles', ...steps.call, holder, roles: revoke }, `the spec no longer lists them as composites of role ${spec.name}`);
}

/**
 * Realm roles: listed ones are created or brought to the spec (and so carry our marker), then their
 * composites are set (after every role exists, as composites may name each other), then unlisted roles that
 * carry our marker are deleted, under the prune rule (see prune.ts). Built-in roles are never touched.
 */
export function planRealmRoles(steps: RealmSteps, specs: readonly RealmRoleSpec[], observed: readonly ObservedRole[], pruneWhenEmpty: boolean): void {
  const byName = new Map(observed.map((entry) => [entry.role.name, entry]));
  for (const spec of specs) {
    const desired = desiredRole(spec);
    const current = byName.get(spec.name);
    const resource = { type: 'realmRole', realm: steps.realm, name: spec.name } as const;
    if (current === undefined) {
      steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource, body: desired }, 'the spec lists it');
      continue;
    }
    const changed = roleChanges(desired, current.role);
    if (changed.length > 0) steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource, body: desired, changed }, 'it differs from the spec');
  }
  for (const spec of specs) planComposites(steps, spec, byName.get(spec.name)?.composites ?? NO_ROLES);
  if (!removesUnlisted(specs, pruneWhenEmpty)) return;
  const listed = new Set(specs.map((spec) => spec.name));
  for (const { role } of observed) {
    if (listed.has(role.name) || isBuiltInRealmRole(role.name) || !carriesMarker(role.attributes)) continue;
    steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource: { type: 'realmRole', realm: steps.realm, name: role.name } }, 'we made it and the spec no longer lists it');
  }
}
