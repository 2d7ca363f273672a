// The CRD schema of a KeycloakRealm's `groups`, level by level (a structural schema cannot refer to itself).
import { GROUP_NAME_MAX_LENGTH, GROUP_NAME_PATTERN, MAX_GROUP_DEPTH, MAX_GROUPS } from './spec.js';
import { listMapOf } from '../../list-schema.js';
import { pruneRuleDescription } from '../../prune.js';

const nameSet = { type: 'array', items: { type: 'string', minLength: 1 }, 'x-kubernetes-list-type': 'set' };

function groupSchema(level: number): object {
  return {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: GROUP_NAME_MAX_LENGTH, pattern: GROUP_NAME_PATTERN, description: 'The group\'s name, unique among its siblings; without /.' },
      attributes: { type: 'object', description: 'When given, exactly the group\'s attributes (besides the marker).', additionalProperties: { type: 'string' } },
      realmRoles: { ...nameSet, description: 'When given, exactly the realm roles mapped to the group, by name.' },
      clientRoles: { type: 'object', description: 'When given, exactly the client roles mapped to the group, by clientId.', additionalProperties: nameSet },
      ...(level < MAX_GROUP_DEPTH ? { subGroups: { ...groupsSchema(level + 1), description: `The group's subgroups, by name. ${pruneRuleDescription('groups')}` } } : {}),
    },
  };
}

function groupsSchema(level: number): object {
  return listMapOf('name', groupSchema(level), { maxItems: MAX_GROUPS });
}

/** The realm's top-level groups. */
export const groupsCrdSchema = {
  ...groupsSchema(1),
  description: `Realm groups, nested at most ${String(MAX_GROUP_DEPTH)} deep. Listed groups are created or brought to the spec (and carry Keyward's marker). ${pruneRuleDescription('groups')}`,
};
