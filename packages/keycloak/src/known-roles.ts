// What a guard against admin grants knows of roles and groups: what a spec states, and what Keycloak holds
// (a composite or a group's role made by hand stays until someone removes it, so both count).
import type { RoleNames } from './apis/keycloak/representations.js';
import type { ObservedReach } from './apis/keycloak/role-reach.js';
import type { CompositesOf, GroupRolesOf } from './admin-roles.js';

/** How roles lead to other roles: composites, and the roles of groups by path. */
export interface KnownRoles {
  readonly compositesOf: CompositesOf;
  readonly groupRolesOf: GroupRolesOf;
}

/** Both lists together; undefined when neither is known. */
export function mergedRoles(a: RoleNames | undefined, b: RoleNames | undefined): RoleNames | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const clients: Record<string, readonly string[]> = { ...a.clients };
  for (const [clientId, roles] of Object.entries(b.clients)) clients[clientId] = [...(clients[clientId] ?? []), ...roles];
  return { realm: [...a.realm, ...b.realm], clients };
}

/** The roles as a spec states them (either part may be left out). */
export const statedRoles = (stated: { readonly realmRoles?: readonly string[] | undefined; readonly clientRoles?: Readonly<Record<string, readonly string[]>> | undefined } | undefined): RoleNames =>
  ({ realm: stated?.realmRoles ?? [], clients: stated?.clientRoles ?? {} });

/** What Keycloak showed of the roles and groups a guard read. */
export function knownFrom(reach: ObservedReach | undefined): KnownRoles {
  return {
    compositesOf: (name, clientId) => reach?.composites.find((entry) => entry.name === name && entry.clientId === clientId)?.composites,
    groupRolesOf: (path) => reach?.groups.find((group) => group.path === path)?.roles,
  };
}

/** What either source knows, together. */
export function knownTogether(a: KnownRoles, b: KnownRoles): KnownRoles {
  return {
    compositesOf: (name, clientId) => mergedRoles(a.compositesOf(name, clientId), b.compositesOf(name, clientId)),
    groupRolesOf: (path) => mergedRoles(a.groupRolesOf(path), b.groupRolesOf(path)),
  };
}
