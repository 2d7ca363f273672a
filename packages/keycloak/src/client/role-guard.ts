import { accept, commaList, reject, type Parsed } from '@keyward/kernel/model';
import { adminRolesReached, isAdminClientRole, namedWithReach, shownRole, type CompositesOf } from '../admin-roles.js';
import { rolesOf, type ReachRead } from '../apis/keycloak/role-reach.js';
import type { ServiceAccountRolesSpec } from './spec.js';

/**
 * The realm role `admin`, refused in every realm: in master it administers Keycloak, and elsewhere a realm
 * owner may have composed it of the realm's admin roles.
 */
const ADMIN_ROLE = 'admin';

const listed = (wanted: ServiceAccountRolesSpec) => rolesOf({ realm: wanted.realmRoles ?? [], clients: wanted.clientRoles ?? {} });

/**
 * The roles the spec lists for a service account that the operator does not grant: realm `admin` (and
 * master's other admin roles), every role of the clients that administer the realm (realm-management,
 * in master each `<realm>-realm`: even view-clients shows every client's secret, other namespaces' too), and
 * every role whose composites reach one (as far as `compositesOf` knows them: Keycloak's, made by hand),
 * unless `allowed` names the role or each admin role it reaches (`role`, `client/role`, or `*` for any).
 * Named as `role`, `client/role` or `viewer (reaches realm-management/view-users)`, in the order the spec
 * lists them, realm roles first.
 */
export function forbiddenServiceAccountRoles(realm: string, wanted: ServiceAccountRolesSpec | undefined, allowed: readonly string[], compositesOf: CompositesOf = () => undefined): string[] {
  if (wanted === undefined || allowed.includes('*')) return [];
  return listed(wanted).flatMap((role) => {
    const shown = shownRole(role);
    if (allowed.includes(shown)) return [];
    if (role.clientId === undefined && role.name === ADMIN_ROLE) return [shown];
    const reached = adminRolesReached(realm, role, compositesOf).find((admin) => !allowed.includes(admin));
    return reached === undefined ? [] : [namedWithReach(shown, reached)];
  });
}

/**
 * What the guard reads in Keycloak to follow the listed roles through their composites: those not refused
 * by name already (an admin client's roles administer by themselves); undefined when none is left to follow.
 */
export function serviceAccountReach(realm: string, wanted: ServiceAccountRolesSpec | undefined, allowed: readonly string[]): ReachRead | undefined {
  if (wanted === undefined || allowed.includes('*')) return undefined;
  const roles = listed(wanted).filter((role) => !allowed.includes(shownRole(role)) && (role.clientId === undefined ? role.name !== ADMIN_ROLE : !isAdminClientRole(realm, role.clientId)));
  if (roles.length === 0) return undefined;
  const clients: Record<string, string[]> = {};
  for (const role of roles) if (role.clientId !== undefined) (clients[role.clientId] ??= []).push(role.name);
  return { roles: { realm: roles.filter((role) => role.clientId === undefined).map((role) => role.name), clients }, groups: [] };
}

/** The option's value: `*`, or a comma-separated list of `role` (a realm role) and `client/role`. */
export function parseAllowedServiceAccountRoles(raw: string): Parsed<readonly string[]> {
  const entries = commaList(raw);
  const bad = entries.find((entry) => entry !== '*' && !/^[^/\s]+(\/[^/\s]+)?$/.test(entry));
  return bad === undefined ? accept(entries) : reject(`has "${bad}", which is not *, role or client/role`);
}
