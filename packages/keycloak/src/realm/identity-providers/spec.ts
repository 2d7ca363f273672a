import * as t from 'io-ts';
import { atMost, kubernetesName, minLengthString, patternedText, uniqueList } from '@keyward/kernel/model';

// A realm's identity providers as a spec lists them: the codec here, the same rules as a schema in
// identity-provider-crd.ts.

/** Keycloak's columns for aliases, provider ids and names hold 255 characters. */
export const IDP_TEXT_MAX_LENGTH = 255;
/** An alias is a path segment of the broker endpoints (/realms/{realm}/broker/{alias}/endpoint). */
export const IDP_ALIAS_PATTERN = '^[A-Za-z0-9._-]+$';
/** A config key read from a Secret: no dots, since a secret field is addressed by a dotted path. */
export const CONFIG_SECRET_KEY_PATTERN = '^[A-Za-z0-9_-]+$';
/** Bounds what the schema's rules on list items and keys cost the API server to check. */
export const MAX_CONFIG_SECRETS = 16;
export const MAX_IDENTITY_PROVIDERS = 100;
export const MAX_IDP_MAPPERS = 100;

/** Switches of an identity provider: each is the representation's field of the same name. */
export const IDP_FLAGS = ['enabled', 'trustEmail', 'storeToken', 'addReadTokenRoleOnCreate', 'linkOnly', 'hideOnLogin'] as const;
/** Texts of an identity provider: each is the representation's field of the same name. */
export const IDP_TEXTS = ['displayName', 'firstBrokerLoginFlowAlias', 'postBrokerLoginFlowAlias'] as const;


const bounded = (max: number): t.Type<string> => patternedText(max, '^[\\s\\S]+$', 'any');


const name = bounded(IDP_TEXT_MAX_LENGTH);
const SecretKeyCodec = t.type({ name: kubernetesName(), key: minLengthString(1) });
const configSecretKey = patternedText(IDP_TEXT_MAX_LENGTH, CONFIG_SECRET_KEY_PATTERN, 'letters, digits, _ and -');
const isConfigSecretKey = (key: string): boolean => configSecretKey.is(key);
const SecretKeysCodec = t.record(t.string, SecretKeyCodec);
type ConfigSecrets = t.TypeOf<typeof SecretKeysCodec>;

/** Config keys read from Secrets, each key checked (and named in the error) as the schema's rule does. */
const ConfigSecretsCodec = new t.Type<ConfigSecrets, t.OutputOf<typeof SecretKeysCodec>>(
  'ConfigSecrets',
  (u): u is ConfigSecrets => SecretKeysCodec.is(u) && Object.keys(u).every(isConfigSecretKey),
  (u, c) => {
    const decoded = SecretKeysCodec.validate(u, c);
    if (decoded._tag === 'Left') return decoded;
    const bad = Object.keys(decoded.right).find((key) => !isConfigSecretKey(key));
    return bad === undefined ? decoded : t.failure(bad, [...c, { key: bad, type: configSecretKey, actual: bad }]);
  },
  SecretKeysCodec.encode,
);

const IdpMapperCodec = t.intersection([
  t.type({ name, identityProviderMapper: name }),
  t.partial({ config: t.record(t.string, t.string) }),
]);

const IdentityProviderCodec = t.intersection([
  t.type({ alias: patternedText(IDP_TEXT_MAX_LENGTH, IDP_ALIAS_PATTERN, 'letters, digits, ., _ and -'), providerId: name }),
  t.partial({
    ...Object.fromEntries(IDP_FLAGS.map((flag) => [flag, t.boolean])) as Record<(typeof IDP_FLAGS)[number], t.BooleanC>,
    ...Object.fromEntries(IDP_TEXTS.map((field) => [field, t.string])) as Record<(typeof IDP_TEXTS)[number], t.StringC>,
    config: t.record(t.string, t.string),
    configSecrets: ConfigSecretsCodec,
    mappers: atMost(uniqueList(t.array(IdpMapperCodec), (mapper) => mapper.name), MAX_IDP_MAPPERS),
  }),
]);

export const IdentityProvidersCodec = atMost(uniqueList(t.array(IdentityProviderCodec), (idp) => idp.alias), MAX_IDENTITY_PROVIDERS);

export type IdentityProviderSpec = t.TypeOf<typeof IdentityProviderCodec>;
export type IdpMapperSpec = t.TypeOf<typeof IdpMapperCodec>;
