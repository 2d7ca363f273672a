import * as t from 'io-ts';
import { fields as f } from '@keyward/kernel/model';
import type { StatedRoles } from '../tracked-roles.js';
import { roleNames, StatedRolesCodec } from './groups/spec.js';

// A realm's defaultRoles: Keyward's object of realm and client roles, or the Kopf operator's list of role names,
// which are realm roles (Keycloak's own RealmRepresentation.defaultRoles, which that list mirrors, names realm
// roles only). One field name with two types, as passwordPolicy: the schema takes any value, the codec checks
// either and reads the list as realm roles.

export const DEFAULT_ROLES_TYPE_MESSAGE = 'defaultRoles is an object of realmRoles and clientRoles, or a list of realm role names';

const ROLE_KEYS: readonly string[] = ['realmRoles', 'clientRoles'];

const rolesCodec = new t.Type<StatedRoles, StatedRoles>(
  'an object of realmRoles and clientRoles, or a list of realm role names',
  (u): u is StatedRoles => StatedRolesCodec.is(u),
  (u, c) => {
    if (Array.isArray(u)) {
      const names = roleNames.codec.validate(u, c);
      return names._tag === 'Left' ? names : t.success({ realmRoles: names.right });
    }
    if (typeof u !== 'object' || u === null) return t.failure(u, c, DEFAULT_ROLES_TYPE_MESSAGE);
    // The API server keeps whatever an untyped field holds: a misspelt key would otherwise be dropped unseen.
    const unknown = Object.keys(u).find((key) => !ROLE_KEYS.includes(key));
    if (unknown !== undefined) return t.failure(u, c, `${DEFAULT_ROLES_TYPE_MESSAGE}, not ${unknown}`);
    return StatedRolesCodec.validate(u, c);
  },
  t.identity,
);

export const DefaultRoles = f.field(rolesCodec, {
  // Untyped, and so unchecked by the API server (it runs no CEL rule on an untyped field): the codec refuses a
  // bad value, and the realm is then Stalled naming the field.
  'x-kubernetes-preserve-unknown-fields': true,
  description: 'Roles every new user gets (composites of the realm\'s default role), added to Keycloak\'s own: an object of realmRoles (names) and clientRoles (names by clientId), or a list of realm role names.',
});
