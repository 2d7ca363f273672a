// A realm's user federation providers in the Kopf operator's flat shape: each field read as Keyward's grouped
// one and said in the Ready message, both spellings of one setting refused when they differ, the bind
// password and the keytab path sent from their Secrets under the realm's Secret opt-in and never written
// into a plan. The API server's and Keycloak's side is in corpus.int.test.ts.
import { describe, expect, it } from '@jest/globals';
import { PlanBuilder, type KubeObject, type Plan } from '@keyward/kernel';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import type { ComponentRepresentation } from '../../src/apis/keycloak/components.js';
import { decodeRealm } from '../../src/realm/decode.js';
import { reconcile } from '../../src/realm/reconcile.js';
import { desiredFederationConfig } from '../../src/realm/user-federation/config.js';
import { planUserFederation, type FederationContext } from '../../src/realm/user-federation/plan.js';
import type { UserFederationSpec } from '../../src/realm/user-federation/spec.js';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';
import { fixedEntropy } from '@keyward/kernel/testing';
import { keycloakCall } from '../../src/server.js';
import { NOW, baseSpec, config, decoded, observedRealm, realmObject, secret } from './fixtures.js';

const STORAGE = 'org.keycloak.storage.UserStorageProvider';
const CALL = keycloakCall(config, 'shop') ?? (() => { throw new Error('no Keycloak call'); })();

/** An LDAP provider with every field of the Kopf operator's CRD, in its spelling. */
const upstreamLdap = {
  name: 'corp',
  providerId: 'ldap',
  priority: 1,
  enabled: true,
  connectionUrl: 'ldaps://ldap.example.org:636',
  startTls: false,
  useTruststoreSpi: 'always',
  connectionPooling: true,
  connectionTimeout: 5000,
  readTimeout: 10_000,
  authType: 'simple',
  bindDn: 'cn=admin,dc=example,dc=org',
  bindCredentialSecret: { name: 'ldap-bind', key: 'password' },
  vendor: 'other',
  usersDn: 'ou=people,dc=example,dc=org',
  usernameLdapAttribute: 'uid',
  rdnLdapAttribute: 'uid',
  uuidLdapAttribute: 'entryUUID',
  userObjectClasses: ['inetOrgPerson', 'organizationalPerson'],
  customUserSearchFilter: '(mail=*)',
  searchScope: 1,
  pagination: true,
  batchSizeForSync: 500,
  editMode: 'READ_ONLY',
  trustEmail: true,
  validatePasswordPolicy: false,
  allowKerberosAuthentication: true,
  kerberosRealm: 'EXAMPLE.ORG',
  serverPrincipal: 'HTTP/sso.example.org@EXAMPLE.ORG',
  keytabSecret: { name: 'ldap-keytab', key: 'path' },
  useKerberosForPasswordAuthentication: false,
  debug: false,
  syncSettings: { fullSyncPeriod: 86_400, changedUsersSyncPeriod: 3600, importEnabled: true, syncRegistrations: false },
  mappers: [{ name: 'phone', mapperType: 'user-attribute-ldap-mapper', config: { 'ldap.attribute': 'mobile', 'user.model.attribute': 'phone' } }],
  config: { cachePolicy: 'DEFAULT' },
};

const withFederation = (...providers: readonly unknown[]): KubeObject => realmObject({ ...baseSpec, userFederation: providers });
const decodedProvider = (provider: unknown): UserFederationSpec => decoded(withFederation(provider)).spec.userFederation?.[0] ?? (() => { throw new Error('no provider'); })();
const rejection = (...providers: readonly unknown[]): string => {
  const result = decodeRealm(withFederation(...providers));
  return isLeft(result) ? result.left.message : 'accepted';
};

