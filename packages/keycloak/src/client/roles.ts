import type { ObservedRole } from '../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../ownership.js';
import { removesUnlisted } from '../prune.js';
import type { ClientRoleSpec } from './spec.js';
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
  const { plan, call, client } = target;
  const listed = wanted ?? [];
  const byName = new Map(observed.map((entry) => [entry.role.name, entry.role]));
  for (const role of listed) {
    const resource = { type: 'clientRole', client, name: role.name } as const;
    const existing = byName.get(role.name);
    if (existing === undefined) {
      const body = { name: role.name, ...(role.description === undefined ? {} : { description: role.description }), attributes: desiredAttributes(role) };
      plan.add({ kind: 'keycloak.create', ...call, resource, body }, 'the spec lists this client role');
      continue;
    }
    const changed = changedFields(role, existing);
    if (changed.length === 0) continue;
    // A role's attributes are replaced whole: those the spec does not state are sent back as they are.
    const body = {
      name: role.name,
      description: role.description ?? existing.description ?? '',
      attributes: { ...existing.attributes, ...desiredAttributes(role) },
    };
    plan.add({ kind: 'keycloak.update', ...call, resource, body, changed }, 'the client role differs from the spec');
  }
  if (!removesUnlisted(listed, pruneWhenEmpty)) return;
  const names = new Set(listed.map((role) => role.name));
  for (const { role } of observed) {
    if (names.has(role.name) || !carriesMarker(role.attributes)) continue;
    plan.add({ kind: 'keycloak.delete', ...call, resource: { type: 'clientRole', client, name: role.name } }, 'the spec no longer lists this client role, which it created');
  }
}
