import type { ObservedRole } from '../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../ownership.js';
import { addKeycloakList, clientWrites } from '../list-writes.js';
import type { ClientRoleSpec } from './client-roles.js';
import type { ClientTarget } from './target.js';

type RoleAttributes = Readonly<Record<string, readonly string[]>>;

/** A role's attributes as Keycloak keeps them (lists), with our marker: a role the spec lists is the spec's. */
function desiredAttributes(role: ClientRoleSpec): RoleAttributes {
  const listed = Object.fromEntries(Object.entries(role.attributes ?? {}).map(([key, value]) => [key, [value]]));
  return { ...listed, [MANAGED_BY]: [MANAGED_BY_KEYWARD] };
}

function changedFields(role: ClientRoleSpec, observed: ObservedRole['role']): string[] {
  const changed = role.description !== undefined && role.description !== (observed.description ?? '') ? ['description'] : [];
  for (const [key, values] of Object.entries(desiredAttributes(role))) {
    const have = observed.attributes?.[key] ?? [];
    if (have.length !== values.length || values.some((value, i) => have[i] !== value)) changed.push(`attributes.${key}`);
  }
  return changed;
}

/**
 * Creates and updates the client roles the spec lists, and deletes those it no longer lists that carry our
 * marker, under the prune rule; roles made by hand are left alone. `observed` is empty for a client this plan
 * creates, or whose roles were not read.
 */
export function reconcileClientRoles(target: ClientTarget, wanted: readonly ClientRoleSpec[] | undefined, observed: readonly ObservedRole[], pruneWhenEmpty: boolean): void {
  const resource = (name: string) => ({ type: 'clientRole', client: target.client, name }) as const;
  addKeycloakList(target.plan, {
    ...clientWrites(target, 'client role'),
    desired: wanted ?? [],
    observed,
    desiredKey: (role) => role.name,
    observedKey: (entry) => entry.role.name,
    changes: (role, entry) => changedFields(role, entry.role),
    ours: (entry) => carriesMarker(entry.role.attributes),
    pruneWhenEmpty,
    create: (role) => ({ resource: resource(role.name), body: { name: role.name, ...(role.description === undefined ? {} : { description: role.description }), attributes: desiredAttributes(role) } }),
    // A role's attributes are replaced whole: those the spec does not state are sent back as they are.
    update: (role, { role: existing }) => ({
      resource: resource(role.name),
      body: { name: role.name, description: role.description ?? existing.description ?? '', attributes: { ...existing.attributes, ...desiredAttributes(role) } },
    }),
    delete: (entry) => resource(entry.role.name),
  });
}
