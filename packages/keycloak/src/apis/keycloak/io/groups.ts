// Reads a realm's groups: the top-level ones, and the subgroups of the groups a query names.
import { groupPath, type GroupReads, type ObservedGroup } from '../groups.js';
import type { KeycloakObject } from '../representations.js';
import { defaultGroupsPath, groupByPathPath, groupChildrenPath, groupsPath } from './paths.js';
import type { AdminReads } from './reads.js';

/** Keycloak 26 lists at most 10 subgroups unless asked for more; the top-level list has no such default. */
const CHILDREN_PAGE = '100000';

/** A group as a full (briefRepresentation=false) list gives it: with attributes and role names. */
interface GroupRepresentation extends KeycloakObject {
  readonly id: string;
  readonly name: string;
  readonly subGroupCount?: number;
  readonly attributes?: Readonly<Record<string, readonly string[]>>;
  readonly realmRoles?: readonly string[];
  /** Keyed by clientId. */
  readonly clientRoles?: Readonly<Record<string, readonly string[]>>;
}

const FIELDS: readonly (keyof GroupRepresentation & string)[] = ['id', 'name'];

async function observedGroup(reads: AdminReads, realm: string, rep: GroupRepresentation, parentPath: string | undefined, descend: ReadonlySet<string>): Promise<ObservedGroup> {
  const path = groupPath(parentPath, rep.name);
  const group: ObservedGroup = {
    id: rep.id,
    name: rep.name,
    path,
    attributes: rep.attributes ?? {},
    roles: { realm: rep.realmRoles ?? [], clients: rep.clientRoles ?? {} },
  };
  if (!descend.has(path)) return group;
  // The list says how many subgroups each group has: a group without any costs no read.
  if (rep.subGroupCount === 0) return { ...group, subGroups: [] };
  const children = await reads.list<GroupRepresentation>({
    path: groupChildrenPath(realm, rep.id),
    query: { briefRepresentation: 'false', first: '0', max: CHILDREN_PAGE },
    operation: 'list_group_children',
    description: `list the subgroups of group ${path} in realm ${realm}`,
    fields: FIELDS,
  });
  return { ...group, subGroups: await Promise.all((children ?? []).map((child) => observedGroup(reads, realm, child, path, descend))) };
}

/** The realm's top-level groups, with the subgroups of those `want` names (and of theirs it names, down). */
export async function observeGroups(reads: AdminReads, realm: string, want: GroupReads): Promise<ObservedGroup[]> {
  // Without briefRepresentation=false the list leaves out attributes (where our marker is) and role mappings.
  const top = await reads.list<GroupRepresentation>({
    path: groupsPath(realm),
    query: { briefRepresentation: 'false' },
    operation: 'list_groups',
    description: `list the groups of realm ${realm}`,
    fields: FIELDS,
  });
  const descend = new Set(want.childrenOf);
  return Promise.all((top ?? []).map((group) => observedGroup(reads, realm, group, undefined, descend)));
}

/** A group's id by its path; undefined when there is no such group. */
export async function findGroupId(reads: AdminReads, realm: string, path: string): Promise<string | undefined> {
  const group = await reads.object<GroupRepresentation>({ path: groupByPathPath(realm, path), operation: 'find_group_by_path', description: `find group ${path} in realm ${realm}`, fields: ['id'] });
  return group?.id;
}

/** The paths of the realm's default groups. */
export async function defaultGroupPaths(reads: AdminReads, realm: string): Promise<string[]> {
  const groups = await reads.list<GroupRepresentation & { readonly path: string }>({ path: defaultGroupsPath(realm), operation: 'list_default_groups', description: `list the default groups of realm ${realm}`, fields: ['id', 'path'] });
  return (groups ?? []).map((group) => group.path);
}
