// The operator's own Keycloak admin credentials, fixed while objects wait on them, against the real
// kube-apiserver and Keycloak 26: the objects waiting on a refused login are woken by the Secret's change at once,
// not at their next backoff (which these operators set to ten minutes, so only the wake can explain a recovery).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestNamespace, rememberSecret, testKeycloak } from '@keyward/test-env';
import {
  clientRef,
  conditionOf,
  controllerEnv,
  createClient,
  createRealm,
  realmRef,
  startOperator,
  unique,
  waitForObject,
  waitForReady,
  writeSecret,
  type ControllerEnv,
  type Operator,
} from './harness.js';

/** Longer than any wait of this file: a recovery within a wait comes from a wake, not from a retry. */
const BACKOFF = { baseMs: 10 * 60_000, maxMs: 10 * 60_000 };
const ADMIN = 'rotated-admin';

let env: ControllerEnv;
const realms: string[] = [];
const running: Operator[] = [];

beforeAll(async () => {
  env = await controllerEnv('kcadm');
}, 120_000);

afterAll(async () => {
  for (const operator of running) await operator.stop();
  for (const realm of realms) await env.admin.deleteRealm(realm);
  env.close();
});

const refusedLogin = (object: Parameters<typeof conditionOf>[0]): boolean => {
  const ready = conditionOf(object, 'Ready');
  return ready?.status === 'False' && ready.reason === 'AdminLoginRefused';
};

describe('the Keycloak admin credentials Secret', () => {
  it('wakes the realms and clients waiting on a refused login as soon as it is fixed', async () => {
    const keycloak = testKeycloak();
    const [served, waiting] = [await createTestNamespace('kcadm-served'), await createTestNamespace('kcadm-waiting')];
    // A realm in the first namespace, made by an operator whose credentials work; it stays Ready throughout, so
    // nothing about it wakes the client below.
    const shared = unique('kcadm-shared');
    realms.push(shared);
    running.push(await startOperator(env.kube, { name: 'admin-served', namespaces: [served], config: env.config(), backoff: BACKOFF }));
    await createRealm(env.kube, served, 'shared', { realmName: shared, clientAuthorizationGrants: [waiting] });
    await waitForReady(env.kube, realmRef(served, 'shared'));

    // An operator of the second namespace logs in with a Secret whose client secret is wrong.
    await writeSecret(env.kube, env.operatorNamespace, ADMIN, { 'client-id': keycloak.clientId, 'client-secret': rememberSecret(unique('wrong')) });
    const config = { ...env.config(), keycloakAdminSecret: { namespace: env.operatorNamespace, name: ADMIN } };
    running.push(await startOperator(env.kube, { name: 'admin-waiting', namespaces: [waiting], config, backoff: BACKOFF }));
    const own = unique('kcadm-own');
    realms.push(own);
    await createRealm(env.kube, waiting, 'own', { realmName: own });
    await createClient(env.kube, waiting, 'app', { clientId: unique('app'), realmRef: { name: 'shared', namespace: served } });
    await waitForObject(env.kube, realmRef(waiting, 'own'), 'the realm to wait on the refused login', refusedLogin);
    await waitForObject(env.kube, clientRef(waiting, 'app'), 'the client to wait on the refused login', refusedLogin);
    expect(await env.admin.get(`/realms/${own}`)).toBeUndefined();

    await writeSecret(env.kube, env.operatorNamespace, ADMIN, { 'client-id': keycloak.clientId, 'client-secret': keycloak.clientSecret });
    await waitForReady(env.kube, realmRef(waiting, 'own'));
    await waitForReady(env.kube, clientRef(waiting, 'app'));
    expect(await env.admin.get(`/realms/${own}`)).toBeDefined();
  });
});
