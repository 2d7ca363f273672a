// The `scopeMappings` of a KeycloakRealm spec, each field declared once for the codec and the CRD schema.
import * as t from 'io-ts';
import { fields as f, uniqueList } from '@keyward/kernel/model';
import type { ScopeMappingTarget } from '../../apis/keycloak/scope-mappings.js';
import type { StatedRoles } from '../../tracked-roles.js';
import { BUILT_IN_CLIENT_SCOPES, BUILT_IN_SCOPE_MESSAGE, isBuiltInClientScope } from '../built-ins.js';
import { roleNames } from '../groups/spec.js';

export const MAX_SCOPE_MAPPINGS = 100;
export const ONE_TARGET_MESSAGE = 'give either clientScope or client';

/** The roles a client scope or client may put in tokens, as the spec states them. */
export type ScopeMappingSpec = ScopeMappingTarget & StatedRoles;

/** The fields of a scope mapping, as read before its target is known to be one. */
interface MappingFields {
  clientScope?: string;
  client?: string;
  realmRoles?: string[];
  clientRoles?: Record<string, string[]>;
}

/** `fields`, read as one target, by clientScope or by client, never both. */
function oneTarget<O>(fields: t.Type<MappingFields, O>): t.Type<ScopeMappingSpec> {
  const targets = (value: MappingFields): boolean => (value.clientScope === undefined) !== (value.client === undefined);
  return new t.Type<ScopeMappingSpec>(
    'an object',
    (u): u is ScopeMappingSpec => fields.is(u) && targets(u),
    (u, c) => {
      const decoded = fields.validate(u, c);
      if (decoded._tag === 'Left') return decoded;
      return targets(decoded.right) ? t.success(decoded.right as ScopeMappingSpec) : t.failure(u, c, ONE_TARGET_MESSAGE);
    },
    t.identity,
  );
}

const ScopeMapping = f.object({
  clientScope: f.nonEmpty().where({ rule: `!(self in ${f.celList(BUILT_IN_CLIENT_SCOPES)})`, message: BUILT_IN_SCOPE_MESSAGE }, (name) => !isBuiltInClientScope(name))
    .describe('A client scope, by name; not one of Keycloak\'s built-in scopes.'),
  client: f.nonEmpty().describe('A client, by clientId.'),
  realmRoles: roleNames.describe('Realm roles the target may put in tokens, by name; left out, not touched.'),
  clientRoles: f.record(roleNames).describe('Client roles the target may put in tokens, by the clientId of their client; left out, not touched.'),
}).rule({ rule: 'has(self.clientScope) != has(self.client)', message: ONE_TARGET_MESSAGE }, oneTarget);

export const targetKey = (mapping: ScopeMappingTarget): string => ('clientScope' in mapping ? `clientScope ${mapping.clientScope}` : `client ${mapping.client}`);

/** Each client scope and client at most once. */
export const ScopeMappings = f.list(ScopeMapping, { maxItems: MAX_SCOPE_MAPPINGS })
  .codecOnly((codec) => uniqueList(codec, targetKey))
  .says(`a list of at most ${String(MAX_SCOPE_MAPPINGS)} scope mappings`)
  .describe('Roles a client scope or a client may put in tokens. What an entry listed before and lists no more is removed; roles mapped by hand stay.');
export const ScopeMappingsCodec = ScopeMappings.codec;
export const scopeMappingsCrdSchema = ScopeMappings.schema;
