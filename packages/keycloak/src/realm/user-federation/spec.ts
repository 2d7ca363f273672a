import type * as t from 'io-ts';
import { fields as f } from '@keyward/kernel/model';
import { pruneRuleDescription } from '../../prune.js';
import { REALM_SECRET_LABEL, REALM_SECRET_LABEL_VALUE } from '../secret-opt-in.js';

// A realm's user federation providers (LDAP and Kerberos) as a spec lists them, each field declared once for
// the codec and the CRD schema. Keycloak keeps each provider as a component whose config is a map of string
// lists; the typed fields are the ones people set most, each the config key named in FEDERATION_KEYS, and
// `config` carries any other key.

export const FEDERATION_PROVIDERS = ['ldap', 'kerberos'] as const;
export const EDIT_MODES = ['READ_ONLY', 'WRITABLE', 'UNSYNCED'] as const;
export const TRUSTSTORE_USES = ['always', 'ldapsOnly', 'never'] as const;
export const LDAP_AUTH_TYPES = ['none', 'simple'] as const;
export const LDAP_VENDORS = ['ad', 'rhds', 'tivoli', 'edirectory', 'other'] as const;
/** Keycloak's component names and provider ids hold 255 characters. */
export const FEDERATION_TEXT_MAX_LENGTH = 255;
export const MAX_FEDERATION_PROVIDERS = 20;
export const MAX_FEDERATION_MAPPERS = 100;

const name = f.text(FEDERATION_TEXT_MAX_LENGTH);
const period = f.integerAtLeast(-1, 'an integer of -1 (off) or more');
/**
 * Config values are strings: Keycloak keeps each as a one-item list (the keys of LDAP and Kerberos providers
 * and their mappers hold one value each; the object classes, a list, have a typed field).
 */
const config = f.stringMap();

const milliseconds = f.integerAtLeast(0, 'an integer of 0 or more');

/** A key of a Secret in the realm's namespace, which must carry the realm's Secret opt-in label. */
const secretKey = (holds: string) => f.object({
  name: f.kubernetesName().describe('Name of the Secret.').required(),
  key: f.nonEmpty().describe(`Key of the ${holds} in that Secret.`).required(),
});
const optInNote = `the Secret must carry the label ${REALM_SECRET_LABEL}: "${REALM_SECRET_LABEL_VALUE}"`;

const Connection = f.object({
  url: f.string().describe('The directory\'s URL (connectionUrl), e.g. ldaps://ldap.example.com.'),
  startTls: f.boolean().describe('Whether the connection is encrypted with StartTLS (startTls).'),
  useTruststoreSpi: f.enumOf(TRUSTSTORE_USES, 'always | ldapsOnly | never').describe('Whether Keycloak checks the directory\'s certificate with its truststore (useTruststoreSpi).'),
  pooling: f.boolean().describe('Whether Keycloak pools its connections to the directory (connectionPooling).'),
  timeoutMilliseconds: milliseconds.describe('How long Keycloak waits for a connection, in milliseconds (connectionTimeout).'),
  readTimeoutMilliseconds: milliseconds.describe('How long Keycloak waits for an answer, in milliseconds (readTimeout).'),
  vendor: f.enumOf(LDAP_VENDORS, 'ad | rhds | tivoli | edirectory | other').describe('The directory\'s vendor (vendor): ad, rhds, tivoli, edirectory or other.'),
  authType: f.enumOf(LDAP_AUTH_TYPES, 'none | simple').describe('How Keycloak binds (authType): none (anonymously) or simple (bindDn and its password).'),
  bindDn: f.string().describe('The DN Keycloak binds as (bindDn).'),
  bindCredentialSecret: secretKey('password')
    .describe(`The bind password (bindCredential), read from a Secret in this namespace when it is sent; ${optInNote}.`),
  usersDn: f.string().describe('The DN users are found under (usersDn).'),
});

const Attributes = f.object({
  username: f.string().describe('The LDAP attribute holding the username (usernameLDAPAttribute), e.g. uid.'),
  rdn: f.string().describe('The LDAP attribute of a user\'s RDN (rdnLDAPAttribute).'),
  uuid: f.string().describe('The LDAP attribute that identifies a user for good (uuidLDAPAttribute), e.g. entryUUID.'),
  userObjectClasses: f.list(f.string()).describe('The object classes of users, e.g. inetOrgPerson (sent as one comma-separated value).'),
  customUserSearchFilter: f.string().describe('An LDAP filter users must also match (customUserSearchFilter), e.g. (memberOf=cn=staff,ou=groups,dc=example,dc=org).'),
  searchScope: f.integerOf([1, 2]).describe('How deep below usersDn users are searched (searchScope): 1, one level; 2, the whole subtree.'),
  pagination: f.boolean().describe('Whether searches ask the directory for results page by page (pagination).'),
});

