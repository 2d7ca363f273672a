// Identity-provider and user-federation mappers grant roles and groups too: a hardcoded or claim-to-role
// mapper gives every user it maps the role named in its `role` config, an LDAP role mapper gives the roles
// of the client named in `client.id`, a hardcoded or claim-to-group mapper puts users in the group at its
// `group` path, and an LDAP group mapper puts them in groups under its `groups.path`, whose roles they get
// too. Their config is free-form, so these keys are read as Keycloak reads them.
import { adminRoleOfGroup, adminRoleReached, isAdminClientRole, namedWithReach, shownRole, type CompositesOf } from '../admin-roles.js';
import type { RoleNames } from '../apis/keycloak/representations.js';
import type { KnownRoles } from '../known-roles.js';

/** A mapper as a spec states it: only its name and config matter here. */
interface MapperSpec {
  readonly name: string;
  readonly config?: Readonly<Record<string, string>>;
}

/** The providers of a realm spec whose mappers grant. */
export type MapperProviders = readonly { readonly kind: string; readonly name: string; readonly mappers: readonly MapperSpec[] | undefined }[];

/** The config keys that name a group: a hardcoded or claim-to-group mapper's, and an LDAP group mapper's parent. */
const GROUP_KEYS = ['group', 'groups.path'];

/**
 * The roles a `role` config may name: `clientId.role` at each dot (Keycloak takes the first split whose
 * client exists, so each counts), and the realm role of the whole name.
 */
function rolesNamed(role: string): RoleNames {
  const clients: Record<string, string[]> = {};
  for (const match of role.matchAll(/\./g)) (clients[role.slice(0, match.index)] ??= []).push(role.slice(match.index + 1));
  return { realm: [role], clients };
}

/** The groups a mapper's config names, by path. */
function groupsNamed(config: Readonly<Record<string, string>>): string[] {
  return GROUP_KEYS.flatMap((key) => {
    const path = config[key];
    return path === undefined || path.split('/').every((name) => name === '') ? [] : [path];
  });
}

/** What the mappers of some providers name: roles and groups, for the guard to read in Keycloak. */
export function mapperGrantNames(providers: MapperProviders): { readonly roles: readonly RoleNames[]; readonly groups: readonly string[] } {
  const configs = providers.flatMap((provider) => (provider.mappers ?? []).map((mapper) => mapper.config ?? {}));
  return {
    roles: configs.flatMap((config) => (config['role'] === undefined ? [] : [rolesNamed(config['role'])])),
    groups: configs.flatMap(groupsNamed),
  };
}

/** The admin role a `role` config names, as the message says it (`client/role`, `viewer (reaches ...)`). */
function adminRoleNamed(realm: string, role: string, compositesOf: CompositesOf): string | undefined {
  const named = rolesNamed(role);
  const candidates = [...Object.entries(named.clients).flatMap(([clientId, [name = '']]) => [{ clientId, name }]), { clientId: undefined, name: role }];
  for (const candidate of candidates) {
    const reached = adminRoleReached(realm, candidate.name, compositesOf, candidate.clientId);
    if (reached !== undefined) return namedWithReach(shownRole(candidate), reached);
  }
  return undefined;
}

/** The admin roles one mapper grants, by what its config names. */
function mapperAdminRoles(realm: string, config: Readonly<Record<string, string>>, known: KnownRoles): string[] {
  const role = config['role'];
  const named = role === undefined ? undefined : adminRoleNamed(realm, role, known.compositesOf);
  const client = config['client.id'];
  const groups = groupsNamed(config).flatMap((path) => {
    const reached = adminRoleOfGroup(realm, path, known.groupRolesOf, known.compositesOf);
    return reached === undefined ? [] : [`group ${path} (reaches ${reached})`];
  });
  return [
    ...(named === undefined ? [] : [named]),
    ...(client !== undefined && isAdminClientRole(realm, client) ? [`roles of ${client}`] : []),
    ...groups,
  ];
}

/** `where: roles` entries for the mappers of some providers that grant admin roles. */
export function mapperAdminGrants(realm: string, providers: MapperProviders, known: KnownRoles): string[] {
  return providers.flatMap((provider) => (provider.mappers ?? []).flatMap((mapper) => {
    const roles = mapperAdminRoles(realm, mapper.config ?? {}, known);
    return roles.length === 0 ? [] : [`${provider.kind} ${provider.name} mapper ${mapper.name}: ${roles.join(', ')}`];
  }));
}
