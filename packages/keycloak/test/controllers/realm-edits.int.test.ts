// A realm edited while it has clients, against the real kube-apiserver and Keycloak 26: the realm's status goes
// through applying the edit and back to Ready, and its clients, which read only its name, grants and whether
// Keycloak has it, neither flap to waiting nor write their status.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clientRef, conditionOf, createClient, createRealm, patchSpec, realmRef, startRealmTestFile, unique, waitForReady, type RealmTestFile } from './harness.js';

const CLIENTS = 5;
let file: RealmTestFile;

beforeAll(async () => {
  file = await startRealmTestFile('kcedit', 'realm-edits');
}, 120_000);

afterAll(async () => {
  await file.close();
});

describe('a realm edited under its clients', () => {
  it('applies the edits without its clients going to waiting or writing their status', async () => {
    const { env, namespace } = file;
    const realm = file.newRealmName('kcedit');
    await createRealm(env.kube, namespace, 'realm', { realmName: realm, displayName: 'First', clientAuthorizationGrants: [namespace] });
    await waitForReady(env.kube, realmRef(namespace, 'realm'));
    const names = Array.from({ length: CLIENTS }, (_, i) => `app-${String(i)}`);
    for (const name of names) await createClient(env.kube, namespace, name, { clientId: unique(name), realmRef: { name: 'realm' } });
    const before = new Map<string, string | undefined>();
    for (const name of names) before.set(name, (await waitForReady(env.kube, clientRef(namespace, name))).metadata.resourceVersion);

    for (const displayName of ['Second', 'Third']) {
      await patchSpec(env.kube, realmRef(namespace, 'realm'), { displayName });
      await waitForReady(env.kube, realmRef(namespace, 'realm'));
    }
    expect((await env.admin.get(`/realms/${realm}`))?.['displayName']).toBe('Third');

    // A client made after the edits is reconciled after any wake-up they caused: once it is Ready, those ran.
    await createClient(env.kube, namespace, 'late', { clientId: unique('late'), realmRef: { name: 'realm' } });
    await waitForReady(env.kube, clientRef(namespace, 'late'));
    for (const name of names) {
      const client = await env.kube.get(clientRef(namespace, name));
      expect([name, client?.metadata.resourceVersion, conditionOf(client, 'Ready')?.status]).toEqual([name, before.get(name), 'True']);
    }
  });
});
