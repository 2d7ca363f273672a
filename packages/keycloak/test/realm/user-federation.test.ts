import { describe, expect, it } from '@jest/globals';
import { PlanBuilder, type KubeObject, type Plan } from '@keyward/kernel';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import type { ComponentRepresentation, ObservedFederationProvider } from '../../src/apis/keycloak/components.js';
import { decodeRealm, readRealmStatus } from '../../src/realm/decode.js';
import { observe } from '../../src/realm/observe.js';
import { reconcile } from '../../src/realm/reconcile.js';
import { planUserFederation, type FederationContext } from '../../src/realm/user-federation/plan.js';
import type { UserFederationSpec } from '../../src/realm/user-federation/spec.js';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';
import { fixedEntropy } from '@keyward/kernel/testing';
import { keycloakCall } from '../../src/server.js';
import { NOW, baseSpec, config, decoded, observedRealm, realmObject, secret } from './fixtures.js';

const STORAGE = 'org.keycloak.storage.UserStorageProvider';
const MAPPER = 'org.keycloak.storage.ldap.mappers.LDAPStorageMapper';
const CALL = keycloakCall(config, 'shop') ?? (() => { throw new Error('no Keycloak call'); })();
const steps = (p: Plan<KeycloakRealmAction>): KeycloakAction[] => p.steps.map((s) => s.action).filter((a): a is KeycloakAction => a.kind.startsWith('keycloak.'));

const corpInput = {
  name: 'corp',
  providerId: 'ldap',
  editMode: 'READ_ONLY',
  connection: { url: 'ldap://ldap:389', bindDn: 'cn=admin,dc=x', bindCredentialSecret: { name: 'ldap', key: 'password' }, usersDn: 'ou=people,dc=x' },
  attributes: { userObjectClasses: ['inetOrgPerson', 'organizationalPerson'] },
  sync: { fullSyncPeriod: 3600, batchSize: 50 },
  config: { vendor: 'other', bindCredential: 'never-from-config', searchScope: '2' },
};
/** As the codec gives it (its integers branded). */
const corp: UserFederationSpec = decoded(realmObject({ ...baseSpec, userFederation: [corpInput] })).spec.userFederation?.[0] ?? (() => { throw new Error('no provider'); })();
const stated = { editMode: ['READ_ONLY'], connectionUrl: ['ldap://ldap:389'], bindDn: ['cn=admin,dc=x'], usersDn: ['ou=people,dc=x'], userObjectClasses: ['inetOrgPerson, organizationalPerson'], fullSyncPeriod: ['3600'], batchSizeForSync: ['50'], vendor: ['other'], searchScope: ['2'] };
const credential = { 'config.bindCredential[]': { kind: 'secretKey', namespace: 'shop', name: 'ldap', key: 'password', requiredLabels: { 'keycloak.keyward.io/realm-secret': 'true' } } };

function component(overrides: Partial<ComponentRepresentation> = {}): ComponentRepresentation {
  return { id: 'c-1', name: 'corp', providerId: 'ldap', providerType: STORAGE, parentId: 'realm-id', subType: 'keyward', config: { ...stated, bindCredential: ['**********'], krbPrincipalAttribute: ['krb5PrincipalName'] }, ...overrides };
}

function planned(specs: readonly UserFederationSpec[], observed: readonly ObservedFederationProvider[], context: Partial<FederationContext> = {}): KeycloakAction[] {
  const plan = new PlanBuilder<KeycloakRealmAction>();
  planUserFederation({ plan, call: CALL, realm: 'shop' }, specs, observed, { realmId: 'realm-id', namespace: 'shop', changed: () => false, pruneWhenEmpty: false, ...context });
  return steps(plan.build());
}

