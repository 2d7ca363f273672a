import type { FEDERATION_PROVIDERS, FederationConfig, FederationSecretKey, UserFederationSpec } from './spec.js';

// The component config a user federation provider's spec states. Keycloak keeps every config value as a list
// of strings: a typed field becomes the config key Keycloak reads it from, and the free-form `config` gives any
// other key (a typed field wins over the same key there).

/** The config key Keycloak reads the bind password from; it shows it masked. */
export const BIND_CREDENTIAL_KEY = 'bindCredential';
/** The config key Keycloak reads the keytab's path from. */
export const KEYTAB_KEY = 'keyTab';

/** A config key whose value is read from a Secret when it is sent, never stated in the plan. */
export interface SecretConfigKey {
  readonly key: string;
  readonly secret: FederationSecretKey;
}

/**
 * The config keys of `spec` sent from a Secret: the bind password (LDAP's: a kerberos provider drops it, see
 * LDAP_ONLY_KEYS), and the keytab's path when a Secret holds it.
 */
export function secretConfigKeys(spec: UserFederationSpec): SecretConfigKey[] {
  const bind = spec.providerId === 'kerberos' ? undefined : spec.connection?.bindCredentialSecret;
  const keys: [string, FederationSecretKey | undefined][] = [[BIND_CREDENTIAL_KEY, bind], [KEYTAB_KEY, spec.kerberos?.keyTabSecret]];
  return keys.flatMap(([key, secret]) => (secret === undefined ? [] : [{ key, secret }]));
}

type Stated = Record<string, string[]>;

/**
 * The typed fields' keys that Keycloak 26.7 drops from a kerberos provider's config (measured: a create and a
 * PUT keep only the keys the provider declares). They mean something for LDAP alone; sent to a kerberos
 * provider they would never be held, and every reconcile would send them again.
 */
export const LDAP_ONLY_KEYS: readonly string[] = [
  'connectionUrl', 'startTls', 'useTruststoreSpi', 'connectionPooling', 'connectionTimeout', 'readTimeout', 'vendor', 'authType', 'bindDn', 'usersDn',
  'usernameLDAPAttribute', 'rdnLDAPAttribute', 'uuidLDAPAttribute', 'userObjectClasses', 'customUserSearchFilter', 'searchScope', 'pagination',
  'syncRegistrations', 'trustEmail', 'validatePasswordPolicy', 'allowKerberosAuthentication', 'useKerberosForPasswordAuthentication',
];

const put = (config: Stated, key: string, value: string | number | boolean | undefined): void => {
  if (value !== undefined) config[key] = [String(value)];
};

/** Free-form config as Keycloak keeps it: every value a list of one. */
export function configLists(config: FederationConfig | undefined, except: readonly string[] = []): Stated {
  return Object.fromEntries(Object.entries(config ?? {}).filter(([key]) => !except.includes(key)).map(([key, value]) => [key, [value]]));
}

/** The config the spec states, without the keys sent from a Secret (see plan.ts). */
export function desiredFederationConfig(spec: UserFederationSpec): Stated {
  const fromSecrets = secretConfigKeys(spec).map(({ key }) => key);
  const config = configLists(spec.config, [BIND_CREDENTIAL_KEY, ...fromSecrets]);
  put(config, 'enabled', spec.enabled);
  put(config, 'priority', spec.priority);
  put(config, 'editMode', spec.editMode);
  put(config, 'trustEmail', spec.trustEmail);
  put(config, 'validatePasswordPolicy', spec.validatePasswordPolicy);
  const { connection, attributes, sync, kerberos } = spec;
  put(config, 'connectionUrl', connection?.url);
  put(config, 'startTls', connection?.startTls);
  put(config, 'useTruststoreSpi', connection?.useTruststoreSpi);
  put(config, 'connectionPooling', connection?.pooling);
  put(config, 'connectionTimeout', connection?.timeoutMilliseconds);
  put(config, 'readTimeout', connection?.readTimeoutMilliseconds);
  put(config, 'vendor', connection?.vendor);
  put(config, 'authType', connection?.authType);
  put(config, 'bindDn', connection?.bindDn);
  put(config, 'usersDn', connection?.usersDn);
  put(config, 'usernameLDAPAttribute', attributes?.username);
  put(config, 'rdnLDAPAttribute', attributes?.rdn);
  put(config, 'uuidLDAPAttribute', attributes?.uuid);
  // Keycloak keeps the object classes as one comma-separated value.
  put(config, 'userObjectClasses', attributes?.userObjectClasses?.join(', '));
  put(config, 'customUserSearchFilter', attributes?.customUserSearchFilter);
  put(config, 'searchScope', attributes?.searchScope);
  put(config, 'pagination', attributes?.pagination);
  put(config, 'importEnabled', sync?.importEnabled);
  put(config, 'fullSyncPeriod', sync?.fullSyncPeriod);
  put(config, 'changedSyncPeriod', sync?.changedSyncPeriod);
  put(config, 'batchSizeForSync', sync?.batchSize);
  put(config, 'syncRegistrations', sync?.syncRegistrations);
  put(config, 'kerberosRealm', kerberos?.realm);
  put(config, 'serverPrincipal', kerberos?.serverPrincipal);
  put(config, KEYTAB_KEY, kerberos?.keyTab);
  put(config, 'allowKerberosAuthentication', kerberos?.allowAuthentication);
  put(config, 'useKerberosForPasswordAuthentication', kerberos?.useForPasswordAuthentication);
  put(config, 'debug', kerberos?.debug);
  if (spec.providerId === 'kerberos') for (const key of LDAP_ONLY_KEYS) Reflect.deleteProperty(config, key);
  return config;
}

/**
 * What a new provider's config gets where its spec is silent and the Kopf operator's CRD defaulted otherwise
 * than Keycloak does, so that a provider migrated from it behaves the same: Keycloak refuses an LDAP provider
 * without an edit mode and runs a Kerberos one without it as UNSYNCED; without the other two keys it neither
 * pages its LDAP searches nor pools its connections. Where that operator's default is what Keycloak does
 * anyway (vendor, the username, RDN and UUID attributes, the object classes, the search scope, the batch
 * size, the sync settings, ...), nothing is sent. Only at creation: a provider that exists keeps what it has
 * unless its spec states the key.
 */
export const FEDERATION_CREATION_DEFAULTS: Readonly<Record<(typeof FEDERATION_PROVIDERS)[number], Readonly<Stated>>> = {
  ldap: { editMode: ['READ_ONLY'], pagination: ['true'], connectionPooling: ['true'] },
  kerberos: { editMode: ['READ_ONLY'] },
};

/** The config a provider is created with: the spec's over the creation defaults of its kind. */
export const creationConfig = (spec: UserFederationSpec): Stated => ({ ...FEDERATION_CREATION_DEFAULTS[spec.providerId], ...desiredFederationConfig(spec) });

const sameList = (a: readonly string[], b: readonly string[] | undefined): boolean => a.length === b?.length && a.every((value, i) => value === b[i]);

/** The keys of `desired` whose values Keycloak does not hold. */
export function changedConfigKeys(desired: Readonly<Record<string, readonly string[]>>, observed: Readonly<Record<string, readonly string[]>> | undefined): string[] {
  return Object.entries(desired).filter(([key, value]) => !sameList(value, observed?.[key])).map(([key]) => key);
}
