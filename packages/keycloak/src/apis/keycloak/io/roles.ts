// Roles by name (as plans and queries speak of them) and by representation (as the admin API takes them).
import type { KeycloakObject, RoleNames, RoleRepresentation } from '../representations.js';
import type { WithId } from './lookups.js';
import { clientIdOf, findClient, missing } from './lookups.js';
import { clientRolePath, clientRolesPath, compositesPath, realmRolePath, realmRolesPath, roleMappingsPath } from './paths.js';
import type { AdminReads } from './reads.js';

/** A role as a role list returns it: which realm or client holds it (containerId) says whose it is. */
export type ListedRole = WithId<RoleRepresentation> & { readonly clientRole?: boolean; readonly containerId?: string };

/** Roles resolved for a change: the realm's, and each client's (by the client's id, for its mapping path). */
export interface ResolvedRoles {
  readonly realm: readonly ListedRole[];
  readonly clients: readonly { readonly id: string; readonly clientId: string; readonly roles: readonly ListedRole[] }[];
}

const roleFields = ['id', 'name'];

async function readRole(reads: AdminReads, path: string, what: string): Promise<ListedRole | undefined> {
  return reads.object<ListedRole>({ path, operation: 'get_role', description: `read ${what}`, fields: roleFields });
}

/** Where a realm's or a client's roles are: the list, and one role by name. */
interface RoleContainer {
  readonly rolesPath: string;
  readonly rolePath: (name: string) => string;
  readonly what: (name: string) => string;
}

/**
 * The roles of `container` that `names` names, by name: one read for one role, else one list of them all
 * (a grant of many roles costs one request, not one per role).
 */
async function findRoles(reads: AdminReads, container: RoleContainer, names: readonly string[]): Promise<ReadonlyMap<string, ListedRole>> {
  const [only] = names;
  if (only !== undefined && names.length === 1) {
    const role = await readRole(reads, container.rolePath(only), container.what(only));
    return new Map(role === undefined ? [] : [[role.name, role]]);
  }
  if (names.length === 0) return new Map();
  const roles = await reads.list<ListedRole>({ path: container.rolesPath, operation: 'list_roles', description: `list the roles at ${container.rolesPath}`, fields: roleFields });
  return new Map((roles ?? []).map((role) => [role.name, role]));
}

/**
 * The roles `names` names in `realm`. `ifMissing` decides about a role (or its client) that does not exist:
 * a grant fails ('fail'), a revoke has nothing to take ('skip').
 */
export async function resolveRoles(reads: AdminReads, realm: string, names: RoleNames, ifMissing: 'fail' | 'skip', description: string): Promise<ResolvedRoles> {
  const found = <T>(value: T | undefined, what: string): T[] => {
    if (value !== undefined) return [value];
    if (ifMissing === 'fail') throw missing(what, description);
    return [];
  };
  const pick = (roles: ReadonlyMap<string, ListedRole>, roleNames: readonly string[], container: RoleContainer): ListedRole[] =>
    roleNames.flatMap((name) => found(roles.get(name), container.what(name)));
  const realmRoles: RoleContainer = { rolesPath: realmRolesPath(realm), rolePath: (name) => realmRolePath(realm, name), what: (name) => `realm role ${name}` };
  const clients = await Promise.all(Object.entries(names.clients).filter(([, roles]) => roles.length > 0).map(async ([clientId, roleNames]) => {
    const client = found(await findClient(reads, realm, clientId), `client ${clientId}`)[0];
    if (client === undefined) return [];
    const container: RoleContainer = { rolesPath: clientRolesPath(realm, client.id), rolePath: (name) => clientRolePath(realm, client.id, name), what: (name) => `role ${name} of client ${clientId}` };
    return [{ id: client.id, clientId, roles: pick(await findRoles(reads, container, roleNames), roleNames, container) }];
  }));
  return { realm: pick(await findRoles(reads, realmRoles, names.realm), names.realm, realmRoles), clients: clients.flat() };
}

/**
 * Roles by name, from a role list that mixes realm and client roles (a role's composites). A client role is
 * named by its client's clientId, looked up once per client (`clientIds` is shared by the reads of a query).
 */
export async function roleNames(reads: AdminReads, realm: string, roles: readonly ListedRole[], clientIds: ClientIdCache): Promise<RoleNames> {
  const clients: Record<string, string[]> = {};
  for (const role of roles.filter((r) => r.clientRole === true && r.containerId !== undefined)) {
    const clientId = await clientIds.of(reads, realm, role.containerId ?? '');
    (clients[clientId] ??= []).push(role.name);
  }
  return { realm: roles.filter((role) => role.clientRole !== true).map((role) => role.name), clients };
}

/** clientIds by client id, read once each. */
export class ClientIdCache {
  readonly #known = new Map<string, Promise<string>>();

  of(reads: AdminReads, realm: string, id: string): Promise<string> {
    let clientId = this.#known.get(id);
    if (clientId === undefined) {
      // A client deleted meanwhile is named by its id: the role of it is still there to be seen.
      clientId = clientIdOf(reads, realm, id).then((found) => found ?? id);
      this.#known.set(id, clientId);
    }
    return clientId;
  }
}

/** The path of a composite role: a realm role, or a role of a client (by the client's id). */
export function rolePath(realm: string, name: string, clientUuid: string | undefined): string {
  return clientUuid === undefined ? realmRolePath(realm, name) : clientRolePath(realm, clientUuid, name);
}

/** The roles a composite role is made of. */
export async function compositesOf(reads: AdminReads, path: string, what: string): Promise<ListedRole[]> {
  return (await reads.list<ListedRole>({ path: compositesPath(path), operation: 'list_composites', description: `list the composites of ${what}`, fields: roleFields })) ?? [];
}

interface RoleMappings extends KeycloakObject {
  readonly realmMappings?: readonly ListedRole[];
  readonly clientMappings?: Readonly<Record<string, { readonly id: string; readonly mappings?: readonly ListedRole[] }>>;
}

/** A user's direct role mappings (not those it has through composites), by name and as representations. */
export async function directRoleMappings(reads: AdminReads, realm: string, userId: string, what: string): Promise<{ readonly names: RoleNames; readonly roles: readonly ListedRole[] }> {
  return roleMappingsAt(reads, roleMappingsPath(realm, userId), what);
}

/** The direct role mappings at `path` (a user's or a group's role-mappings). */
export async function roleMappingsAt(reads: AdminReads, path: string, what: string): Promise<{ readonly names: RoleNames; readonly roles: readonly ListedRole[] }> {
  const mappings = await reads.object<RoleMappings>({ path, operation: 'get_role_mappings', description: `read the roles of ${what}` });
  const realmRoles = mappings?.realmMappings ?? [];
  const clientEntries = Object.entries(mappings?.clientMappings ?? {});
  return {
    // clientMappings is keyed by the clientId already.
    names: {
      realm: realmRoles.map((role) => role.name),
      clients: Object.fromEntries(clientEntries.map(([clientId, entry]) => [clientId, (entry.mappings ?? []).map((role) => role.name)])),
    },
    roles: [...realmRoles, ...clientEntries.flatMap(([, entry]) => entry.mappings ?? [])],
  };
}

