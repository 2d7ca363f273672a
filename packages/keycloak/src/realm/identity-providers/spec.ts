import * as t from 'io-ts';
import { fields as f, patternedText } from '@keyward/kernel/model';
import { pruneRuleDescription } from '../../prune.js';
import { REALM_SECRET_LABEL, REALM_SECRET_LABEL_VALUE } from '../secret-opt-in.js';

// A realm's identity providers as a spec lists them, each field declared once for the codec and the CRD schema.

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

const FLAG_DESCRIPTIONS: Readonly<Record<(typeof IDP_FLAGS)[number], string>> = {
  enabled: 'Whether users can log in through the provider.',
  trustEmail: 'Whether email addresses from the provider count as verified.',
  storeToken: 'Whether the provider\'s tokens are stored after a login.',
  addReadTokenRoleOnCreate: 'Whether users the provider creates get the broker\'s read-token role, to read the stored tokens.',
  linkOnly: 'Whether the provider only links accounts and cannot be used to log in.',
  hideOnLogin: 'Whether the login page leaves out the provider\'s button.',
};

const TEXT_DESCRIPTIONS: Readonly<Record<(typeof IDP_TEXTS)[number], string>> = {
  displayName: 'The name the login page shows for the provider.',
  firstBrokerLoginFlowAlias: 'The flow run at a user\'s first login through the provider, by alias.',
  postBrokerLoginFlowAlias: 'A flow run after every login through the provider, by alias.',
};

const name = f.text(IDP_TEXT_MAX_LENGTH).says(`a string of 1 to ${String(IDP_TEXT_MAX_LENGTH)} characters (any)`);

const SecretKey = f.object({
  name: f.kubernetesName().describe('Name of the Secret.').required(),
  key: f.nonEmpty().describe('Key of the value in that Secret.').required(),
});

const configSecretKey = patternedText(IDP_TEXT_MAX_LENGTH, CONFIG_SECRET_KEY_PATTERN, 'letters, digits, _ and -');
const isConfigSecretKey = (key: string): boolean => configSecretKey.is(key);

/** `secrets`, with each key checked (and named in the error) as the schema's rule does. */
function withConfigKeys<A extends Readonly<Record<string, unknown>>, O>(secrets: t.Type<A, O>): t.Type<A, O> {
  const badKey = (value: A): string | undefined => Object.keys(value).find((key) => !isConfigSecretKey(key));
  return new t.Type<A, O>(
    'ConfigSecrets',
    (u): u is A => secrets.is(u) && badKey(u) === undefined,
    (u, c) => {
      const decoded = secrets.validate(u, c);
      if (decoded._tag === 'Left') return decoded;
      const bad = badKey(decoded.right);
      return bad === undefined ? decoded : t.failure(bad, [...c, { key: bad, type: configSecretKey, actual: bad }]);
    },
    secrets.encode,
  );
}

const ConfigSecrets = f.record(SecretKey)
  .rule({ rule: `self.all(key, key.matches('${CONFIG_SECRET_KEY_PATTERN}'))`, message: 'config keys read from Secrets are letters, digits, _ and -' }, withConfigKeys)
  // Bounds what the rule costs the API server; the codec reads only what the server stored.
  .schemaOnly({ maxProperties: MAX_CONFIG_SECRETS })
  .describe(`Config values read from Secrets in this namespace when they are sent, by config key (clientSecret, ...); each Secret must carry the label ${REALM_SECRET_LABEL}: "${REALM_SECRET_LABEL_VALUE}".`);

const IdpMapper = f.object({
  name: name.describe('The mapper\'s name, its key in this list.').required(),
  identityProviderMapper: name.describe('The mapper type, e.g. hardcoded-attribute-idp-mapper.').required(),
  config: f.stringMap().describe('The mapper\'s settings, compared on the keys given; Keycloak\'s other keys stay.'),
});

const IdentityProvider = f.object({
  alias: f.patterned(IDP_TEXT_MAX_LENGTH, IDP_ALIAS_PATTERN, 'letters, digits, ., _ and -').describe('The provider\'s alias, unique in the realm (part of its redirect URI).').required(),
  providerId: name.describe('oidc, keycloak-oidc, saml, github, google, ...').required(),
  ...f.each(FLAG_DESCRIPTIONS, f.boolean()),
  ...f.each(TEXT_DESCRIPTIONS, f.string()),
  config: f.stringMap().describe('Keycloak\'s config of the provider (clientId, authorizationUrl, ...); keys also in configSecrets are taken from there.'),
  configSecrets: ConfigSecrets,
  mappers: f.listMap('name', IdpMapper, { maxItems: MAX_IDP_MAPPERS }).describe(`The provider's mappers, by name; left out, not touched. ${pruneRuleDescription('identityProviders')}`),
});

export const IdentityProviders = f.listMap('alias', IdentityProvider, { maxItems: MAX_IDENTITY_PROVIDERS })
  .describe(`Identity providers of the realm, by alias; those made from this list carry a marker in their config. ${pruneRuleDescription('identityProviders')}`);
export const IdentityProvidersCodec = IdentityProviders.codec;
export const identityProvidersSchema = IdentityProviders.schema;

export type IdentityProviderSpec = t.TypeOf<typeof IdentityProvider.codec>;
export type IdpMapperSpec = t.TypeOf<typeof IdpMapper.codec>;
