// The defaults a realm and a client get where their spec is silent, against the real kube-apiserver and
// Keycloak 26: the Keycloak operator Keyward replaces turned the password grant, front-channel logout and the
// "forgot password" link on, where Keycloak leaves them off; a manifest migrated from it keeps them. Only at
// creation: a client that exists keeps what it has. What Keycloak itself does with those fields left out is
// measured here too; the corpus test shows a minimal manifest of that operator's getting its defaults.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clientRef, createClient, createRealm, patchSpec, realmRef, startRealmTestFile, unique, waitForReady, type RealmTestFile } from './harness.js';

let file: RealmTestFile;
let realm = '';

beforeAll(async () => {
  file = await startRealmTestFile('kcdef', 'creation-defaults');
  realm = file.newRealmName('kcdef');
}, 120_000);

afterAll(async () => {
  await file.close();
});

describe('the defaults of a new realm and client', () => {
  it('turn on what the replaced operator turned on, where the spec is silent, and keep what the spec states', async () => {
    await createRealm(file.env.kube, file.namespace, 'realm', { realmName: realm, clientAuthorizationGrants: [file.namespace] });
    await waitForReady(file.env.kube, realmRef(file.namespace, 'realm'));
    expect((await file.env.admin.get(`/realms/${realm}`))?.['resetPasswordAllowed']).toBe(true);

    const [silent, stated] = [unique('silent'), unique('stated')];
    await createClient(file.env.kube, file.namespace, 'silent', { clientId: silent, realmRef: { name: 'realm' } });
    await createClient(file.env.kube, file.namespace, 'stated', { clientId: stated, realmRef: { name: 'realm' }, settings: { directAccessGrantsEnabled: false, frontchannelLogout: false } });
    await waitForReady(file.env.kube, clientRef(file.namespace, 'silent'));
    await waitForReady(file.env.kube, clientRef(file.namespace, 'stated'));
    const pick = (client: Record<string, unknown> | undefined): unknown[] => [client?.['directAccessGrantsEnabled'], client?.['frontchannelLogout']];
    expect(pick(await file.env.admin.client(realm, silent))).toEqual([true, true]);
    expect(pick(await file.env.admin.client(realm, stated))).toEqual([false, false]);
  });

  it('leave a client that exists as it is when its spec is silent: an upgrade turns nothing on', async () => {
    const clientId = unique('existing');
    await createClient(file.env.kube, file.namespace, 'existing', { clientId, realmRef: { name: 'realm' } });
    await waitForReady(file.env.kube, clientRef(file.namespace, 'existing'));
    const client = await file.env.admin.client(realm, clientId);
    // Turned off by hand after creation, as a client made before these defaults would have it.
    expect(await file.env.admin.send('PUT', `/realms/${realm}/clients/${String(client?.['id'])}`, { ...client, directAccessGrantsEnabled: false })).toBe(204);
    await patchSpec(file.env.kube, clientRef(file.namespace, 'existing'), { description: 'reconciled again' });
    await waitForReady(file.env.kube, clientRef(file.namespace, 'existing'));
    const after = await file.env.admin.client(realm, clientId);
    expect([after?.['description'], after?.['directAccessGrantsEnabled']]).toEqual(['reconciled again', false]);
  });

  it('are not Keycloak 26.7\'s: what it does with the same fields left out', async () => {
    const admin = file.env.admin;
    const name = file.newRealmName('kcbare');
    expect(await admin.send('POST', '/realms', { realm: name, enabled: true })).toBe(201);
    const bare = await admin.get(`/realms/${name}`);
    // Keycloak's events config, which Keyward keeps where that operator's differed.
    expect([bare?.['resetPasswordAllowed'], bare?.['adminEventsEnabled'], bare?.['adminEventsDetailsEnabled'], bare?.['eventsListeners'], bare?.['internationalizationEnabled']]).toEqual([false, false, false, ['jboss-logging'], false]);
    // With the locales alone, internationalization stays off and no default locale is set.
    expect(await admin.send('PUT', `/realms/${name}`, { realm: name, supportedLocales: ['en', 'de'] })).toBe(204);
    const localized = await admin.get(`/realms/${name}`);
    expect([localized?.['internationalizationEnabled'], localized?.['defaultLocale']]).toEqual([false, undefined]);

    // An LDAP provider without an edit mode is refused; with one, Keycloak keeps only the keys it is sent.
    const realmId = String(bare?.['id']);
    const storage = 'org.keycloak.storage.UserStorageProvider';
    const ldap = (config: Record<string, string[]>) => ({ name: 'bare-ldap', providerId: 'ldap', providerType: storage, parentId: realmId, config: { connectionUrl: ['ldap://127.0.0.1:10389'], usersDn: ['ou=people,dc=example,dc=org'], ...config } });
    const refused = await admin.send('POST', `/realms/${name}/components`, ldap({})).then((status) => `answered ${String(status)}`, (error: unknown) => String(error));
    expect(refused).toContain('HTTP 400 Edit Mode is mandatory');
    expect(await admin.send('POST', `/realms/${name}/components`, ldap({ editMode: ['READ_ONLY'] }))).toBe(201);
    expect(await admin.send('POST', `/realms/${name}/components`, { name: 'bare-kerberos', providerId: 'kerberos', providerType: storage, parentId: realmId, config: { kerberosRealm: ['EXAMPLE.ORG'] } })).toBe(201);
    const providers = (await admin.get<{ name: string; config: Record<string, string[]> }[]>(`/realms/${name}/components`, { type: storage })) ?? [];
    const keys = (provider: string, wanted: readonly string[]): unknown[] => wanted.map((key) => providers.find((each) => each.name === provider)?.config[key]);
    expect(keys('bare-ldap', ['pagination', 'connectionPooling'])).toEqual([undefined, undefined]);
    expect(keys('bare-kerberos', ['editMode'])).toEqual([undefined]);

    // A role policy without fetchRoles and a group policy without groupsClaim.
    expect(await admin.send('POST', `/realms/${name}/roles`, { name: 'member' })).toBe(201);
    expect(await admin.send('POST', `/realms/${name}/groups`, { name: 'staff' })).toBe(201);
    const clientId = unique('bare');
    expect(await admin.send('POST', `/realms/${name}/clients`, { clientId, publicClient: false, serviceAccountsEnabled: true, authorizationServicesEnabled: true })).toBe(201);
    const server = `/realms/${name}/clients/${String((await admin.client(name, clientId))?.['id'])}/authz/resource-server`;
    expect(await admin.send('POST', `${server}/policy/role`, { name: 'members', roles: [{ id: 'member' }] })).toBe(201);
    expect(await admin.send('POST', `${server}/policy/group`, { name: 'staff', groups: [{ path: '/staff' }] })).toBe(201);
    const policies = (await admin.get<{ name: string; config?: Record<string, string> }[]>(`${server}/policy`)) ?? [];
    const policyConfig = (policy: string): Record<string, string> => policies.find((each) => each.name === policy)?.config ?? {};
    expect([policyConfig('members')['fetchRoles'], policyConfig('staff')['groupsClaim']]).toEqual([undefined, undefined]);
  });
});
