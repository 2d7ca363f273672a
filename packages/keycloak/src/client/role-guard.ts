import { accept, commaList, reject, type Parsed } from '@keyward/vocabulary';
import { isAdminClientRole, isAdminRealmRole } from '../admin-roles.js';
import type { ServiceAccountRolesSpec } from './spec.js';

/**
 * The realm role `admin`, refused in every realm: in master it administers Keycloak, and elsewhere a realm
 * owner may have composed it of the realm's admin roles.
 */
const ADMIN_ROLE = 'admin';

/**
 * The roles the spec lists for a service account that the operator does not grant: realm `admin` (and
 * master's other admin roles), and every role of the clients that administer the realm (realm-management,
 * in master each `<realm>-realm`: even view-clients shows every client's secret, other namespaces' too),
 * unless `allowed` names them (`role`, `client/role`, or `*` for any). Named as `role` or `client/role`,
 * in the order the spec lists them.
 */
export function forbiddenServiceAccountRoles(realm: string, wanted: ServiceAccountRolesSpec | undefined, allowed: readonly string[]): string[] {
  if (wanted === undefined || allowed.includes('*')) return [];
  const realmRoles = (wanted.realmRoles ?? []).filter((role) => role === ADMIN_ROLE || isAdminRealmRole(realm, role));
  const clientRoles = Object.entries(wanted.clientRoles ?? {}).flatMap(([clientId, roles]) =>
    isAdminClientRole(realm, clientId) ? roles.map((role) => `${clientId}/${role}`) : []);
  return [...realmRoles, ...clientRoles].filter((name) => !allowed.includes(name));
}

/** The option's value: `*`, or a comma-separated list of `role` (a realm role) and `client/role`. */
export function parseAllowedServiceAccountRoles(raw: string): Parsed<readonly string[]> {
  const entries = commaList(raw);
  const bad = entries.find((entry) => entry !== '*' && !/^[^/\s]+(\/[^/\s]+)?$/.test(entry));
  return bad === undefined ? accept(entries) : reject(`has "${bad}", which is not *, role or client/role`);
}