describe('the user federation providers of a realm', () => {
  it('are created as components under the realm with our marker, the typed fields as config keys, and the bind credential from its Secret only', () => {
    expect(planned([corp], [])).toEqual([expect.objectContaining({
      kind: 'keycloak.create',
      resource: { type: 'component', realm: 'shop', name: 'corp' },
      // The Kopf operator's defaults where the spec is silent, at creation only.
      body: { name: 'corp', providerId: 'ldap', providerType: STORAGE, parentId: 'realm-id', subType: 'keyward', config: { ...stated, pagination: ['true'], connectionPooling: ['true'] } },
      secretFields: credential,
    })]);
  });

  it('plan nothing once Keycloak holds the stated config, whatever keys of its own it adds', () => {
    expect(planned([corp], [{ provider: component(), mappers: undefined }])).toEqual([]);
  });

  it('send the stated keys that differ, and the bind credential only when its Secret changed or Keycloak holds none', () => {
    const drifted = component({ config: { ...component().config, usersDn: ['ou=else'] } });
    expect(planned([corp], [{ provider: drifted, mappers: undefined }])).toEqual([expect.objectContaining({
      kind: 'keycloak.update',
      resource: { type: 'component', realm: 'shop', name: 'corp', id: 'c-1' },
      changed: ['config.usersDn'],
      body: { name: 'corp', providerId: 'ldap', providerType: STORAGE, parentId: 'realm-id', subType: 'keyward', config: stated },
    })]);
    expect(planned([corp], [{ provider: component(), mappers: undefined }], { changed: (name) => name === 'ldap' })).toEqual([expect.objectContaining({ changed: ['config.bindCredential'], secretFields: credential })]);
    const { bindCredential: _gone, ...lost } = component().config ?? {};
    expect(planned([corp], [{ provider: component({ config: lost }), mappers: undefined }])).toEqual([expect.objectContaining({ changed: ['config.bindCredential'], secretFields: credential })]);
  });

  it('send a kerberos provider none of LDAP\'s keys, which Keycloak drops from one, so that a converged one plans nothing', () => {
    const kerberos: UserFederationSpec = decoded(realmObject({ ...baseSpec, userFederation: [{
      name: 'krb', providerId: 'kerberos', trustEmail: true, validatePasswordPolicy: true,
      connection: { url: 'ldap://ldap:389', bindCredentialSecret: { name: 'ldap', key: 'password' } }, attributes: { username: 'uid' }, sync: { importEnabled: true, syncRegistrations: true },
      kerberos: { realm: 'X.ORG', serverPrincipal: 'HTTP/x@X.ORG', keyTab: '/k', allowAuthentication: true, useForPasswordAuthentication: false, debug: true },
    }] })).spec.userFederation?.[0] ?? (() => { throw new Error('no provider'); })();
    const held = { importEnabled: ['true'], kerberosRealm: ['X.ORG'], serverPrincipal: ['HTTP/x@X.ORG'], keyTab: ['/k'], debug: ['true'] };
    // Created with the replaced operator's edit mode, which a Kerberos provider keeps.
    expect(planned([kerberos], [])).toEqual([expect.objectContaining({ kind: 'keycloak.create', body: expect.objectContaining({ providerId: 'kerberos', config: { ...held, editMode: ['READ_ONLY'] } }) })]);
    expect(planned([kerberos], [])[0]).not.toHaveProperty('secretFields');
    const converged = component({ name: 'krb', providerId: 'kerberos', config: { ...held, cachePolicy: ['DEFAULT'] } });
    expect(planned([kerberos], [{ provider: converged, mappers: undefined }])).toEqual([]);
  });

  it('prune only unlisted providers that carry our marker, and none for an empty list unless pruneWhenEmpty', () => {
    const ours = { provider: component({ id: 'c-2', name: 'old' }), mappers: undefined };
    const { subType: _none, ...handMade } = component({ id: 'c-3', name: 'by-hand' });
    const observed = [{ provider: component(), mappers: undefined }, ours, { provider: handMade, mappers: undefined }];
    const deletion = { kind: 'keycloak.delete', resource: { type: 'component', realm: 'shop', name: 'old', id: 'c-2' } };
    expect(planned([corp], observed)).toEqual([expect.objectContaining(deletion)]);
    expect(planned([], observed)).toEqual([]);
    expect(planned([], observed, { pruneWhenEmpty: true })).toEqual([expect.objectContaining({ kind: 'keycloak.delete', resource: expect.objectContaining({ name: 'corp' }) }), expect.objectContaining(deletion)]);
  });

  it('bring listed mappers to the spec: ours created with the marker, Keycloak\'s updated without taking them, ours unlisted deleted', () => {
    const email: ComponentRepresentation = { id: 'm-1', name: 'email', providerId: 'user-attribute-ldap-mapper', providerType: MAPPER, parentId: 'c-1', config: { 'ldap.attribute': ['mail'], 'read.only': ['true'] } };
    const stale: ComponentRepresentation = { id: 'm-2', name: 'stale', providerId: 'user-attribute-ldap-mapper', providerType: MAPPER, parentId: 'c-1', subType: 'keyward', config: {} };
    const username: ComponentRepresentation = { id: 'm-3', name: 'username', providerId: 'user-attribute-ldap-mapper', providerType: MAPPER, parentId: 'c-1', config: {} };
    const spec: UserFederationSpec = { ...corp, mappers: [{ name: 'email', mapperType: 'user-attribute-ldap-mapper', config: { 'ldap.attribute': 'mail', 'read.only': 'false' } }, { name: 'phone', mapperType: 'user-attribute-ldap-mapper', config: { 'ldap.attribute': 'mobile' } }] };
    expect(planned([spec], [{ provider: component(), mappers: [email, stale, username] }])).toEqual([
      expect.objectContaining({ kind: 'keycloak.update', resource: { type: 'component', realm: 'shop', name: 'email', parent: 'corp', id: 'm-1' }, changed: ['config.read.only'], body: { name: 'email', providerId: 'user-attribute-ldap-mapper', providerType: MAPPER, parentId: 'c-1', config: { 'ldap.attribute': ['mail'], 'read.only': ['false'] } } }),
      expect.objectContaining({ kind: 'keycloak.create', resource: { type: 'component', realm: 'shop', name: 'phone', parent: 'corp' }, body: { name: 'phone', providerId: 'user-attribute-ldap-mapper', providerType: MAPPER, parentId: 'c-1', subType: 'keyward', config: { 'ldap.attribute': ['mobile'] } } }),
      expect.objectContaining({ kind: 'keycloak.delete', resource: { type: 'component', realm: 'shop', name: 'stale', parent: 'corp', id: 'm-2' } }),
    ]);
  });
});

