// A KeycloakRealm's user federation with the KeycloakRealm controller and core's runtime, against the real
// kube-apiserver, Keycloak 26 and an OpenLDAP server (slapd) on loopback: an LDAP provider bound with a
// password from a labelled Secret, users found in the directory, updated through a diff, a mapper created and
// updated, an out-of-band change repaired, the password rotated through the Secret, a Kerberos provider
// beside it, its keytab path read from a Secret, a missing opt-in label reported, ours pruned only; and
// nothing written once converged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KeywardError } from '@keyward/kernel/interpreter';
import { rememberSecret } from '@keyward/test-env';
import { REALM_SECRET_LABEL } from '../../src/index.js';
import { LDAP_ADMIN_DN, LDAP_PEOPLE_DN, startLdapServer, type LdapServer } from '../ldap-server.js';
import { conditionOf, createRealm, patchSpec, REALM_SECRET_LABELS, realmRef, secretRef, startRealmTestFile, statusOf, unique, waitForObject, waitForReady, writeSecret, writesIn, type ControllerEnv, type Operator, type RealmTestFile } from './harness.js';

let env: ControllerEnv;
let namespace: string;
let operator: Operator;
let file: RealmTestFile;
let ldap: LdapServer;
const password = rememberSecret(unique('ldap-admin'));

beforeAll(async () => {
  ldap = await startLdapServer(password, [{ uid: 'alice', givenName: 'Alice', sn: 'Liddell', mail: 'alice@example.org' }]);
  file = await startRealmTestFile('kcfed', 'realm-fed');
  ({ env, namespace, operator } = file);
}, 120_000);

afterAll(async () => {
  await file.close();
  await ldap.stop();
});

type Json = Record<string, unknown>;
const STORAGE = 'org.keycloak.storage.UserStorageProvider';

async function providersOf(realm: string): Promise<Json[]> {
  return (await env.admin.get<Json[]>(`/realms/${realm}/components`, { type: STORAGE })) ?? [];
}
async function providerOf(realm: string, name: string): Promise<Json | undefined> {
  return (await providersOf(realm)).find((p) => p['name'] === name);
}
const configOf = (component: Json | undefined): Record<string, string[]> => (component?.['config'] as Record<string, string[]> | undefined) ?? {};
async function mappersOf(realm: string, providerId: string): Promise<Map<string, Json>> {
  const mappers = (await env.admin.get<Json[]>(`/realms/${realm}/components`, { parent: providerId, type: 'org.keycloak.storage.ldap.mappers.LDAPStorageMapper' })) ?? [];
  return new Map(mappers.map((m) => [String(m['name']), m]));
}
/**
 * Whether Keycloak binds to the directory with the provider's stored credential: with the componentId and the
 * mask, its connection test uses what it holds (204; 400 AuthenticationFailure otherwise).
 */
async function bindWorks(realm: string, id: string): Promise<boolean> {
  try {
    return (await env.admin.send('POST', `/realms/${realm}/testLDAPConnection`, { action: 'testAuthentication', componentId: id, connectionUrl: ldap.url, bindDn: LDAP_ADMIN_DN, bindCredential: '**********', authType: 'simple' })) === 204;
  } catch (error) {
    if (error instanceof KeywardError && error.code === 400) return false;
    throw error;
  }
}

async function reconcileNow(name: string): Promise<{ steps: string[]; writes: string[]; operations: string[] }> {
  const before = operator.requests.length;
  const result = await operator.reconcileRealm(namespace, name);
  const requests = operator.requests.slice(before);
  return { steps: (result.plan?.steps ?? []).map((step) => `${step.action.kind}: ${step.reason}`), writes: writesIn(requests), operations: requests.map((r) => r.operation) };
}

