import type { FederationConfig, UserFederationSpec } from './spec.js';

// The component config a user federation provider's spec states. Keycloak keeps every config value as a list
// of strings: a typed field becomes the config key Keycloak reads it from, and the free-form `config` gives any
// other key (a typed field wins over the same key there).

/** The config key Keycloak reads the bind password from; it shows it masked. */
export const BIND_CREDENTIAL_KEY = 'bindCredential';

type Stated = Record<string, string[]>;

const put = (config: Stated, key: string, value: string | number | boolean | undefined): void => {
  if (value !== undefined) config[key] = [String(value)];
};

/** Free-form config as Keycloak keeps it: every value a list of one. */
export function configLists(config: FederationConfig | undefined, except?: string): Stated {
  return Object.fromEntries(Object.entries(config ?? {}).filter(([key]) => key !== except).map(([key, value]) => [key, [value]]));
}

/** The config the spec states, without the bind credential (sent from its Secret, see user-federation.ts). */
export function desiredFederationConfig(spec: UserFederationSpec): Stated {
  const config = configLists(spec.config, BIND_CREDENTIAL_KEY);
  put(config, 'enabled', spec.enabled);
  put(config, 'priority', spec.priority);
  put(config, 'editMode', spec.editMode);
  const { connection, attributes, sync, kerberos } = spec;
  put(config, 'connectionUrl', connection?.url);
  put(config, 'bindDn', connection?.bindDn);
  put(config, 'usersDn', connection?.usersDn);
  put(config, 'usernameLDAPAttribute', attributes?.username);
  put(config, 'rdnLDAPAttribute', attributes?.rdn);
  put(config, 'uuidLDAPAttribute', attributes?.uuid);
  // Keycloak keeps the object classes as one comma-separated value.
  put(config, 'userObjectClasses', attributes?.userObjectClasses?.join(', '));
  put(config, 'importEnabled', sync?.importEnabled);
  put(config, 'fullSyncPeriod', sync?.fullSyncPeriod);
  put(config, 'changedSyncPeriod', sync?.changedSyncPeriod);
  put(config, 'batchSizeForSync', sync?.batchSize);
  put(config, 'kerberosRealm', kerberos?.realm);
  put(config, 'serverPrincipal', kerberos?.serverPrincipal);
  put(config, 'keyTab', kerberos?.keyTab);
  return config;
}

const sameList = (a: readonly string[], b: readonly string[] | undefined): boolean => a.length === b?.length && a.every((value, i) => value === b[i]);

/** The keys of `desired` whose values Keycloak does not hold. */
export function changedConfigKeys(desired: Readonly<Record<string, readonly string[]>>, observed: Readonly<Record<string, readonly string[]>> | undefined): string[] {
  return Object.entries(desired).filter(([key, value]) => !sameList(value, observed?.[key])).map(([key]) => key);
}
