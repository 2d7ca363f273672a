import { DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN } from '@keyward/kernel/model';
import { pruneRuleDescription } from '../../prune.js';
import { REALM_SECRET_LABEL, REALM_SECRET_LABEL_VALUE } from '../secret-opt-in.js';
import { EDIT_MODES, FEDERATION_PROVIDERS, FEDERATION_TEXT_MAX_LENGTH, MAX_FEDERATION_MAPPERS, MAX_FEDERATION_PROVIDERS } from './spec.js';

// The schema of a realm's user federation providers: the same rules as the codec in user-federation-spec.ts.

const name = { type: 'string', minLength: 1, maxLength: FEDERATION_TEXT_MAX_LENGTH };
const text = { type: 'string' };
const period = { type: 'integer', minimum: -1 };
/**
 * Config values are strings: Keycloak keeps each as a one-item list (the keys of LDAP and Kerberos providers
 * and their mappers hold one value each; the object classes, a list, have a typed field).
 */
const config = { type: 'object', additionalProperties: { type: 'string' } };

const mapper = {
  type: 'object',
  required: ['name', 'mapperType'],
  properties: {
    name: { ...name, description: 'The mapper\'s name; the name of one of Keycloak\'s default mappers (username, email, ...) configures that one.' },
    mapperType: { ...name, description: 'The mapper\'s provider id: user-attribute-ldap-mapper, group-ldap-mapper, ...' },
    config: { ...config, description: 'The mapper\'s config (ldap.attribute, user.model.attribute, ...).' },
  },
};

const provider = {
  type: 'object',
  required: ['name', 'providerId'],
  properties: {
    name: { ...name, description: 'The provider\'s name, unique in the realm.' },
    providerId: { type: 'string', enum: [...FEDERATION_PROVIDERS], description: 'ldap or kerberos.' },
    enabled: { type: 'boolean', description: 'Whether Keycloak uses the provider.' },
    priority: { type: 'integer', description: 'The order in which Keycloak asks the realm\'s providers for a user; lower first.' },
    editMode: { type: 'string', enum: [...EDIT_MODES], description: 'READ_ONLY, WRITABLE (changes go to the directory) or UNSYNCED (changes stay in Keycloak).' },
    connection: {
      type: 'object',
      description: 'LDAP: where the directory is and how Keycloak binds to it.',
      properties: {
        url: { ...text, description: 'The directory\'s URL (connectionUrl), e.g. ldaps://ldap.example.com.' },
        bindDn: { ...text, description: 'The DN Keycloak binds as (bindDn).' },
        bindCredentialSecret: {
          type: 'object',
          required: ['name', 'key'],
          description: `The bind password, read from a Secret in this namespace when it is sent; the Secret must carry the label ${REALM_SECRET_LABEL}: "${REALM_SECRET_LABEL_VALUE}".`,
          properties: {
            name: { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN, description: 'Name of the Secret.' },
            key: { type: 'string', minLength: 1, description: 'Key of the password in that Secret.' },
          },
        },
        usersDn: { ...text, description: 'The DN users are found under (usersDn).' },
      },
    },
    attributes: {
      type: 'object',
      description: 'LDAP: the attributes users are found by.',
      properties: {
        username: { ...text, description: 'The LDAP attribute holding the username (usernameLDAPAttribute), e.g. uid.' },
        rdn: { ...text, description: 'The LDAP attribute of a user\'s RDN (rdnLDAPAttribute).' },
        uuid: { ...text, description: 'The LDAP attribute that identifies a user for good (uuidLDAPAttribute), e.g. entryUUID.' },
        userObjectClasses: { type: 'array', items: text, description: 'The object classes of users, e.g. inetOrgPerson (sent as one comma-separated value).' },
      },
    },
    sync: {
      type: 'object',
      description: 'LDAP: whether users are imported, and how often they are synchronised.',
      properties: {
        importEnabled: { type: 'boolean', description: 'Whether users are imported into Keycloak\'s database.' },
        fullSyncPeriod: { ...period, description: 'Seconds between full syncs of all users; -1 turns them off.' },
        changedSyncPeriod: { ...period, description: 'Seconds between syncs of the users changed since the last one; -1 turns them off.' },
        batchSize: { type: 'integer', minimum: 1, description: 'How many users a sync handles per batch (batchSizeForSync).' },
      },
    },
    kerberos: {
      type: 'object',
      description: 'Kerberos: the keyTab is a path on the Keycloak server, which reads the file itself.',
      properties: {
        realm: { ...text, description: 'The Kerberos realm (kerberosRealm), e.g. EXAMPLE.COM.' },
        serverPrincipal: { ...text, description: 'Keycloak\'s service principal, e.g. HTTP/sso.example.com@EXAMPLE.COM.' },
        keyTab: { ...text, description: 'Path of the keytab file on the Keycloak server.' },
      },
    },
    config: { ...config, description: 'Any other config key of the provider (vendor, authType, searchScope, ...); the fields above win over the same key here.' },
    mappers: {
      type: 'array',
      maxItems: MAX_FEDERATION_MAPPERS,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      description: 'LDAP mappers, by name; Keycloak\'s default ones are never removed, and unlisted ones Keyward made are removed while the list names some.',
      items: mapper,
    },
  },
};

export const userFederationSchema = {
  type: 'array',
  maxItems: MAX_FEDERATION_PROVIDERS,
  description: `User federation providers (LDAP, Kerberos), by name; those made from this list carry a marker (their component's subType). ${pruneRuleDescription('userFederation')}`,
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
      name: { ...text, description: 'The provider\'s name in the spec.' },
      providerId: { ...text, description: 'ldap or kerberos.' },
      id: { ...text, description: 'Keycloak\'s id of the provider, once read.' },
      connectionTestPassed: { type: 'boolean', description: 'LDAP: whether Keycloak\'s connection test bound to the directory with the stored credential.' },
      connectionTestError: { ...text, description: 'Why the connection test failed, as Keycloak says it.' },
    },
  },
};
