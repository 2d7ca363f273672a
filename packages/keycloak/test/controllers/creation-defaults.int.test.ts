// The defaults a realm and a client get where their spec is silent, against the real kube-apiserver and
// Keycloak 26: the Keycloak operator Keyward replaces turned the password grant, front-channel logout and the
// "forgot password" link on, where Keycloak leaves them off; a manifest migrated from it keeps them. Only at
// creation: a client that exists keeps what it has.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestNamespace } from '@keyward/test-env';
import { clientRef, controllerEnv, createClient, createRealm, patchSpec, realmRef, startOperator, unique, waitForReady, type ControllerEnv, type Operator } from './harness.js';

let env: ControllerEnv;
let operator: Operator;
let namespace: string;
const realm = unique('kcdef');

beforeAll(async () => {
  env = await controllerEnv('kcdef');
  namespace = await createTestNamespace('kcdef');
  operator = await startOperator(env.kube, { name: 'creation-defaults', namespaces: [namespace], config: env.config() });
}, 120_000);

afterAll(async () => {
  await operator.stop();
  await env.admin.deleteRealm(realm);
  env.close();
});

describe('the defaults of a new realm and client', () => {
  it('turn on what the replaced operator turned on, where the spec is silent, and keep what the spec states', async () => {
    await createRealm(env.kube, namespace, 'realm', { realmName: realm, clientAuthorizationGrants: [namespace] });
    await waitForReady(env.kube, realmRef(namespace, 'realm'));
    expect((await env.admin.get(`/realms/${realm}`))?.['resetPasswordAllowed']).toBe(true);

    const [silent, stated] = [unique('silent'), unique('stated')];
    await createClient(env.kube, namespace, 'silent', { clientId: silent, realmRef: { name: 'realm' } });
    await createClient(env.kube, namespace, 'stated', { clientId: stated, realmRef: { name: 'realm' }, settings: { directAccessGrantsEnabled: false, frontchannelLogout: false } });
    await waitForReady(env.kube, clientRef(namespace, 'silent'));
    await waitForReady(env.kube, clientRef(namespace, 'stated'));
    const pick = (client: Record<string, unknown> | undefined): unknown[] => [client?.['directAccessGrantsEnabled'], client?.['frontchannelLogout']];
    expect(pick(await env.admin.client(realm, silent))).toEqual([true, true]);
    expect(pick(await env.admin.client(realm, stated))).toEqual([false, false]);
  });

  it('leave a client that exists as it is when its spec is silent: an upgrade turns nothing on', async () => {
    const clientId = unique('existing');
    await createClient(env.kube, namespace, 'existing', { clientId, realmRef: { name: 'realm' } });
    await waitForReady(env.kube, clientRef(namespace, 'existing'));
    const client = await env.admin.client(realm, clientId);
    // Turned off by hand after creation, as a client made before these defaults would have it.
    expect(await env.admin.send('PUT', `/realms/${realm}/clients/${String(client?.['id'])}`, { ...client, directAccessGrantsEnabled: false })).toBe(204);
    await patchSpec(env.kube, clientRef(namespace, 'existing'), { description: 'reconciled again' });
    await waitForReady(env.kube, clientRef(namespace, 'existing'));
    const after = await env.admin.client(realm, clientId);
    expect([after?.['description'], after?.['directAccessGrantsEnabled']]).toEqual(['reconciled again', false]);
  });
});
