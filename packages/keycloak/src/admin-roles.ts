// Which roles administer Keycloak or a realm. No object grants them (to a realm's default role, a group, a
// composite): the realm's users, or whoever is given the role, would administer the realm beyond what the
// realm's KeycloakRealm and its granted namespaces may do through the operator (read every client's
// secret, change users), and in master Keycloak itself.
import type { RoleNames } from './apis/keycloak/representations.js';
import { isAdminRealm } from './reserved.js';

/** The client whose roles administer a realm (each of them: even view-clients shows every client secret). */
export const MANAGEMENT_CLIENT = 'realm-management';

/** Realm roles of the admin realm that administer every realm. */
const ADMIN_REALM_ROLES: readonly string[] = ['admin', 'create-realm'];

/** Whether a client role administers the realm: realm-management's, and in master each `<realm>-realm` client's. */
export function isAdminClientRole(realm: string, clientId: string): boolean {
  return clientId === MANAGEMENT_CLIENT || (isAdminRealm(realm) && clientId.endsWith('-realm'));
}

/** Whether a realm role administers by itself (not through composites): master's admin and create-realm. */
export function isAdminRealmRole(realm: string, role: string): boolean {
  return isAdminRealm(realm) && ADMIN_REALM_ROLES.includes(role);
}

/** A realm role's composites, as far as they are known (the spec's and Keycloak's together). */
export type CompositesOf = (realmRole: string) => RoleNames | undefined;

/**
 * The admin role a realm role reaches through its composites (depth first, each role once), as
 * `role` or `client/role`; undefined when it reaches none.
 */
export function adminRoleReached(realm: string, role: string, compositesOf: CompositesOf, seen = new Set<string>()): string | undefined {
  if (isAdminRealmRole(realm, role)) return role;
  if (seen.has(role)) return undefined;
  seen.add(role);
  const composites = compositesOf(role);
  if (composites === undefined) return undefined;
  const client = Object.entries(composites.clients).find(([clientId, roles]) => roles.length > 0 && isAdminClientRole(realm, clientId));
  if (client !== undefined) return `${client[0]}/${client[1][0] ?? ''}`;
  for (const inner of composites.realm) {
    const reached = adminRoleReached(realm, inner, compositesOf, seen);
    if (reached !== undefined) return reached;
  }
  return undefined;
}

/**
 * The admin roles among `granted`, each named as the spec names it (`role`, `client/role`) and, for a realm
 * role that only reaches one, with what it reaches: `viewer (reaches realm-management/view-users)`.
 */
export function adminRolesIn(realm: string, granted: RoleNames, compositesOf: CompositesOf): string[] {
  const realmRoles = granted.realm.flatMap((role) => {
    const reached = adminRoleReached(realm, role, compositesOf);
    if (reached === undefined) return [];
    return [reached === role ? role : `${role} (reaches ${reached})`];
  });
  const clientRoles = Object.entries(granted.clients).flatMap(([clientId, roles]) => (isAdminClientRole(realm, clientId) ? roles.map((role) => `${clientId}/${role}`) : []));
  return [...realmRoles, ...clientRoles];
}
