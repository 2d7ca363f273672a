import type { UpstreamSpelling } from '../../upstream-spellings.js';

/**
 * The Kopf operator states a provider's settings flat in its item (and the sync ones in `syncSettings`);
 * Keyward groups them. Each is read as the grouped field, by the name of the item's field below the list.
 * The fields both spell alike (name, providerId, priority, enabled, editMode, trustEmail,
 * validatePasswordPolicy, mappers, config) need no entry.
 */
const FLAT_TO_GROUPED = {
  connectionUrl: 'connection.url',
  startTls: 'connection.startTls',
  useTruststoreSpi: 'connection.useTruststoreSpi',
  connectionPooling: 'connection.pooling',
  connectionTimeout: 'connection.timeoutMilliseconds',
  readTimeout: 'connection.readTimeoutMilliseconds',
  vendor: 'connection.vendor',
  authType: 'connection.authType',
  bindDn: 'connection.bindDn',
  bindCredentialSecret: 'connection.bindCredentialSecret',
  usersDn: 'connection.usersDn',
  usernameLdapAttribute: 'attributes.username',
  rdnLdapAttribute: 'attributes.rdn',
  uuidLdapAttribute: 'attributes.uuid',
  userObjectClasses: 'attributes.userObjectClasses',
  customUserSearchFilter: 'attributes.customUserSearchFilter',
  searchScope: 'attributes.searchScope',
  pagination: 'attributes.pagination',
  batchSizeForSync: 'sync.batchSize',
  'syncSettings.importEnabled': 'sync.importEnabled',
  'syncSettings.fullSyncPeriod': 'sync.fullSyncPeriod',
  'syncSettings.changedUsersSyncPeriod': 'sync.changedSyncPeriod',
  'syncSettings.syncRegistrations': 'sync.syncRegistrations',
  allowKerberosAuthentication: 'kerberos.allowAuthentication',
  kerberosRealm: 'kerberos.realm',
  serverPrincipal: 'kerberos.serverPrincipal',
  keytabSecret: 'kerberos.keyTabSecret',
  useKerberosForPasswordAuthentication: 'kerberos.useForPasswordAuthentication',
  debug: 'kerberos.debug',
} as const;

/** How the Kopf operator's user federation providers spell what Keyward groups. */
export const USER_FEDERATION_UPSTREAM_SPELLINGS: readonly UpstreamSpelling[] = Object.entries(FLAT_TO_GROUPED)
  .map(([upstream, keyward]) => ({ upstream: `userFederation[].${upstream}`, keyward: `userFederation[].${keyward}` }));
