import type { RoleNames } from '../apis/keycloak/representations.js';

export const NO_ROLES: RoleNames = { realm: [], clients: {} };

/** The roles of `roles` that `from` does not name. */
export function rolesNotIn(roles: RoleNames, from: RoleNames): RoleNames {
  const clients: Record<string, readonly string[]> = {};
  for (const [clientId, names] of Object.entries(roles.clients)) {
    const held = new Set(from.clients[clientId] ?? []);
    const rest = names.filter((name) => !held.has(name));
    if (rest.length > 0) clients[clientId] = rest;
  }
  const realm = new Set(from.realm);
  return { realm: roles.realm.filter((name) => !realm.has(name)), clients };
}

export function hasRoles(roles: RoleNames): boolean {
  return roles.realm.length > 0 || Object.values(roles.clients).some((names) => names.length > 0);
}
