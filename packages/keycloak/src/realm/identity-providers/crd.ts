import { DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN } from '@keyward/vocabulary';
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

// The schema of a realm's identity providers: the same rules as the codec in identity-provider-spec.ts.

const name = { type: 'string', minLength: 1, maxLength: IDP_TEXT_MAX_LENGTH };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const fromKeys = (keys: readonly string[], schema: object): Record<string, object> => Object.fromEntries(keys.map((key) => [key, schema]));

const mapper = {
  type: 'object',
  required: ['name', 'identityProviderMapper'],
  properties: {
    name,
    identityProviderMapper: { ...name, description: 'The mapper type, e.g. hardcoded-attribute-idp-mapper.' },
    config: stringMap,
  },
};

const identityProvider = {
  type: 'object',
  required: ['alias', 'providerId'],
  properties: {
    alias: { ...name, pattern: IDP_ALIAS_PATTERN },
    providerId: { ...name, description: 'oidc, keycloak-oidc, saml, github, google, ...' },
    ...fromKeys(IDP_FLAGS, { type: 'boolean' }),
    ...fromKeys(IDP_TEXTS, { type: 'string' }),
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
          name: { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN },
          key: { type: 'string', minLength: 1 },
        },
      },
    },
    mappers: listMapOf('name', mapper, { maxItems: MAX_IDP_MAPPERS }),
  },
};

export const identityProvidersSchema = listMapOf('alias', identityProvider, {
  maxItems: MAX_IDENTITY_PROVIDERS,
  description: 'Identity providers of the realm, by alias. Those made from this list carry a marker in their config; only those are removed when the list stops naming them.',
});
