import { DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN } from '@keyward/vocabulary';
import { REALM_SECRET_LABEL, REALM_SECRET_LABEL_VALUE } from '../secret-opt-in.js';
import { EDIT_MODES, FEDERATION_PROVIDERS, FEDERATION_TEXT_MAX_LENGTH, MAX_FEDERATION_MAPPERS, MAX_FEDERATION_PROVIDERS } from './spec.js';

// The schema of a realm's user federation providers: the same rules as the codec in user-federation-spec.ts.

const name = { type: 'string', minLength: 1, maxLength: FEDERATION_TEXT_MAX_LENGTH };
const text = { type: 'string' };
const period = { type: 'integer', minimum: -1, description: 'Seconds; -1 turns it off.' };
/**
 * Config values are strings: Keycloak keeps each as a one-item list (the keys of LDAP and Kerberos providers
 * and their mappers hold one value each; the object classes, a list, have a typed field).
 */
const config = { type: 'object', additionalProperties: { type: 'string' } };

const mapper = {
  type: 'object',
  required: ['name', 'mapperType'],
  properties: {
    name,
    mapperType: { ...name, description: 'The mapper\'s provider id: user-attribute-ldap-mapper, group-ldap-mapper, ...' },
    config: { ...config, description: 'The mapper\'s config (ldap.attribute, user.model.attribute, ...).' },
  },
};

const provider = {
  type: 'object',
  required: ['name', 'providerId'],
  properties: {
    name,
    providerId: { type: 'string', enum: [...FEDERATION_PROVIDERS] },
    enabled: { type: 'boolean' },
    priority: { type: 'integer' },
    editMode: { type: 'string', enum: [...EDIT_MODES] },
    connection: {
      type: 'object',
      description: 'LDAP: where the directory is and how Keycloak binds to it.',
      properties: {
        url: { ...text, description: 'connectionUrl, e.g. ldaps://ldap.example.com' },
        bindDn: text,
        bindCredentialSecret: {
          type: 'object',
          required: ['name', 'key'],
          description: `The bind password, read from a Secret in this namespace when it is sent; the Secret must carry the label ${REALM_SECRET_LABEL}: "${REALM_SECRET_LABEL_VALUE}".`,
          properties: { name: { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN }, key: { type: 'string', minLength: 1 } },
        },
        usersDn: text,
      },
    },
    attributes: {
      type: 'object',
      description: 'LDAP: the attributes users are found by.',
      properties: { username: text, rdn: text, uuid: text, userObjectClasses: { type: 'array', items: text } },
    },
    sync: {
      type: 'object',
      properties: {
        importEnabled: { type: 'boolean' },
        fullSyncPeriod: period,
        changedSyncPeriod: period,
        batchSize: { type: 'integer', minimum: 1 },
      },
    },
    kerberos: {
      type: 'object',
      description: 'Kerberos: the keyTab is a path on the Keycloak server, which reads the file itself.',
      properties: { realm: text, serverPrincipal: text, keyTab: text },
    },
    config: { ...config, description: 'Any other config key of the provider (vendor, authType, searchScope, ...); the fields above win over the same key here.' },
    mappers: { type: 'array', maxItems: MAX_FEDERATION_MAPPERS, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: mapper },
  },
};

export const userFederationSchema = {
  type: 'array',
  maxItems: MAX_FEDERATION_PROVIDERS,
  description: 'User federation providers (LDAP, Kerberos), by name. Those made from this list carry a marker (their component\'s subType); only those are removed when the list stops naming them.',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['name'],
  items: provider,
};

export const userFederationStatusSchema = {
  type: 'array',
  description: 'One entry per user federation provider the spec lists, with Keycloak\'s id and connection test once read.',
  items: {
    type: 'object',
    properties: {
      name: text,
      providerId: text,
      id: text,
      connectionTestPassed: { type: 'boolean', description: 'LDAP: whether Keycloak\'s connection test bound to the directory with the stored credential.' },
      connectionTestError: { ...text, description: 'Why the connection test failed, as Keycloak says it.' },
    },
  },
};
