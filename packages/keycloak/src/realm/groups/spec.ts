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

/** A group at `level` (1 is the top): its subgroups one level down. */
function group(level: number): Field<t.Type<GroupSpec>> {
  if (level < MAX_GROUP_DEPTH) {
    return f.object({ ...groupFields, subGroups: groups(level + 1).describe(`The group's subgroups, by name. ${pruneRuleDescription('groups')}`) }).codecOnly(asGroup);
  }
  // The deepest level's schema has no subGroups; the codec refuses them, naming the limit.
  return f.object(groupFields).codecOnly((codec) => withFieldRule('an object', asGroup(codec), (value) =>
    (value.subGroups === undefined ? undefined : { field: 'subGroups', message: GROUP_DEPTH_MESSAGE })));
}

/** A list of groups, each by its name at most once. */
function groups(level: number): Field<t.Type<GroupSpec[]>> {
  return f.listMap('name', group(level), { maxItems: MAX_GROUPS });
}

/** The realm's top-level groups, with their subgroups. */
export const Groups = groups(1).describe(`Realm groups, nested at most ${String(MAX_GROUP_DEPTH)} deep. Listed groups are created or brought to the spec (and carry Keyward's marker). ${pruneRuleDescription('groups')}`);
export const GroupsCodec = Groups.codec;
export const groupsCrdSchema = Groups.schema;

export const GROUP_PATH_PATTERN = '^(/[^/]+)+$';

/** The realm's default groups, by path. */
export const DefaultGroups = f.set(f.matching(GROUP_PATH_PATTERN, 'a group path like /parent/child'));
export const DefaultGroupsCodec = DefaultGroups.codec;
