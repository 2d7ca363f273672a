// The `groups` of a KeycloakRealm spec, each field declared once for the codec and the CRD schema, level by
// level (a structural schema cannot refer to itself).
import * as t from 'io-ts';
import { fields as f, withFieldRule, type Field } from '@keyward/kernel/model';
import { pruneRuleDescription } from '../../prune.js';

/** How deep groups nest in a spec (top level is 1): a CRD schema cannot recurse, so each level is spelled out. */
export const MAX_GROUP_DEPTH = 5;
/** Groups in one list (the top level, or one group's subgroups). */
export const MAX_GROUPS = 500;
/** Keycloak's name column; a slash would make the group's path ambiguous. */
export const GROUP_NAME_MAX_LENGTH = 255;
export const GROUP_NAME_PATTERN = '^[^/]+$';
export const GROUP_NAME_SAYS = `a group name of 1 to ${String(GROUP_NAME_MAX_LENGTH)} characters without /`;
export const GROUP_DEPTH_MESSAGE = `groups nest at most ${String(MAX_GROUP_DEPTH)} levels deep`;

/** A group as the spec states it: attributes and roles, when given, are exactly what the group has. */
export interface GroupSpec {
  readonly name: string;
  readonly attributes?: Readonly<Record<string, string>>;
  readonly realmRoles?: readonly string[];
  /** Roles of clients, by clientId. */
  readonly clientRoles?: Readonly<Record<string, readonly string[]>>;
  readonly subGroups?: readonly GroupSpec[];
  /** The Kopf operator's field: where the group is, which its place in the spec says already. */
  readonly path?: string;
}

/** `codec` of one level's groups, typed as GroupSpec, which every level shares; messages expect "an object". */
const asGroup = <A extends GroupSpec, O>(codec: t.Type<A, O>): t.Type<GroupSpec> => new t.Type<GroupSpec>('an object', codec.is, codec.validate, t.identity);

/** Roles by name, each once. */
export const roleNames = f.set(f.nonEmpty());

/** Roles stated by name: realm roles, and client roles by clientId (a realm's defaultRoles). */
export const StatedRoles = f.object({ realmRoles: roleNames, clientRoles: f.record(roleNames) });
export const StatedRolesCodec = StatedRoles.codec;

const groupFields = {
  name: f.patterned(GROUP_NAME_MAX_LENGTH, GROUP_NAME_PATTERN, 'without /').says(GROUP_NAME_SAYS).describe('The group\'s name, unique among its siblings; without /.').required(),
  attributes: f.stringMap().describe('When given, exactly the group\'s attributes (besides the marker).'),
  realmRoles: roleNames.describe('When given, exactly the realm roles mapped to the group, by name.'),
  clientRoles: f.record(roleNames).describe('When given, exactly the client roles mapped to the group, by clientId.'),
};

export const GROUP_PATH_MESSAGE = 'path is where the group is listed: / and the names of the groups it is listed in, then its own';

/**
 * The group's path at `level`, as the Kopf operator's manifests state it. The schema checks its depth (a
 * pattern) and, at the top, that it is the group's name; a rule on deeper levels would cost the API server
 * the product of every level's item bound, so there the codec alone checks the names above.
 */
const pathField = (level: number): Field<t.Type<string>> =>
  f.patterned(level * (GROUP_NAME_MAX_LENGTH + 1), `^(/[^/]+){${String(level)}}$`, `a path of ${String(level)} group names`)
    .describe('The Kopf operator\'s field: the group\'s path (/parent/child), which follows from where it is listed; when given, that path.');

const TOP_PATH_RULE = { rule: '!has(self.path) || self.path == \'/\' + self.name', message: GROUP_PATH_MESSAGE, fieldPath: '.path' };

/** A group at `level` (1 is the top): its subgroups one level down. */
function group(level: number): Field<t.Type<GroupSpec>> {
  const fields = { ...groupFields, path: pathField(level) };
  if (level < MAX_GROUP_DEPTH) {
    const nested = f.object({ ...fields, subGroups: groups(level + 1).describe(`The group's subgroups, by name. ${pruneRuleDescription('groups')}`) });
    return (level === 1 ? nested.schemaOnly({ 'x-kubernetes-validations': [TOP_PATH_RULE] }) : nested).codecOnly(asGroup);
  }
  // The deepest level's schema has no subGroups; the codec refuses them, naming the limit.
  return f.object(fields).codecOnly((codec) => withFieldRule('an object', asGroup(codec), (value) =>
    (value.subGroups === undefined ? undefined : { field: 'subGroups', message: GROUP_DEPTH_MESSAGE })));
}

/** Where the first group whose stated path is not where it is listed is, as keys below the list; undefined when none. */
function misplacedPath(list: readonly GroupSpec[], parentPath: string): string[] | undefined {
  for (const [index, each] of list.entries()) {
    const path = `${parentPath}/${each.name}`;
    if (each.path !== undefined && each.path !== path) return [String(index), 'path'];
    const below = misplacedPath(each.subGroups ?? [], path);
    if (below !== undefined) return [String(index), 'subGroups', ...below];
  }
  return undefined;
}

/** `codec` of the top-level groups, refusing a stated path that contradicts the nesting, at that path. */
function checkingPaths(codec: t.Type<GroupSpec[]>): t.Type<GroupSpec[]> {
  return new t.Type<GroupSpec[]>(
    codec.name,
    (u): u is GroupSpec[] => codec.is(u) && misplacedPath(u, '') === undefined,
    (u, c) => {
      const decoded = codec.validate(u, c);
      if (decoded._tag === 'Left') return decoded;
      const at = misplacedPath(decoded.right, '');
      if (at === undefined) return decoded;
      return t.failure(u, [...c, ...at.map((key) => ({ key, type: t.unknown, actual: key }))], GROUP_PATH_MESSAGE);
    },
    t.identity,
  );
}

/** A list of groups, each by its name at most once. */
function groups(level: number): Field<t.Type<GroupSpec[]>> {
  return f.listMap('name', group(level), { maxItems: MAX_GROUPS });
}

/** The realm's top-level groups, with their subgroups. */
export const Groups = groups(1).codecOnly(checkingPaths).describe(`Realm groups, nested at most ${String(MAX_GROUP_DEPTH)} deep. Listed groups are created or brought to the spec (and carry Keyward's marker). ${pruneRuleDescription('groups')}`);
export const GroupsCodec = Groups.codec;
export const groupsCrdSchema = Groups.schema;

export const GROUP_PATH_PATTERN = '^(/[^/]+)+$';

/** The realm's default groups, by path. */
export const DefaultGroups = f.set(f.matching(GROUP_PATH_PATTERN, 'a group path like /parent/child'));
export const DefaultGroupsCodec = DefaultGroups.codec;
