// The operator's life around Keycloak, against the real kube-apiserver and Keycloak 26: a deletion while
// Keycloak cannot be reached keeps the finalizers and completes once it can (the controllers reach Keycloak
// through a proxy that the test closes, so the shared Keycloak keeps running), and a restart of the
// controllers makes no Keycloak write for objects that have converged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestNamespace, rememberSecret, waitFor } from '@keyward/test-env';
import {
  clientRef,
  controllerEnv,
  createClient,
  createRealm,
  realmRef,
  REALM_SECRET_LABELS,
  startOperator,
  startTcpProxy,
  unique,
  waitForGone,
  waitForReady,
  writeSecret,
  writesIn,
  WAIT_MS,
  type ControllerEnv,
  type Operator,
  type TcpProxy,
} from './harness.js';

let env: ControllerEnv;
const realms: string[] = [];
const running = new Set<Operator>();

beforeAll(async () => {
  env = await controllerEnv('kcl');
}, 120_000);

afterAll(async () => {
  for (const operator of running) await operator.stop();
  for (const realm of realms) await env.admin.deleteRealm(realm);
  env.close();
});

async function start(name: string, namespace: string, url?: string): Promise<Operator> {
  const operator = await startOperator(env.kube, { name, namespaces: [namespace], config: env.config(url), backoff: { baseMs: 100, maxMs: 1_000 } });
  running.add(operator);
  return operator;
}

async function stop(operator: Operator): Promise<void> {
  await operator.stop();
  running.delete(operator);
}

describe('the Keycloak controllers across an outage and a restart', () => {
  it('keeps the finalizers while Keycloak is unreachable during deletion, and completes the deletion once it is back', async () => {
    const namespace = await createTestNamespace('kcl-outage');
    const proxy: TcpProxy = await startTcpProxy(env.url);
    const operator = await start('outage', namespace, proxy.url);
    try {
      const realm = unique('kcl-outage');
      realms.push(realm);
      const clientId = unique('app');
      await createRealm(env.kube, namespace, 'realm', { realmName: realm, clientAuthorizationGrants: [namespace] });
      await createClient(env.kube, namespace, 'app', { clientId, realmRef: { name: 'realm' }, settings: { serviceAccountsEnabled: true } });
      await waitForReady(env.kube, realmRef(namespace, 'realm'));
      await waitForReady(env.kube, clientRef(namespace, 'app'));

      await proxy.close();
      const failuresBefore = operator.requests.filter((r) => r.status === 0).length;
      await env.kube.delete(clientRef(namespace, 'app'));
      await env.kube.delete(realmRef(namespace, 'realm'));
      // Both deletions were tried, and more than once, and failed for want of Keycloak.
      await waitFor(async () => Promise.resolve(operator.requests.filter((r) => r.status === 0).length >= failuresBefore + 4 ? true : undefined), { what: 'deletions to fail against the closed proxy', timeoutMs: WAIT_MS, intervalMs: 100 });
      for (const ref of [clientRef(namespace, 'app'), realmRef(namespace, 'realm')]) {
        const object = await env.kube.get(ref);
        expect(object?.metadata.deletionTimestamp).toBeDefined();
        expect(object?.metadata.finalizers?.length).toBe(1);
      }
      expect(await env.admin.get(`/realms/${realm}`)).toBeDefined();
      expect(await env.admin.client(realm, clientId)).toBeDefined();

      await proxy.open();
      await waitForGone(env.kube, clientRef(namespace, 'app'));
      await waitForGone(env.kube, realmRef(namespace, 'realm'));
      expect(await env.admin.get(`/realms/${realm}`)).toBeUndefined();
    } finally {
      await proxy.close().catch(() => undefined);
    }
  });

  it('makes no Keycloak write after a restart when every object has converged', async () => {
    const namespace = await createTestNamespace('kcl-restart');
    const realm = unique('kcl-restart');
    realms.push(realm);
    const password = rememberSecret(unique('smtp-pass'));
    await writeSecret(env.kube, namespace, 'smtp', { password }, REALM_SECRET_LABELS);
    let operator = await start('restart-1', namespace);
    await createRealm(env.kube, namespace, 'realm', {
      realmName: realm,
      displayName: 'Restart',
      clientAuthorizationGrants: [namespace],
      security: { bruteForceProtected: true, failureFactor: 5, sslRequired: 'external' },
      tokenSettings: { accessTokenLifespan: 600 },
      localization: { enabled: true, defaultLocale: 'en', supportedLocales: ['en', 'nl'] },
      smtpServer: { host: 'smtp.example.com', port: 587, from: 'noreply@example.com', auth: true, user: 'mailer', passwordSecret: { name: 'smtp', key: 'password' } },
      eventsConfig: { eventsEnabled: true, eventsListeners: ['jboss-logging'], enabledEventTypes: ['LOGIN'] },
      attributes: { tier: 'gold' },
      realmRoles: [{ name: 'viewer', attributes: { level: '1' } }, { name: 'admin', composites: { realm: ['viewer'] } }],
      clientScopes: [{ name: 'shop-api', protocolMappers: [{ name: 'audience', protocolMapper: 'oidc-audience-mapper', config: { 'included.custom.audience': 'shop' } }] }],
      defaultClientScopes: ['shop-api'],
    });
    await waitForReady(env.kube, realmRef(namespace, 'realm'));
    await createClient(env.kube, namespace, 'shop', {
      clientId: unique('shop'),
      realmRef: { name: 'realm' },
      redirectUris: ['https://shop.example.com/*'],
      webOrigins: ['https://shop.example.com'],
      postLogoutRedirectUris: ['https://shop.example.com/bye'],
      settings: { serviceAccountsEnabled: true, pkceCodeChallengeMethod: 'S256', accessTokenLifespan: 300 },
      defaultClientScopes: ['shop-api'],
      optionalClientScopes: ['phone'],
      protocolMappers: [{ name: 'team', protocolMapper: 'oidc-hardcoded-claim-mapper', config: { 'claim.name': 'team', 'claim.value': 'shop' } }],
      clientRoles: [{ name: 'buyer' }],
      serviceAccountRoles: { realmRoles: ['viewer'] },
      attributes: { team: 'shop' },
    });
    await createClient(env.kube, namespace, 'spa', { clientId: unique('spa'), realmRef: { name: 'realm' }, publicClient: true, redirectUris: ['https://spa.example.com/*'] });
    await waitForReady(env.kube, clientRef(namespace, 'shop'));
    await waitForReady(env.kube, clientRef(namespace, 'spa'));
    await stop(operator);

    operator = await start('restart-2', namespace);
    // The initial list: every object reconciled once by the fresh controllers.
    await waitFor(async () => Promise.resolve((operator.reconciles.get('keycloak-realm') ?? 0) >= 1 && (operator.reconciles.get('keycloak-client') ?? 0) >= 2 ? true : undefined), {
      what: 'the restarted controllers to reconcile every object',
      timeoutMs: WAIT_MS,
      intervalMs: 100,
    });
    // And once more each, on demand: nothing to do.
    const plans = await Promise.all([operator.reconcileRealm(namespace, 'realm'), operator.reconcileClient(namespace, 'shop'), operator.reconcileClient(namespace, 'spa')]);
    expect(plans.map((outcome) => outcome.plan?.steps.map((step) => `${step.action.kind}: ${step.reason}`))).toEqual([[], [], []]);
    const operations = operator.requests.map((r) => r.operation);
    expect(operations).toContain('get_realm');
    expect(operations).toContain('find_client');
    expect(writesIn(operator.requests)).toEqual([]);
    await stop(operator);
  });
});
