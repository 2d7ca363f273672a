import * as t from 'io-ts';
import type { CelRule } from '@keyward/kernel/model';
import { ignoredField, type UpstreamSpelling } from '../upstream-spellings.js';
import { DEFAULT_ROLES_PREFIX } from './built-ins.js';

// The Kopf operator's `defaultRole`: Keycloak's representation of the realm's default role, the role whose
// composites every new user gets. Its composites are what Keyward's defaultRoles states; its name is the one
// Keycloak gives it, so it can only say that name; Keycloak sets the rest itself, so the other fields of a
// role's representation (one exported from Keycloak carries them all) are accepted and do nothing.

const names = { type: 'array', items: { type: 'string' } };

/** The default role's fields, in the Kopf operator's spelling (read after its list form of defaultRoles). */
export const DEFAULT_ROLE_SPELLINGS: readonly UpstreamSpelling[] = [
  { upstream: 'defaultRole.composites.realm', keyward: 'defaultRoles.realmRoles', schema: names },
  { upstream: 'defaultRole.composites.client', keyward: 'defaultRoles.clientRoles', schema: { type: 'object', additionalProperties: names } },
  ignoredField('defaultRole.name', 'string', `Keycloak names the default role ${DEFAULT_ROLES_PREFIX}<realmName in lower case>, the one name it may state`),
  ignoredField('defaultRole.description', 'string', 'the default role keeps the description Keycloak gives it, which its admin console translates'),
  ignoredField('defaultRole.composite', 'boolean', 'the default role is always a composite, of Keycloak\'s default roles and those defaultRoles adds'),
  ignoredField('defaultRole.id', 'string', 'Keycloak gives the default role its id when it makes the realm, and a role\'s id never changes'),
  ignoredField('defaultRole.clientRole', 'boolean', 'the default role is always a realm role'),
  ignoredField('defaultRole.containerId', 'string', 'the default role is always held by its realm, whose id Keycloak gives'),
  ignoredField('defaultRole.attributes', { type: 'object', additionalProperties: names }, 'Keyward manages the default role\'s composites only, and its attributes stay as Keycloak holds them'),
];

export const DEFAULT_ROLE_NAME_MESSAGE = `defaultRole.name is the realm's default role, ${DEFAULT_ROLES_PREFIX}<realmName in lower case>: state that name or leave it out`;

/** The API server's side of the name check. */
export const DEFAULT_ROLE_NAME_RULE: CelRule = {
  rule: `!has(self.defaultRole) || !has(self.defaultRole.name) || self.defaultRole.name == '${DEFAULT_ROLES_PREFIX}' + self.realmName.lowerAscii()`,
  message: DEFAULT_ROLE_NAME_MESSAGE,
  fieldPath: '.defaultRole.name',
};

const fieldsOf = (u: unknown): Readonly<Record<string, unknown>> | undefined =>
  (typeof u === 'object' && u !== null && !Array.isArray(u) ? u as Readonly<Record<string, unknown>> : undefined);

/** The default role name a spec states when it is not its realm's, or undefined. */
function wrongDefaultRoleName(spec: unknown): { readonly stated: unknown } | undefined {
  const fields = fieldsOf(spec);
  const stated = fieldsOf(fields?.['defaultRole'])?.['name'];
  const realmName = fields?.['realmName'];
  if (stated === undefined || typeof realmName !== 'string') return undefined;
  return stated === `${DEFAULT_ROLES_PREFIX}${realmName.toLowerCase()}` ? undefined : { stated };
}

/**
 * `codec` of a spec, refusing a defaultRole.name that is not the realm's default role, before the spellings
 * table drops it (the schema's rule says the same).
 */
export function checkingDefaultRoleName<A>(codec: t.Type<A, unknown>): t.Type<A, unknown> {
  return new t.Type<A, unknown>(
    codec.name,
    (u): u is A => codec.is(u) && wrongDefaultRoleName(u) === undefined,
    (u, c) => {
      const wrong = wrongDefaultRoleName(u);
      if (wrong === undefined) return codec.validate(u, c);
      const at = ['defaultRole', 'name'].map((key) => ({ key, type: t.unknown, actual: key }));
      return t.failure(wrong.stated, [...c, ...at], DEFAULT_ROLE_NAME_MESSAGE);
    },
    codec.encode,
  );
}
