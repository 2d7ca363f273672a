// Follows what a spec's grants name through Keycloak's admin API: only what the grants lead to is read.
import { isAdminClientRole } from '../../../admin-roles.js';
import type { KeycloakObject, RoleNames } from '../representations.js';
import { ReachWalk, type ObservedReach, type ReachRead, type RoleRef } from '../role-reach.js';
import { findClient } from './lookups.js';
import { groupByPathPath, realmRolesPath } from './paths.js';
import type { AdminReads } from './reads.js';
import { ClientIdCache, compositesOf, roleNames, rolePath, type ListedRole } from './roles.js';

/** A group as group-by-path gives it: the full representation, with its role mappings by name. */
interface GroupRepresentation extends KeycloakObject {
  readonly id: string;
  readonly realmRoles?: readonly string[];
  /** Keyed by clientId. */
  readonly clientRoles?: Readonly<Record<string, readonly string[]>>;
}

/**
 * What `read` leads to in `realm`: a request per group on the way, per client role reached (and per client,
 * once), and for realm roles one list of them (which says which are composites) and a request per composite
 * one reached: a spec grants many realm roles, few of them composites. An admin client's roles are not
 * followed: they administer by themselves.
 */
export async function readGrantReach(reads: AdminReads, realm: string, read: ReachRead): Promise<ObservedReach> {
  const clientIds = new ClientIdCache();
  let realmComposites: Promise<ReadonlySet<string>> | undefined;
  const isRealmComposite = async (name: string): Promise<boolean> => {
    realmComposites ??= reads.list<ListedRole>({ path: realmRolesPath(realm), operation: 'list_roles', description: `list the roles of realm ${realm}`, fields: ['id', 'name'] })
      .then((roles) => new Set((roles ?? []).filter((role) => role.composite === true).map((role) => role.name)));
    return (await realmComposites).has(name);
  };
  const clients = new Map<string, Promise<string | undefined>>();
  const clientUuid = (clientId: string): Promise<string | undefined> => {
    let found = clients.get(clientId);
    if (found === undefined) {
      found = findClient(reads, realm, clientId).then((client) => client?.id);
      clients.set(clientId, found);
    }
    return found;
  };
  const composites = async (role: RoleRef): Promise<RoleNames | undefined> => {
    if (role.clientId === undefined && !(await isRealmComposite(role.name))) return undefined;
    const uuid = role.clientId === undefined ? undefined : await clientUuid(role.clientId);
    if (role.clientId !== undefined && uuid === undefined) return undefined;
    const what = role.clientId === undefined ? `realm role ${role.name}` : `role ${role.name} of client ${role.clientId}`;
    const parts = await compositesOf(reads, rolePath(realm, role.name, uuid), what);
    return parts.length === 0 ? undefined : roleNames(reads, realm, parts, clientIds);
  };
  const groupRoles = async (path: string): Promise<RoleNames | undefined> => {
    const group = await reads.object<GroupRepresentation>({ path: groupByPathPath(realm, path), operation: 'find_group_by_path', description: `find group ${path} in realm ${realm}`, fields: ['id'] });
    return group === undefined ? undefined : { realm: group.realmRoles ?? [], clients: group.clientRoles ?? {} };
  };
  const walk = new ReachWalk(read, (role) => role.clientId !== undefined && isAdminClientRole(realm, role.clientId));
  walk.foundGroups(await Promise.all(walk.groups.map(async (path) => ({ path, roles: await groupRoles(path) }))));
  for (let level = walk.level(); level.length > 0; level = walk.level()) walk.foundComposites(await Promise.all(level.map(async (role) => ({ role, composites: await composites(role) }))));
  return walk.reached;
}
