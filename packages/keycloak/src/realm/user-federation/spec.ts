import * as t from 'io-ts';
import { atMost, boundedText, kubernetesName, minLengthString, uniqueList } from '@keyward/kernel/model';

// A realm's user federation providers (LDAP and Kerberos) as a spec lists them: the codec here, the same rules
// as a schema in user-federation-crd.ts. Keycloak keeps each provider as a component whose config is a map of
// string lists; the typed fields are the ones people set most, each the config key named in FEDERATION_KEYS,
// and `config` carries any other key.

export const FEDERATION_PROVIDERS = ['ldap', 'kerberos'] as const;
export const EDIT_MODES = ['READ_ONLY', 'WRITABLE', 'UNSYNCED'] as const;
/** Keycloak's component names and provider ids hold 255 characters. */
export const FEDERATION_TEXT_MAX_LENGTH = 255;
export const MAX_FEDERATION_PROVIDERS = 20;
export const MAX_FEDERATION_MAPPERS = 100;

/** Config values are strings; Keycloak keeps each as a one-item list. */
const ConfigCodec = t.record(t.string, t.string);
export type FederationConfig = t.TypeOf<typeof ConfigCodec>;



const name = boundedText(FEDERATION_TEXT_MAX_LENGTH);
const oneOf = <T extends string>(values: readonly T[], label: string): t.Type<T> =>
  t.keyof(Object.fromEntries(values.map((value) => [value, null])) as Record<T, null>, label);
const nonNegative = t.refinement(t.Int, (n) => n >= -1, 'an integer of -1 (off) or more');

const ConnectionCodec = t.partial({
  url: t.string,
  bindDn: t.string,
  bindCredentialSecret: t.type({ name: kubernetesName(), key: minLengthString(1) }),
  usersDn: t.string,
});

const AttributesCodec = t.partial({
  username: t.string,
  rdn: t.string,
  uuid: t.string,
  userObjectClasses: t.array(t.string),
});

const SyncCodec = t.partial({
  importEnabled: t.boolean,
  fullSyncPeriod: nonNegative,
  changedSyncPeriod: nonNegative,
  batchSize: t.refinement(t.Int, (n) => n >= 1, 'an integer of 1 or more'),
});

const KerberosCodec = t.partial({
  realm: t.string,
  serverPrincipal: t.string,
  keyTab: t.string,
});

const FederationMapperCodec = t.intersection([
  t.type({ name, mapperType: name }),
  t.partial({ config: ConfigCodec }),
]);

const UserFederationCodec = t.intersection([
  t.type({ name, providerId: oneOf(FEDERATION_PROVIDERS, 'ldap | kerberos') }),
  t.partial({
    enabled: t.boolean,
    priority: t.Int,
    editMode: oneOf(EDIT_MODES, 'READ_ONLY | WRITABLE | UNSYNCED'),
    connection: ConnectionCodec,
    attributes: AttributesCodec,
    sync: SyncCodec,
    kerberos: KerberosCodec,
    config: ConfigCodec,
    mappers: atMost(uniqueList(t.array(FederationMapperCodec), (mapper) => mapper.name), MAX_FEDERATION_MAPPERS),
  }),
]);

export const UserFederationListCodec = atMost(uniqueList(t.array(UserFederationCodec), (provider) => provider.name), MAX_FEDERATION_PROVIDERS);

export type UserFederationSpec = t.TypeOf<typeof UserFederationCodec>;
export type FederationMapperSpec = t.TypeOf<typeof FederationMapperCodec>;