describe('a user federation provider in the Kopf operator\'s flat shape', () => {
  it('decodes to Keyward\'s grouped fields, and says which spellings it read', () => {
    const spec = decoded(withFederation(upstreamLdap)).spec;
    const { syncSettings: _kopfsOnly, ...provider } = spec.userFederation?.[0] as UserFederationSpec & { syncSettings?: unknown };
    expect(provider).toEqual({
      name: 'corp', providerId: 'ldap', priority: 1, enabled: true, editMode: 'READ_ONLY', trustEmail: true, validatePasswordPolicy: false,
      connection: {
        url: 'ldaps://ldap.example.org:636', startTls: false, useTruststoreSpi: 'always', pooling: true, timeoutMilliseconds: 5000, readTimeoutMilliseconds: 10_000,
        vendor: 'other', authType: 'simple', bindDn: 'cn=admin,dc=example,dc=org', bindCredentialSecret: { name: 'ldap-bind', key: 'password' }, usersDn: 'ou=people,dc=example,dc=org',
      },
      attributes: { username: 'uid', rdn: 'uid', uuid: 'entryUUID', userObjectClasses: ['inetOrgPerson', 'organizationalPerson'], customUserSearchFilter: '(mail=*)', searchScope: 1, pagination: true },
      sync: { batchSize: 500, importEnabled: true, fullSyncPeriod: 86_400, changedSyncPeriod: 3600, syncRegistrations: false },
      kerberos: { allowAuthentication: true, realm: 'EXAMPLE.ORG', serverPrincipal: 'HTTP/sso.example.org@EXAMPLE.ORG', keyTabSecret: { name: 'ldap-keytab', key: 'path' }, useForPasswordAuthentication: false, debug: false },
      mappers: upstreamLdap.mappers,
      config: { cachePolicy: 'DEFAULT' },
    });
    expect(spec.upstreamSpellings).toEqual(expect.arrayContaining([
      'userFederation[].connectionUrl is read as userFederation[].connection.url',
      'userFederation[].bindCredentialSecret is read as userFederation[].connection.bindCredentialSecret',
      'userFederation[].usernameLdapAttribute is read as userFederation[].attributes.username',
      'userFederation[].syncSettings.changedUsersSyncPeriod is read as userFederation[].sync.changedSyncPeriod',
      'userFederation[].keytabSecret is read as userFederation[].kerberos.keyTabSecret',
    ]));
    // One note per field spelled the Kopf operator's way; those both spell alike give none.
    expect(spec.upstreamSpellings).toHaveLength(29);
  });

  it('gives Keycloak the config keys of its LDAP component, none of them read from a Secret', () => {
    expect(desiredFederationConfig(decodedProvider(upstreamLdap))).toEqual({
      cachePolicy: ['DEFAULT'], enabled: ['true'], priority: ['1'], editMode: ['READ_ONLY'], trustEmail: ['true'], validatePasswordPolicy: ['false'],
      connectionUrl: ['ldaps://ldap.example.org:636'], startTls: ['false'], useTruststoreSpi: ['always'], connectionPooling: ['true'], connectionTimeout: ['5000'], readTimeout: ['10000'],
      vendor: ['other'], authType: ['simple'], bindDn: ['cn=admin,dc=example,dc=org'], usersDn: ['ou=people,dc=example,dc=org'],
      usernameLDAPAttribute: ['uid'], rdnLDAPAttribute: ['uid'], uuidLDAPAttribute: ['entryUUID'], userObjectClasses: ['inetOrgPerson, organizationalPerson'], customUserSearchFilter: ['(mail=*)'],
      searchScope: ['1'], pagination: ['true'], importEnabled: ['true'], fullSyncPeriod: ['86400'], changedSyncPeriod: ['3600'], batchSizeForSync: ['500'], syncRegistrations: ['false'],
      kerberosRealm: ['EXAMPLE.ORG'], serverPrincipal: ['HTTP/sso.example.org@EXAMPLE.ORG'], allowKerberosAuthentication: ['true'], useKerberosForPasswordAuthentication: ['false'], debug: ['false'],
    });
  });

  it('takes both spellings of one setting when they agree', () => {
    expect(decodedProvider({ name: 'corp', providerId: 'ldap', connectionUrl: 'ldap://a', connection: { url: 'ldap://a' }, syncSettings: { fullSyncPeriod: 60 }, sync: { fullSyncPeriod: 60 } })).toMatchObject({ connection: { url: 'ldap://a' }, sync: { fullSyncPeriod: 60 } });
  });

  it('refuses both spellings of one setting with different values, naming both and the provider', () => {
    expect(rejection({ name: 'a', providerId: 'ldap' }, { name: 'corp', providerId: 'ldap', connectionUrl: 'ldap://a', connection: { url: 'ldap://b' } }))
      .toBe('spec.userFederation[1].connectionUrl: userFederation[].connectionUrl and userFederation[].connection.url are the same field (the first is the Kopf operator\'s spelling) and differ: state one of them');
    expect(rejection({ name: 'corp', providerId: 'ldap', syncSettings: { changedUsersSyncPeriod: 60 }, sync: { changedSyncPeriod: 120 } }))
      .toBe('spec.userFederation[0].syncSettings.changedUsersSyncPeriod: userFederation[].syncSettings.changedUsersSyncPeriod and userFederation[].sync.changedSyncPeriod are the same field (the first is the Kopf operator\'s spelling) and differ: state one of them');
    // Two Secret references cannot be compared by the API server's rules: stating both is refused.
    expect(rejection({ name: 'corp', providerId: 'ldap', bindCredentialSecret: { name: 's', key: 'k' }, connection: { bindCredentialSecret: { name: 's', key: 'k' } } }))
      .toBe('spec.userFederation[0].bindCredentialSecret: userFederation[].bindCredentialSecret and userFederation[].connection.bindCredentialSecret are the same field (the first is the Kopf operator\'s spelling): state one of them');
  });

  it('checks each upstream field as the field it means, naming that field', () => {
    expect(rejection({ name: 'corp', providerId: 'ldap', searchScope: 3 })).toBe('spec.userFederation[0].attributes.searchScope: expected one of 1, 2, got 3');
    expect(rejection({ name: 'corp', providerId: 'ldap', useTruststoreSpi: 'sometimes' })).toBe('spec.userFederation[0].connection.useTruststoreSpi: expected always | ldapsOnly | never, got "sometimes"');
    expect(rejection({ name: 'corp', providerId: 'kerberos', kerberos: { keyTab: '/k' }, keytabSecret: { name: 's', key: 'k' } })).toBe('spec.userFederation[0].kerberos: keyTab and keyTabSecret both give the keytab\'s path: state one of them');
  });
});