const Sync = f.object({
  importEnabled: f.boolean().describe('Whether users are imported into Keycloak\'s database.'),
  fullSyncPeriod: period.describe('Seconds between full syncs of all users; -1 turns them off.'),
  changedSyncPeriod: period.describe('Seconds between syncs of the users changed since the last one; -1 turns them off.'),
  batchSize: f.integerAtLeast(1, 'an integer of 1 or more').describe('How many users a sync handles per batch (batchSizeForSync).'),
  syncRegistrations: f.boolean().describe('Whether users registered in Keycloak are created in the directory too (syncRegistrations).'),
});

const BOTH_KEYTABS = 'keyTab and keyTabSecret both give the keytab\'s path: state one of them';

const Kerberos = f.object({
  realm: f.string().describe('The Kerberos realm (kerberosRealm), e.g. EXAMPLE.COM.'),
  serverPrincipal: f.string().describe('Keycloak\'s service principal, e.g. HTTP/sso.example.com@EXAMPLE.COM.'),
  keyTab: f.string().describe('Path of the keytab file on the Keycloak server (keyTab).'),
  keyTabSecret: secretKey('keytab\'s path')
    .describe(`keyTab read from a Secret in this namespace when it is sent; ${optInNote}. Keycloak reads keyTab as the path of a file on its server, so the Secret holds that path, not the keytab itself.`),
  allowAuthentication: f.boolean().describe('LDAP: whether users may log in with Kerberos (SPNEGO) too (allowKerberosAuthentication).'),
  useForPasswordAuthentication: f.boolean().describe('LDAP: whether passwords are checked with Kerberos rather than the directory (useKerberosForPasswordAuthentication).'),
  debug: f.boolean().describe('Whether Keycloak logs its Kerberos exchanges (debug).'),
}).where({ rule: '!(has(self.keyTab) && has(self.keyTabSecret))', message: BOTH_KEYTABS }, (kerberos) => kerberos.keyTab === undefined || kerberos.keyTabSecret === undefined);

const FederationMapper = f.object({
  name: name.describe('The mapper\'s name; the name of one of Keycloak\'s default mappers (username, email, ...) configures that one.').required(),
  mapperType: name.describe('The mapper\'s provider id: user-attribute-ldap-mapper, group-ldap-mapper, ...').required(),
  config: config.describe('The mapper\'s config (ldap.attribute, user.model.attribute, ...).'),
});

const UserFederation = f.object({
  name: name.describe('The provider\'s name, unique in the realm.').required(),
  providerId: f.enumOf(FEDERATION_PROVIDERS, 'ldap | kerberos').describe('ldap or kerberos.').required(),
  enabled: f.boolean().describe('Whether Keycloak uses the provider.'),
  priority: f.integer().describe('The order in which Keycloak asks the realm\'s providers for a user; lower first.'),
  editMode: f.enumOf(EDIT_MODES, 'READ_ONLY | WRITABLE | UNSYNCED').describe('READ_ONLY, WRITABLE (changes go to the directory) or UNSYNCED (changes stay in Keycloak).'),
  trustEmail: f.boolean().describe('Whether the email addresses of the provider\'s users count as verified (trustEmail).'),
  validatePasswordPolicy: f.boolean().describe('Whether a password set through Keycloak must meet the realm\'s password policy (validatePasswordPolicy).'),
  connection: Connection.describe('LDAP: where the directory is and how Keycloak binds to it.'),
  attributes: Attributes.describe('LDAP: the attributes users are found by, and how they are searched.'),
  sync: Sync.describe('LDAP: whether users are imported, and how often they are synchronised.'),
  kerberos: Kerberos.describe('Kerberos, for a kerberos provider or an LDAP one: the keyTab is a path on the Keycloak server, which reads the file itself.'),
  config: config.describe('Any other config key of the provider (cachePolicy, krbPrincipalAttribute, ...); the fields above win over the same key here.'),
  mappers: f.listMap('name', FederationMapper, { maxItems: MAX_FEDERATION_MAPPERS })
    .describe('LDAP mappers, by name; Keycloak\'s default ones are never removed, and unlisted ones Keyward made are removed while the list names some.'),
});

export const UserFederationList = f.listMap('name', UserFederation, { maxItems: MAX_FEDERATION_PROVIDERS })
  .describe(`User federation providers (LDAP, Kerberos), by name; those made from this list carry a marker (their component's subType). ${pruneRuleDescription('userFederation')}`);

export const UserFederationListCodec = UserFederationList.codec;

export type FederationConfig = t.TypeOf<typeof config.codec>;
export type UserFederationSpec = t.TypeOf<typeof UserFederation.codec>;
export type FederationSecretKey = t.TypeOf<ReturnType<typeof secretKey>['codec']>;
export type FederationMapperSpec = t.TypeOf<typeof FederationMapper.codec>;
