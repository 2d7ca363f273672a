// The `groups` of a KeycloakRealm spec as a codec; group-schema.ts states the same rules for the CRD.
import * as t from 'io-ts';
import { minLengthString, uniqueList } from '@keyward/kernel/model';

/** How deep groups nest in a spec (top level is 1): a CRD schema cannot recurse, so each level is spelled out. */
export const MAX_GROUP_DEPTH = 5;
/** Groups in one list (the top level, or one group's subgroups). */
export const MAX_GROUPS = 500;
/** Keycloak's name column; a slash would make the group's path ambiguous. */
export const GROUP_NAME_MAX_LENGTH = 255;
export const GROUP_NAME_PATTERN = '^[^/]+$';
export const GROUP_NAME_SAYS = `a group name of 1 to ${String(GROUP_NAME_MAX_LENGTH)} characters without /`;
export const GROUP_DEPTH_MESSAGE = `groups nest at most ${String(MAX_GROUP_DEPTH)} levels deep`;
export const GROUPS_MAX_MESSAGE = `must have at most ${String(MAX_GROUPS)} items`;

/** A group as the spec states it: attributes and roles, when given, are exactly what the group has. */
export interface GroupSpec {
  readonly name: string;
  readonly attributes?: Readonly<Record<string, string>>;
  readonly realmRoles?: readonly string[];
  /** Roles of clients, by clientId. */
  readonly clientRoles?: Readonly<Record<string, readonly string[]>>;
  readonly subGroups?: readonly GroupSpec[];
}

const validName = (u: unknown): u is string => typeof u === 'string' && u.length >= 1 && u.length <= GROUP_NAME_MAX_LENGTH && !u.includes('/');
const groupName = new t.Type<string>(GROUP_NAME_SAYS, validName, (u, c) => (validName(u) ? t.success(u) : t.failure(u, c)), t.identity);

const roleNames = uniqueList(t.array(minLengthString(1)));

/** Subgroups below the deepest level: refused, naming the limit. */
const tooDeep = new t.Type<GroupSpec[]>('no subgroups', (_u): _u is GroupSpec[] => false, (u, c) => t.failure(u, c, GROUP_DEPTH_MESSAGE), t.identity);

/** A list of groups, each by its name at most once, of at most MAX_GROUPS. */
function groupList(item: t.Type<GroupSpec>): t.Type<GroupSpec[]> {
  const list = uniqueList(t.array(item), (group) => group.name);
  return new t.Type<GroupSpec[]>(
    list.name,
    (u): u is GroupSpec[] => list.is(u) && u.length <= MAX_GROUPS,
    (u, c) => {
      const decoded = list.validate(u, c);
      if (decoded._tag === 'Left' || decoded.right.length <= MAX_GROUPS) return decoded;
      return t.failure(u, c, GROUPS_MAX_MESSAGE);
    },
    t.identity,
  );
}

/** A group at `level` (1 is the top): its subgroups one level down, none below MAX_GROUP_DEPTH. */
function groupCodec(level: number): t.Type<GroupSpec> {
  const subGroups = level < MAX_GROUP_DEPTH ? groupList(groupCodec(level + 1)) : tooDeep;
  const codec = t.intersection([
    t.type({ name: groupName }),
    t.partial({ attributes: t.record(t.string, t.string), realmRoles: roleNames, clientRoles: t.record(t.string, roleNames), subGroups }),
  ]);
  return codec as unknown as t.Type<GroupSpec>;
}

/** The realm's top-level groups, with their subgroups. */
export const GroupsCodec = groupList(groupCodec(1));

/** Roles stated by name: realm roles, and client roles by clientId (a realm's defaultRoles). */
export const StatedRolesCodec = t.partial({ realmRoles: roleNames, clientRoles: t.record(t.string, roleNames) });

export const GROUP_PATH_PATTERN = '^(/[^/]+)+$';
const validPath = (u: unknown): u is string => typeof u === 'string' && new RegExp(GROUP_PATH_PATTERN).test(u);
const groupPathCodec = new t.Type<string>('a group path like /parent/child', validPath, (u, c) => (validPath(u) ? t.success(u) : t.failure(u, c)), t.identity);

/** The realm's default groups, by path. */
export const DefaultGroupsCodec = uniqueList(t.array(groupPathCodec));
