import { accept, commaList, reject, type Parsed } from '@keyward/vocabulary';
import type { ServiceAccountRolesSpec } from './spec.js';

/** The realm role that makes its holder a Keycloak administrator (in master: of every realm). */
const ADMIN_REALM_ROLES: readonly string[] = ['admin'];

/** Roles of a realm's management client that administer the realm or act as its users. */
const MANAGEMENT_ROLES: readonly string[] = [
  'realm-admin',
  'manage-realm',
  'manage-users',
  'manage-clients',
  'manage-authorization',
  'manage-identity-providers',
  'manage-events',
  'create-client',
  'impersonation',
];

/**
 * The clients whose roles administer a realm: realm-management in every realm, and in master the
 * `<realm>-realm` client Keycloak makes for each realm.
 */
function isManagementClient(realm: string, clientId: string): boolean {
  return clientId === 'realm-management' || (realm === 'master' && clientId.endsWith('-realm'));
}

/**
 * The roles the spec lists for a service account that the operator does not grant: realm `admin`, the
 * management clients' admin roles and impersonation, unless `allowed` names them (`role`, `client/role`, or
 * `*` for any). Named as `role` or `client/role`, in the order the spec lists them.
 */
export function forbiddenServiceAccountRoles(realm: string, wanted: ServiceAccountRolesSpec | undefined, allowed: readonly string[]): string[] {
  if (wanted === undefined || allowed.includes('*')) return [];
  const realmRoles = (wanted.realmRoles ?? []).filter((role) => ADMIN_REALM_ROLES.includes(role));
  const clientRoles = Object.entries(wanted.clientRoles ?? {}).flatMap(([clientId, roles]) =>
    isManagementClient(realm, clientId) ? roles.filter((role) => MANAGEMENT_ROLES.includes(role)).map((role) => `${clientId}/${role}`) : []);
  return [...realmRoles, ...clientRoles].filter((name) => !allowed.includes(name));
}

/** The option's value: `*`, or a comma-separated list of `role` (a realm role) and `client/role`. */
export function parseAllowedServiceAccountRoles(raw: string): Parsed<readonly string[]> {
  const entries = commaList(raw);
  const bad = entries.find((entry) => entry !== '*' && !/^[^/\s]+(\/[^/\s]+)?$/.test(entry));
  return bad === undefined ? accept(entries) : reject(`has "${bad}", which is not *, role or client/role`);
}
