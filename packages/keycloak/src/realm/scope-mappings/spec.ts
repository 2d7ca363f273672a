// The `scopeMappings` of a KeycloakRealm spec: the codec, and the CRD schema stating the same rules.
import * as t from 'io-ts';
import { minLengthString, uniqueList } from '@keyward/kernel/model';
import type { ScopeMappingTarget } from '../../apis/keycloak/scope-mappings.js';
import type { StatedRoles } from '../../tracked-roles.js';
import { BUILT_IN_CLIENT_SCOPES, BUILT_IN_SCOPE_MESSAGE, isBuiltInClientScope } from '../built-ins.js';
import { StatedRolesCodec } from '../groups/spec.js';

export const MAX_SCOPE_MAPPINGS = 100;
export const ONE_TARGET_MESSAGE = 'give either clientScope or client';

/** The roles a client scope or client may put in tokens, as the spec states them. */
export type ScopeMappingSpec = ScopeMappingTarget & StatedRoles;

const targetName = minLengthString(1);
const clientScopeName = new t.Type<string>(
  targetName.name,
  (u): u is string => targetName.is(u) && !isBuiltInClientScope(u),
  (u, c) => (typeof u === 'string' && isBuiltInClientScope(u) ? t.failure(u, c, BUILT_IN_SCOPE_MESSAGE) : targetName.validate(u, c)),
  t.identity,
);

const Fields = t.intersection([t.partial({ clientScope: clientScopeName, client: targetName }), StatedRolesCodec]);

/** One target, by clientScope or by client, never both. */
const ScopeMappingCodec = new t.Type<ScopeMappingSpec>(
  'ScopeMapping',
  (u): u is ScopeMappingSpec => Fields.is(u) && ('clientScope' in u) !== ('client' in u),
  (u, c) => {
    const decoded = Fields.validate(u, c);
    if (decoded._tag === 'Left') return decoded;
    const value = decoded.right;
    return (value.clientScope === undefined) === (value.client === undefined) ? t.failure(u, c, ONE_TARGET_MESSAGE) : t.success(value as ScopeMappingSpec);
  },
  t.identity,
);

export const targetKey = (mapping: ScopeMappingTarget): string => ('clientScope' in mapping ? `clientScope ${mapping.clientScope}` : `client ${mapping.client}`);

/** Each client scope and client at most once. */
export const ScopeMappingsCodec = new t.Type<ScopeMappingSpec[]>(
  `a list of at most ${String(MAX_SCOPE_MAPPINGS)} scope mappings`,
  (u): u is ScopeMappingSpec[] => Array.isArray(u) && u.length <= MAX_SCOPE_MAPPINGS && u.every((item) => ScopeMappingCodec.is(item)),
  (u, c) => {
    const decoded = uniqueList(t.array(ScopeMappingCodec), targetKey).validate(u, c);
    if (decoded._tag === 'Left' || decoded.right.length <= MAX_SCOPE_MAPPINGS) return decoded;
    return t.failure(u, c, `must have at most ${String(MAX_SCOPE_MAPPINGS)} items`);
  },
  t.identity,
);

const nameSet = { type: 'array', items: { type: 'string', minLength: 1 }, 'x-kubernetes-list-type': 'set' };
const celList = (names: readonly string[]): string => `[${names.map((n) => `'${n}'`).join(', ')}]`;

export const scopeMappingsCrdSchema = {
  type: 'array',
  maxItems: MAX_SCOPE_MAPPINGS,
  description: 'Roles a client scope or a client may put in tokens. What an entry listed before and lists no more is removed; roles mapped by hand stay.',
  items: {
    type: 'object',
    'x-kubernetes-validations': [{ rule: 'has(self.clientScope) != has(self.client)', message: ONE_TARGET_MESSAGE }],
    properties: {
      clientScope: { type: 'string', minLength: 1, description: 'A client scope, by name; not one of Keycloak\'s built-in scopes.', 'x-kubernetes-validations': [{ rule: `!(self in ${celList(BUILT_IN_CLIENT_SCOPES)})`, message: BUILT_IN_SCOPE_MESSAGE }] },
      client: { type: 'string', minLength: 1, description: 'A client, by clientId.' },
      realmRoles: { ...nameSet, description: 'Realm roles the target may put in tokens, by name; left out, not touched.' },
      clientRoles: { type: 'object', description: 'Client roles the target may put in tokens, by the clientId of their client; left out, not touched.', additionalProperties: nameSet },
    },
  },
};
