import { DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN } from '@keyward/kernel/model';
import {
  CONFIG_SECRET_KEY_PATTERN,
  IDP_ALIAS_PATTERN,
  IDP_FLAGS,
  IDP_TEXTS,
  IDP_TEXT_MAX_LENGTH,
  MAX_CONFIG_SECRETS,
  MAX_IDENTITY_PROVIDERS,
  MAX_IDP_MAPPERS,
} from './spec.js';
import { REALM_SECRET_LABEL, REALM_SECRET_LABEL_VALUE } from '../secret-opt-in.js';
import { listMapOf } from '../../list-schema.js';
import { pruneRuleDescription } from '../../prune.js';

// The schema of a realm's identity providers: the same rules as the codec in identity-provider-spec.ts.

const name = { type: 'string', minLength: 1, maxLength: IDP_TEXT_MAX_LENGTH };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const fromKeys = <K extends string>(keys: readonly K[], descriptions: Readonly<Record<K, string>>, schema: object): Record<string, object> =>
  Object.fromEntries(keys.map((key) => [key, { ...schema, description: descriptions[key] }]));

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

const mapper = {
  type: 'object',
  required: ['name', 'identityProviderMapper'],
  properties: {
    name: { ...name, description: 'The mapper\'s name, its key in this list.' },
    identityProviderMapper: { ...name, description: 'The mapper type, e.g. hardcoded-attribute-idp-mapper.' },
    config: { ...stringMap, description: 'The mapper\'s settings, compared on the keys given; Keycloak\'s other keys stay.' },
  },
};

const identityProvider = {
  type: 'object',
  required: ['alias', 'providerId'],
  properties: {
    alias: { ...name, pattern: IDP_ALIAS_PATTERN, description: 'The provider\'s alias, unique in the realm (part of its redirect URI).' },
    providerId: { ...name, description: 'oidc, keycloak-oidc, saml, github, google, ...' },
    ...fromKeys(IDP_FLAGS, FLAG_DESCRIPTIONS, { type: 'boolean' }),
    ...fromKeys(IDP_TEXTS, TEXT_DESCRIPTIONS, { type: 'string' }),
    config: { ...stringMap, description: 'Keycloak\'s config of the provider (clientId, authorizationUrl, ...); keys also in configSecrets are taken from there.' },
    configSecrets: {
      type: 'object',
      maxProperties: MAX_CONFIG_SECRETS,
      description: `Config values read from Secrets in this namespace when they are sent, by config key (clientSecret, ...); each Secret must carry the label ${REALM_SECRET_LABEL}: "${REALM_SECRET_LABEL_VALUE}".`,
      'x-kubernetes-validations': [{ rule: `self.all(key, key.matches('${CONFIG_SECRET_KEY_PATTERN}'))`, message: 'config keys read from Secrets are letters, digits, _ and -' }],
      additionalProperties: {
        type: 'object',
        required: ['name', 'key'],
        properties: {
          name: { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN, description: 'Name of the Secret.' },
          key: { type: 'string', minLength: 1, description: 'Key of the value in that Secret.' },
        },
      },
    },
    mappers: listMapOf('name', mapper, { maxItems: MAX_IDP_MAPPERS, description: `The provider's mappers, by name; left out, not touched. ${pruneRuleDescription('identityProviders')}` }),
  },
};

export const identityProvidersSchema = listMapOf('alias', identityProvider, {
  maxItems: MAX_IDENTITY_PROVIDERS,
  description: `Identity providers of the realm, by alias; those made from this list carry a marker in their config. ${pruneRuleDescription('identityProviders')}`,
});