const corp = (extra: Json = {}): Json => ({
  name: 'corp',
  providerId: 'ldap',
  enabled: true,
  editMode: 'READ_ONLY',
  connection: { url: ldap.url, bindDn: LDAP_ADMIN_DN, bindCredentialSecret: { name: 'corp-ldap', key: 'password' }, usersDn: LDAP_PEOPLE_DN },
  attributes: { username: 'uid', rdn: 'uid', uuid: 'entryUUID', userObjectClasses: ['inetOrgPerson', 'organizationalPerson'] },
  config: { vendor: 'other', authType: 'simple' },
  ...extra,
});
const kerberos: Json = { name: 'corp-kerberos', providerId: 'kerberos', editMode: 'UNSYNCED', kerberos: { realm: 'EXAMPLE.ORG', serverPrincipal: 'HTTP/sso.example.org@EXAMPLE.ORG', keyTab: '/etc/keycloak/http.keytab' } };

describe('the user federation of a KeycloakRealm against the real Keycloak, API server and an LDAP server', () => {
  it('creates an LDAP provider bound with a Secret, finds its users, updates it, manages a mapper, repairs drift, rotates the password, prunes ours only, and then writes nothing', async () => {
    const realm = file.newRealmName('kcfed');
    const ref = realmRef(namespace, 'federated');
    await writeSecret(env.kube, namespace, 'corp-ldap', { password }, REALM_SECRET_LABELS);
    await createRealm(env.kube, namespace, 'federated', { realmName: realm, userFederation: [corp(), kerberos] });
    const created = await waitForReady(env.kube, ref);

    const provider = await providerOf(realm, 'corp');
    const id = String(provider?.['id']);
    expect(provider).toMatchObject({ providerId: 'ldap', subType: 'keyward' });
    expect(configOf(provider)).toMatchObject({ connectionUrl: [ldap.url], bindDn: [LDAP_ADMIN_DN], bindCredential: ['**********'], usersDn: [LDAP_PEOPLE_DN], editMode: ['READ_ONLY'], userObjectClasses: ['inetOrgPerson, organizationalPerson'], vendor: ['other'] });
    expect(configOf(await providerOf(realm, 'corp-kerberos'))).toMatchObject({ kerberosRealm: ['EXAMPLE.ORG'], keyTab: ['/etc/keycloak/http.keytab'], editMode: ['UNSYNCED'] });
    expect(await bindWorks(realm, id)).toBe(true);
    // Keycloak's connection test of the LDAP provider, with its stored credential, is in status.
    expect(statusOf(created)['userFederation']).toEqual([{ name: 'corp', providerId: 'ldap', id, connectionTestPassed: true }, { name: 'corp-kerberos', providerId: 'kerberos', id: String((await providerOf(realm, 'corp-kerberos'))?.['id']) }]);
    const secret = await env.kube.get(secretRef(namespace, 'corp-ldap'));
    expect(statusOf(created)['userFederationSecretVersions']).toEqual({ 'corp-ldap': secret?.metadata.resourceVersion });
    // Keycloak finds the directory's users through the provider.
    const users = (await env.admin.get<Json[]>(`/realms/${realm}/users`, { search: 'alice' })) ?? [];
    expect(users.map((u) => u['email'])).toEqual(['alice@example.org']);
    expect(users[0]?.['federationLink']).toBe(id);
    expect(await reconcileNow('federated')).toMatchObject({ steps: [], writes: [] });

    // Updated through a diff: edit mode, sync periods, and Keycloak's email mapper and a mapper of our own.
    const phone = { name: 'phone', mapperType: 'user-attribute-ldap-mapper', config: { 'ldap.attribute': 'telephoneNumber', 'user.model.attribute': 'phone', 'read.only': 'true', 'always.read.value.from.ldap': 'true', 'is.mandatory.in.ldap': 'false' } };
    const email = { name: 'email', mapperType: 'user-attribute-ldap-mapper', config: { 'ldap.attribute': 'mail', 'user.model.attribute': 'email', 'read.only': 'true', 'always.read.value.from.ldap': 'true', 'is.mandatory.in.ldap': 'false' } };
    await patchSpec(env.kube, ref, { userFederation: [corp({ editMode: 'UNSYNCED', sync: { fullSyncPeriod: 3600, changedSyncPeriod: 600, batchSize: 50 }, mappers: [email, phone] }), kerberos] });
    await waitForReady(env.kube, ref);
    expect(configOf(await providerOf(realm, 'corp'))).toMatchObject({ editMode: ['UNSYNCED'], fullSyncPeriod: ['3600'], changedSyncPeriod: ['600'], batchSizeForSync: ['50'], bindCredential: ['**********'] });
    let mappers = await mappersOf(realm, id);
    expect(mappers.get('phone')).toMatchObject({ providerId: 'user-attribute-ldap-mapper', subType: 'keyward', config: { 'ldap.attribute': ['telephoneNumber'] } });
    // Keycloak's own mapper is brought to the spec and stays Keycloak's (no marker).
    expect(mappers.get('email')?.['subType']).toBeUndefined();
    expect(configOf(mappers.get('email'))['always.read.value.from.ldap']).toEqual(['true']);
    expect(mappers.has('username')).toBe(true);
    expect(await bindWorks(realm, id)).toBe(true);
    expect(await reconcileNow('federated')).toMatchObject({ steps: [], writes: [] });

    // A mapper update, then an out-of-band change to the provider: repaired.
    await patchSpec(env.kube, ref, { userFederation: [corp({ editMode: 'UNSYNCED', sync: { fullSyncPeriod: 3600, changedSyncPeriod: 600, batchSize: 50 }, mappers: [email, { ...phone, config: { ...phone.config, 'ldap.attribute': 'mobile' } }] }), kerberos] });
    await waitForReady(env.kube, ref);
    mappers = await mappersOf(realm, id);
    expect(configOf(mappers.get('phone'))['ldap.attribute']).toEqual(['mobile']);
    const current = await providerOf(realm, 'corp');
    expect(await env.admin.send('PUT', `/realms/${realm}/components/${id}`, { ...current, config: { ...configOf(current), usersDn: ['ou=elsewhere,dc=example,dc=org'], fullSyncPeriod: ['60'] } })).toBe(204);
    const repair = await reconcileNow('federated');
    expect(repair.writes.every((write) => write === 'update_component')).toBe(true);
    await waitForReady(env.kube, ref);
    expect(configOf(await providerOf(realm, 'corp'))).toMatchObject({ usersDn: [LDAP_PEOPLE_DN], fullSyncPeriod: ['3600'] });
    expect(await reconcileNow('federated')).toMatchObject({ steps: [], writes: [] });

    // A new password in the Secret is sent once: Keycloak binds with it after the directory's changes too.
    await writeSecret(env.kube, namespace, 'corp-ldap', { password: rememberSecret(unique('wrong')) }, REALM_SECRET_LABELS);
    const rotated = await env.kube.get(secretRef(namespace, 'corp-ldap'));
    const wrong = await waitForObject(env.kube, ref, 'the new bind credential to be sent', (object) => (statusOf(object)['userFederationSecretVersions'] as Json | undefined)?.['corp-ldap'] === rotated?.metadata.resourceVersion && conditionOf(object, 'Ready')?.status === 'True');
    expect(await bindWorks(realm, id)).toBe(false);
    expect((statusOf(wrong)['userFederation'] as Json[] | undefined)?.[0]).toEqual({ name: 'corp', providerId: 'ldap', id, connectionTestPassed: false, connectionTestError: 'AuthenticationFailure' });
    expect(await reconcileNow('federated')).toMatchObject({ steps: [], writes: [] });
    await writeSecret(env.kube, namespace, 'corp-ldap', { password }, REALM_SECRET_LABELS);
    const restored = await env.kube.get(secretRef(namespace, 'corp-ldap'));
    const right = await waitForObject(env.kube, ref, 'the right bind credential to be sent', (object) => (statusOf(object)['userFederationSecretVersions'] as Json | undefined)?.['corp-ldap'] === restored?.metadata.resourceVersion && conditionOf(object, 'Ready')?.status === 'True');
    expect(await bindWorks(realm, id)).toBe(true);
    expect((statusOf(right)['userFederation'] as Json[] | undefined)?.[0]).toMatchObject({ connectionTestPassed: true });
    expect(await reconcileNow('federated')).toMatchObject({ steps: [], writes: [] });

    // A provider made by hand carries no marker: it stays when ours is pruned; unlisting our mapper removes it.
    expect(await env.admin.send('POST', `/realms/${realm}/components`, { name: 'by-hand', providerId: 'kerberos', providerType: STORAGE, config: { kerberosRealm: ['HAND.ORG'], serverPrincipal: ['HTTP/x@HAND.ORG'], keyTab: ['/tmp/x'] } })).toBe(201);
    await patchSpec(env.kube, ref, { userFederation: [corp({ editMode: 'UNSYNCED', sync: { fullSyncPeriod: 3600, changedSyncPeriod: 600, batchSize: 50 }, mappers: [email] })] });
    const pruned = await waitForReady(env.kube, ref);
    expect((await providersOf(realm)).map((p) => p['name']).sort()).toEqual(['by-hand', 'corp']);
    mappers = await mappersOf(realm, id);
    expect(mappers.has('phone')).toBe(false);
    expect(mappers.has('email')).toBe(true);
    expect(statusOf(pruned)['userFederation']).toEqual([{ name: 'corp', providerId: 'ldap', id, connectionTestPassed: true }]);
    expect(await reconcileNow('federated')).toMatchObject({ steps: [], writes: [] });
  });

  it('sends a Kerberos keyTab read from an opted-in Secret, again once the Secret changes, and writes nothing in between', async () => {
    const realm = file.newRealmName('kcfed-keytab');
    const ref = realmRef(namespace, 'keytab');
    const keyTabOf = async (): Promise<string[] | undefined> => configOf(await providerOf(realm, 'corp-kerberos'))['keyTab'];
    await writeSecret(env.kube, namespace, 'corp-keytab', { path: '/etc/keycloak/first.keytab' }, REALM_SECRET_LABELS);
    const { keyTab: _path, ...fromSecret } = kerberos['kerberos'] as Json;
    await createRealm(env.kube, namespace, 'keytab', { realmName: realm, userFederation: [{ ...kerberos, kerberos: { ...fromSecret, keyTabSecret: { name: 'corp-keytab', key: 'path' } } }] });
    const created = await waitForReady(env.kube, ref);
    expect(await keyTabOf()).toEqual(['/etc/keycloak/first.keytab']);
    expect(statusOf(created)['userFederationSecretVersions']).toEqual({ 'corp-keytab': (await env.kube.get(secretRef(namespace, 'corp-keytab')))?.metadata.resourceVersion });
    expect(await reconcileNow('keytab')).toMatchObject({ steps: [], writes: [] });

    await writeSecret(env.kube, namespace, 'corp-keytab', { path: '/etc/keycloak/second.keytab' }, REALM_SECRET_LABELS);
    const changed = await env.kube.get(secretRef(namespace, 'corp-keytab'));
    await waitForObject(env.kube, ref, 'the new keytab path to be sent', (object) => (statusOf(object)['userFederationSecretVersions'] as Json | undefined)?.['corp-keytab'] === changed?.metadata.resourceVersion && conditionOf(object, 'Ready')?.status === 'True');
    expect(await keyTabOf()).toEqual(['/etc/keycloak/second.keytab']);
    expect(await reconcileNow('keytab')).toMatchObject({ steps: [], writes: [] });
  });

  it('reports a bind credential Secret without the opt-in label as Stalled, naming the Secret and the label, and reads no value from it', async () => {
    const realm = file.newRealmName('kcfed-label');
    const ref = realmRef(namespace, 'unlabelled');
    await writeSecret(env.kube, namespace, 'corp-ldap-plain', { password });
    await createRealm(env.kube, namespace, 'unlabelled', { realmName: realm, userFederation: [corp({ connection: { url: ldap.url, bindDn: LDAP_ADMIN_DN, bindCredentialSecret: { name: 'corp-ldap-plain', key: 'password' }, usersDn: LDAP_PEOPLE_DN } })] });
    const stalled = await waitForObject(env.kube, ref, 'the realm to stall', (object) => conditionOf(object, 'Stalled')?.status === 'True');
    const message = conditionOf(stalled, 'Stalled')?.message ?? '';
    expect(conditionOf(stalled, 'Stalled')?.reason).toBe('UserFederationSecretNotOptedIn');
    expect(message).toContain('corp-ldap-plain');
    expect(message).toContain(REALM_SECRET_LABEL);
    expect(await env.admin.get(`/realms/${realm}`)).toBeUndefined();
  });
});
