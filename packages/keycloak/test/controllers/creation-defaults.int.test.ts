// The defaults a realm and a client get where their spec is silent, against the real kube-apiserver and
// Keycloak 26: the Keycloak operator Keyward replaces turned the password grant, front-channel logout and the
// "forgot password" link on, where Keycloak leaves them off; a manifest migrated from it keeps them. Only at
// creation: a client that exists keeps what it has.
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
});
