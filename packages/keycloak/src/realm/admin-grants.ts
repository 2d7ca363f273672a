// The grants a KeycloakRealm spec makes (default roles, groups' roles, realm roles' composites, mappers), checked for
// roles that administer the realm before anything is written.
import type { ObservedRole, RoleNames } from '../apis/keycloak/representations.js';
import { adminRolesIn, type CompositesOf } from '../admin-roles.js';
import type { StatedRoles } from '../tracked-roles.js';
import type { GroupSpec } from './groups/spec.js';
import { mapperAdminGrants } from './mapper-grants.js';
import type { KeycloakRealmSpec } from './spec.js';

/** The reason a realm that grants admin roles reports. */
export const ADMIN_GRANT_REASON = 'AdminRolesNotGrantable';

const namesOf = (stated: StatedRoles | undefined): RoleNames => ({ realm: stated?.realmRoles ?? [], clients: stated?.clientRoles ?? {} });

function merged(a: RoleNames | undefined, b: RoleNames | undefined): RoleNames | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const clients: Record<string, readonly string[]> = { ...a.clients };
  for (const [clientId, roles] of Object.entries(b.clients)) clients[clientId] = [...(clients[clientId] ?? []), ...roles];
  return { realm: [...a.realm, ...b.realm], clients };
}

/** A realm role's composites: those the spec gives it and those Keycloak shows (links made by hand stay). */
function compositesIn(spec: KeycloakRealmSpec, observed: readonly ObservedRole[] | undefined): CompositesOf {
  return (role) => {
    const stated = spec.realmRoles?.find((entry) => entry.name === role)?.composites;
    return merged(stated === undefined ? undefined : { realm: stated.realm ?? [], clients: stated.clients ?? {} }, observed?.find((entry) => entry.role.name === role)?.composites);
  };
}

/** Each group with the roles the spec gives it, by path. */
function groupGrants(groups: readonly GroupSpec[] | undefined, parent = ''): (readonly [string, RoleNames])[] {
  return (groups ?? []).flatMap((group) => {
    const path = `${parent}/${group.name}`;
    return [[`group ${path}`, namesOf(group)] as const, ...groupGrants(group.subGroups, path)];
  });
}

/**
 * What the spec would grant that administers the realm, as `where: roles` entries (empty when nothing):
 * its default roles (every new user's), its groups' roles, its realm roles' composites and the roles its
 * identity-provider and user-federation mappers give, with realm roles
 * followed through the composites known (the spec's and, for a realm that exists, Keycloak's).
 */
export function adminRoleGrants(spec: KeycloakRealmSpec, observedRoles: readonly ObservedRole[] | undefined): string[] {
  const compositesOf = compositesIn(spec, observedRoles);
  const grants: (readonly [string, RoleNames])[] = [
    ['defaultRoles', namesOf(spec.defaultRoles)],
    ...groupGrants(spec.groups),
    ...(spec.realmRoles ?? []).map((role) => [`composites of realm role ${role.name}`, { realm: role.composites?.realm ?? [], clients: role.composites?.clients ?? {} }] as const),
  ];
  const providers = [
    ...(spec.identityProviders ?? []).map((idp) => ({ kind: 'identity provider', name: idp.alias, mappers: idp.mappers })),
    ...(spec.userFederation ?? []).map((provider) => ({ kind: 'user federation', name: provider.name, mappers: provider.mappers })),
  ];
  return [
    ...grants.flatMap(([where, roles]) => {
      const admin = adminRolesIn(spec.realmName, roles, compositesOf);
      return admin.length === 0 ? [] : [`${where}: ${admin.join(', ')}`];
    }),
    ...mapperAdminGrants(spec.realmName, providers, compositesOf),
  ];
}

/** The message of a realm refused for its admin grants. */
export function adminGrantMessage(realm: string, grants: readonly string[]): string {
  return `the spec grants roles that administer realm ${realm}, which no KeycloakRealm may grant (${grants.join('; ')}); nothing is changed in Keycloak until the spec drops them`;
}
