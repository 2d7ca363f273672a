// The grants a KeycloakRealm spec makes (default roles and groups, groups' roles, realm roles' composites,
// mappers), checked for roles that administer the realm before anything is written.
import type { ObservedRole, RoleNames } from '../apis/keycloak/representations.js';
import type { ObservedReach, ReachRead } from '../apis/keycloak/role-reach.js';
import { adminRoleOfGroup, adminRolesIn } from '../admin-roles.js';
import { knownFrom, knownTogether, mergedRoles, statedRoles, type KnownRoles } from '../known-roles.js';
import type { GroupSpec } from './groups/spec.js';
import { mapperAdminGrants, mapperGrantNames, type MapperProviders } from './mapper-grants.js';
import { hasRoles } from './role-names.js';
import type { KeycloakRealmSpec } from './spec.js';

/** The reason a realm that grants admin roles reports. */
export const ADMIN_GRANT_REASON = 'AdminRolesNotGrantable';

/** Each group the spec states with the roles it gives it, by path. */
function groupGrants(groups: readonly GroupSpec[] | undefined, parent = ''): (readonly [string, RoleNames])[] {
  return (groups ?? []).flatMap((group) => {
    const path = `${parent}/${group.name}`;
    return [[path, statedRoles(group)] as const, ...groupGrants(group.subGroups, path)];
  });
}

const compositesStated = (role: NonNullable<KeycloakRealmSpec['realmRoles']>[number]): RoleNames => ({ realm: role.composites?.realm ?? [], clients: role.composites?.clients ?? {} });

/** What the spec states: its realm roles' composites and its groups' roles. */
function knownInSpec(spec: KeycloakRealmSpec): KnownRoles {
  const groups = new Map(groupGrants(spec.groups));
  return {
    compositesOf: (name, clientId) => {
      const role = clientId === undefined ? spec.realmRoles?.find((entry) => entry.name === name) : undefined;
      return role?.composites === undefined ? undefined : compositesStated(role);
    },
    groupRolesOf: (path) => groups.get(path),
  };
}

/** What Keycloak shows: every realm role's composites (links made by hand stay), and what the guard's read reached. */
function knownInKeycloak(observed: readonly ObservedRole[] | undefined, reach: ObservedReach | undefined): KnownRoles {
  const listed: KnownRoles = { compositesOf: (name, clientId) => (clientId === undefined ? observed?.find((entry) => entry.role.name === name)?.composites : undefined), groupRolesOf: () => undefined };
  return knownTogether(listed, knownFrom(reach));
}

const mapperProviders = (spec: KeycloakRealmSpec): MapperProviders => [
  ...(spec.identityProviders ?? []).map((idp) => ({ kind: 'identity provider', name: idp.alias, mappers: idp.mappers })),
  ...(spec.userFederation ?? []).map((provider) => ({ kind: 'user federation', name: provider.name, mappers: provider.mappers })),
];

/** The places the spec grants roles, as `[where, roles]`. */
function roleGrants(spec: KeycloakRealmSpec): (readonly [string, RoleNames])[] {
  return [
    ['defaultRoles', statedRoles(spec.defaultRoles)],
    ...groupGrants(spec.groups).map(([path, roles]) => [`group ${path}`, roles] as const),
    ...(spec.realmRoles ?? []).map((role) => [`composites of realm role ${role.name}`, compositesStated(role)] as const),
  ];
}

/**
 * What the guard reads in Keycloak for a realm spec: every role the spec grants or composes and every group
 * it puts users in, to follow there; undefined when the spec names none (nothing is read).
 */
export function grantReachRead(spec: KeycloakRealmSpec): ReachRead | undefined {
  const mappers = mapperGrantNames(mapperProviders(spec));
  const roles = [...roleGrants(spec).map(([, names]) => names), ...mappers.roles].reduce<RoleNames | undefined>(mergedRoles, undefined) ?? { realm: [], clients: {} };
  const unique = { realm: [...new Set(roles.realm)], clients: Object.fromEntries(Object.entries(roles.clients).map(([clientId, names]) => [clientId, [...new Set(names)]])) };
  const groups = [...new Set([...(spec.defaultGroups ?? []), ...mappers.groups])];
  return hasRoles(unique) || groups.length > 0 ? { roles: unique, groups } : undefined;
}

/**
 * What the spec would grant that administers the realm, as `where: roles` entries (empty when nothing):
 * its default roles (every new user's), its default groups (every new user joins them, and gets their roles
 * and their parents'), its groups' roles, its realm roles' composites and what its identity-provider and
 * user-federation mappers give, with roles followed through the composites known (the spec's and, for a
 * realm that exists, Keycloak's: its realm roles', and those of the client roles and groups `reach` read).
 */
export function adminRoleGrants(spec: KeycloakRealmSpec, observedRoles: readonly ObservedRole[] | undefined, reach?: ObservedReach): string[] {
  const known = knownTogether(knownInSpec(spec), knownInKeycloak(observedRoles, reach));
  const defaultGroups = (spec.defaultGroups ?? []).flatMap((path) => {
    const reached = adminRoleOfGroup(spec.realmName, path, known.groupRolesOf, known.compositesOf);
    return reached === undefined ? [] : [`${path} (reaches ${reached})`];
  });
  return [
    ...roleGrants(spec).flatMap(([where, roles]) => {
      const admin = adminRolesIn(spec.realmName, roles, known.compositesOf);
      return admin.length === 0 ? [] : [`${where}: ${admin.join(', ')}`];
    }),
    ...(defaultGroups.length === 0 ? [] : [`defaultGroups: ${defaultGroups.join(', ')}`]),
    ...mapperAdminGrants(spec.realmName, mapperProviders(spec), known),
  ];
}

/** The message of a realm refused for its admin grants. */
export function adminGrantMessage(realm: string, grants: readonly string[]): string {
  return `the spec grants roles that administer realm ${realm}, which no KeycloakRealm may grant (${grants.join('; ')}); nothing is changed in Keycloak until the spec drops them`;
}
