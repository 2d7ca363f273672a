import { deepEqual } from '@keyward/kernel/plan';
import type { ObservedRole, RoleNames, RoleRepresentation } from '../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../ownership.js';
import { addSteps, planKeycloakList, realmWrites } from '../list-writes.js';
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
  const resource = (name: string) => ({ type: 'realmRole', realm: steps.realm, name }) as const;
  const write = (spec: RealmRoleSpec) => ({ resource: resource(spec.name), body: desiredRole(spec) });
  const roles = planKeycloakList({
    ...realmWrites(steps),
    desired: specs,
    observed,
    desiredKey: (spec) => spec.name,
    observedKey: (entry) => entry.role.name,
    changes: (spec, entry) => roleChanges(desiredRole(spec), entry.role),
    ours: (entry) => carriesMarker(entry.role.attributes),
    builtIn: isBuiltInRealmRole,
    pruneWhenEmpty,
    create: write,
    update: write,
    delete: (entry) => resource(entry.role.name),
  });
  addSteps(steps.plan, roles.listed.map((item) => item.step));
  for (const item of roles.listed) planComposites(steps, item.desired, item.observed?.composites ?? NO_ROLES);
  addSteps(steps.plan, roles.deletes.map((item) => item.step));
}
