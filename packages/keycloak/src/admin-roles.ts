// Which roles administer Keycloak or a realm. No object grants them (to a realm's default role, a group, a
// composite): the realm's users, or whoever is given the role, would administer the realm beyond what the
// realm's KeycloakRealm and its granted namespaces may do through the operator (read every client's
// secret, change users), and in master Keycloak itself.
import type { RoleNames } from './apis/keycloak/representations.js';
import { groupAndParents, roleKey, type RoleRef } from './apis/keycloak/role-reach.js';
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

/**
 * What a role is made of, as far as it is known (the spec's and Keycloak's together): a realm role, or with
 * `clientId` a role of that client. Undefined: not a composite, or not known.
 */
export type CompositesOf = (role: string, clientId?: string) => RoleNames | undefined;

/** The roles mapped to the group at a path (`/parent/child`), as far as known; undefined: no such group known. */
export type GroupRolesOf = (path: string) => RoleNames | undefined;

/** How messages name a role: `role`, or `clientId/role`. */
export const shownRole = (role: RoleRef): string => (role.clientId === undefined ? role.name : `${role.clientId}/${role.name}`);

function isAdminRole(realm: string, role: RoleRef): boolean {
  return role.clientId === undefined ? isAdminRealmRole(realm, role.name) : isAdminClientRole(realm, role.clientId);
}

/** The roles `names` names, admin clients' first (they need no following), then realm roles, then other clients'. */
function rolesIn(realm: string, names: RoleNames): RoleRef[] {
  const clientRoles = Object.entries(names.clients).flatMap(([clientId, roles]) => roles.map((name) => ({ name, clientId })));
  return [
    ...clientRoles.filter((role) => isAdminClientRole(realm, role.clientId)),
    ...names.realm.map((name) => ({ name })),
    ...clientRoles.filter((role) => !isAdminClientRole(realm, role.clientId)),
  ];
}

/**
 * Every admin role `role` is or reaches through composites (of realm and client roles alike, depth first,
 * each role once), as `role` or `client/role`, the first found first.
 */
export function adminRolesReached(realm: string, role: RoleRef, compositesOf: CompositesOf, seen = new Set<string>()): string[] {
  const key = roleKey(role);
  if (seen.has(key)) return [];
  seen.add(key);
  if (isAdminRole(realm, role)) return [shownRole(role)];
  const composites = compositesOf(role.name, role.clientId);
  return composites === undefined ? [] : rolesIn(realm, composites).flatMap((inner) => adminRolesReached(realm, inner, compositesOf, seen));
}

/** The first admin role a role is or reaches; undefined when none. */
export function adminRoleReached(realm: string, role: string, compositesOf: CompositesOf, clientId?: string): string | undefined {
  return adminRolesReached(realm, { name: role, clientId }, compositesOf)[0];
}

/** A granted role as the message names it: itself when it administers, else with what it reaches. */
export function namedWithReach(role: string, reached: string): string {
  return reached === role ? role : `${role} (reaches ${reached})`;
}

/**
 * The admin roles among `granted`, each named as the spec names it (`role`, `client/role`) and, for a role
 * that only reaches one through composites, with what it reaches: `viewer (reaches realm-management/view-users)`.
 */
export function adminRolesIn(realm: string, granted: RoleNames, compositesOf: CompositesOf): string[] {
  const realmRoles = granted.realm.map((name) => ({ name }));
  const clientRoles = Object.entries(granted.clients).flatMap(([clientId, roles]) => roles.map((name) => ({ name, clientId })));
  return [...realmRoles, ...clientRoles].flatMap((role) => {
    const reached = adminRolesReached(realm, role, compositesOf)[0];
    return reached === undefined ? [] : [namedWithReach(shownRole(role), reached)];
  });
}

/**
 * The first admin role the members of the group at `path` get: through its roles and its parents', each
 * followed through composites; undefined when none.
 */
export function adminRoleOfGroup(realm: string, path: string, groupRolesOf: GroupRolesOf, compositesOf: CompositesOf): string | undefined {
  const seen = new Set<string>();
  for (const group of groupAndParents(path)) {
    const roles = groupRolesOf(group);
    const reached = roles === undefined ? undefined : rolesIn(realm, roles).flatMap((role) => adminRolesReached(realm, role, compositesOf, seen))[0];
    if (reached !== undefined) return reached;
  }
  return undefined;
}