describe('user federation in a realm reconcile', () => {
  const spec = { ...baseSpec, userFederation: [corpInput] };
  const ldapSecret = (labels?: Readonly<Record<string, string>>): KubeObject => secret('9', labels, 'ldap');
  const run = (status: unknown, realm = observedRealm({ userFederation: [{ provider: component(), mappers: undefined }] }), found: KubeObject = ldapSecret()): Plan<KeycloakRealmAction> =>
    reconcile({ primary: decoded(realmObject(spec, { status })), observed: { realm, smtpPasswordSecret: undefined, 'userFederationSecret:ldap': found }, now: NOW, config, entropy: fixedEntropy(0) });

  it('reads the providers, and their Secret, only for a spec that lists some, or prunes ours', () => {
    expect(observe(decoded(realmObject(spec)), config)).toMatchObject({ realm: { userFederation: { mappersOf: [] } }, 'userFederationSecret:ldap': { kind: 'k8s.get' } });
    expect(observe(decoded(realmObject(baseSpec)), config).realm).not.toHaveProperty('userFederation');
    expect(observe(decoded(realmObject({ ...baseSpec, userFederation: [] })), config).realm).not.toHaveProperty('userFederation');
    expect(observe(decoded(realmObject({ ...baseSpec, pruneUnlisted: ['userFederation'] })), config).realm).toMatchObject({ userFederation: { mappersOf: [], testConnectionOf: [] } });
  });

  it('records one status entry per provider and the Secret version, and then writes nothing', () => {
    const status = { userFederation: [{ name: 'corp', providerId: 'ldap', id: 'c-1' }], userFederationSecretVersions: { ldap: '9' } };
    const first = run({});
    expect(steps(first)).toEqual([expect.objectContaining({ changed: ['config.bindCredential'] })]);
    expect(first.steps.find((s) => s.action.kind === 'k8s.status')?.action).toMatchObject({ status });
    expect(steps(run(status))).toEqual([]);
  });

  it('records Keycloak\'s connection test of an LDAP provider, and asks for it only for listed LDAP providers', () => {
    const failed = observedRealm({ userFederation: [{ provider: component(), mappers: undefined, connectionTest: { passed: false, error: 'AuthenticationFailure' } }] });
    const p = run({ userFederationSecretVersions: { ldap: '9' } }, failed);
    expect(steps(p)).toEqual([]);
    expect(p.steps.find((s) => s.action.kind === 'k8s.status')?.action).toMatchObject({ status: { userFederation: [{ name: 'corp', providerId: 'ldap', id: 'c-1', connectionTestPassed: false, connectionTestError: 'AuthenticationFailure' }] } });
    const kerberos = { name: 'krb', providerId: 'kerberos', kerberos: { realm: 'X.ORG', keyTab: '/k' } };
    expect(observe(decoded(realmObject({ ...spec, userFederation: [corpInput, kerberos] })), config).realm).toMatchObject({ userFederation: { testConnectionOf: ['corp'] } });
  });

  it('stalls on a Secret without the opt-in label, naming it and the label', () => {
    const p = run({}, undefined, ldapSecret({}));
    expect(steps(p)).toEqual([]);
    expect(JSON.stringify(p.steps)).toContain('UserFederationSecretNotOptedIn');
    expect(JSON.stringify(p.steps)).toContain('Secret ldap (the bind credential of user federation provider corp)');
  });

  it('rejects bad input naming the field, and keeps only the status it knows', () => {
    const rejection = (federation: unknown): string => {
      const result = decodeRealm(realmObject({ ...baseSpec, userFederation: federation }));
      return isLeft(result) ? result.left.message : 'accepted';
    };
    expect(rejection([{ name: 'x', providerId: 'ad' }])).toBe('spec.userFederation[0].providerId: expected ldap | kerberos, got "ad"');
    expect(rejection([{ name: 'x', providerId: 'ldap', editMode: 'RW' }])).toBe('spec.userFederation[0].editMode: expected READ_ONLY | WRITABLE | UNSYNCED, got "RW"');
    expect(rejection([{ name: 'x', providerId: 'ldap', config: { vendor: 1 } }])).toContain('spec.userFederation[0].config.vendor');
    expect(rejection([{ name: 'x', providerId: 'ldap' }, { name: 'x', providerId: 'kerberos' }])).toBe('spec.userFederation[1]: duplicate of spec.userFederation[0] ("x")');
    expect(readRealmStatus({ userFederation: [{ name: 'a', providerId: 'ldap', id: 'i', connectionTestPassed: 'yes' }, { name: 3 }], userFederationSecretVersions: { a: '1', b: 2 } })).toEqual({ userFederation: [{ name: 'a', providerId: 'ldap', id: 'i' }], userFederationSecretVersions: { a: '1' } });
  });
});