describe('the Secrets of a provider in the Kopf operator\'s shape', () => {
  const kerberos = { name: 'krb', providerId: 'kerberos', kerberosRealm: 'EXAMPLE.ORG', serverPrincipal: 'HTTP/sso@EXAMPLE.ORG', keytabSecret: { name: 'krb-keytab', key: 'path' } };
  const keyTabField = { 'config.keyTab[]': { kind: 'secretKey', namespace: 'shop', name: 'krb-keytab', key: 'path', requiredLabels: { 'keycloak.keyward.io/realm-secret': 'true' } } };
  const component = (config: Record<string, string[]>): ComponentRepresentation => ({ id: 'c-1', name: 'krb', providerId: 'kerberos', providerType: STORAGE, parentId: 'realm-id', subType: 'keyward', config });
  const held = { kerberosRealm: ['EXAMPLE.ORG'], serverPrincipal: ['HTTP/sso@EXAMPLE.ORG'], keyTab: ['/etc/krb5.keytab'] };

  function planned(current: ComponentRepresentation | undefined, context: Partial<FederationContext> = {}): KeycloakAction[] {
    const plan = new PlanBuilder<KeycloakRealmAction>();
    planUserFederation({ plan, call: CALL, realm: 'shop' }, [decodedProvider(kerberos)], current === undefined ? [] : [{ provider: current, mappers: undefined }], { realmId: 'realm-id', namespace: 'shop', changed: () => false, pruneWhenEmpty: false, ...context });
    return plan.build().steps.map((s) => s.action).filter((a): a is KeycloakAction => a.kind.startsWith('keycloak.'));
  }

  it('send the keytab path from its Secret when the provider is made, never in the body', () => {
    expect(planned(undefined)).toEqual([expect.objectContaining({
      kind: 'keycloak.create',
      body: { name: 'krb', providerId: 'kerberos', providerType: STORAGE, parentId: 'realm-id', subType: 'keyward', config: { editMode: ['READ_ONLY'], kerberosRealm: ['EXAMPLE.ORG'], serverPrincipal: ['HTTP/sso@EXAMPLE.ORG'] } },
      secretFields: keyTabField,
    })]);
  });

  it('send it again only when its Secret changed or Keycloak holds none', () => {
    expect(planned(component(held))).toEqual([]);
    expect(planned(component(held), { changed: (name) => name === 'krb-keytab' })).toEqual([expect.objectContaining({ changed: ['config.keyTab'], secretFields: keyTabField })]);
    const { keyTab: _gone, ...lost } = held;
    expect(planned(component(lost))).toEqual([expect.objectContaining({ changed: ['config.keyTab'], secretFields: keyTabField })]);
  });

  it('stall on a keytab Secret without the opt-in label, naming it, and write nothing', () => {
    const p: Plan<KeycloakRealmAction> = reconcile({
      primary: decoded(withFederation(kerberos)),
      observed: { realm: observedRealm({ userFederation: [] }), smtpPasswordSecret: undefined, 'userFederationSecret:krb-keytab': secret('3', {}, 'krb-keytab') },
      now: NOW, config, entropy: fixedEntropy(0),
    });
    expect(p.steps.filter((s) => s.action.kind.startsWith('keycloak.'))).toEqual([]);
    expect(JSON.stringify(p.steps)).toContain('UserFederationSecretNotOptedIn');
    expect(JSON.stringify(p.steps)).toContain('Secret krb-keytab (the keytab path of user federation provider krb)');
  });
});
