// Refusals against the real Keycloak 26: a spec Keycloak refuses with 400 is sent once, whatever wakes the
// object afterwards (its realm changing, a resync, a restart of the operator), until the spec changes; and a
// realm or client the operator may not take over, and an outage of Keycloak, are told by one Warning event
// per transition, not one per wake-up or retry.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { KubeObject, ObjectRef } from '@keyward/kernel';
import { ContentType } from '@keyward/runtime/io';
import { createTestNamespace, waitFor } from '@keyward/test-env';
import {
  clientRef,
  conditionOf,
  controllerEnv,
  createClient,
  createRealm,
  patchSpec,
  realmRef,
  startOperator,
  startTcpProxy,
  statusOf,
  unique,
  waitForReady,
  waitForRefusal,
  WAIT_MS,
  type ControllerEnv,
  type Operator,
} from './harness.js';

let env: ControllerEnv;
let team: string;
let other: string;
let operator: Operator;
/** Every operator this file started, the one running last. */
const operators: Operator[] = [];
const sharedRealm = unique('kcx-shared');
const handMade = unique('kcx-hand');
const refusedRealm = unique('kcx-refused');

const start = async (): Promise<Operator> => {
  operator = await startOperator(env.kube, { name: 'refusals', namespaces: [team, other], config: env.config() });
  operators.push(operator);
  return operator;
};

beforeAll(async () => {
  env = await controllerEnv('kcx');
  team = await createTestNamespace('kcx-team');
  other = await createTestNamespace('kcx-other');
  await start();
  await createRealm(env.kube, team, 'shared', { realmName: sharedRealm, clientAuthorizationGrants: [team, other] });
  await waitForReady(env.kube, realmRef(team, 'shared'));
}, 180_000);

afterAll(async () => {
  await operator.stop();
  for (const realm of [sharedRealm, handMade, refusedRealm]) await env.admin.deleteRealm(realm);
  env.close();
});

const refusedWith = (ref: ObjectRef, reason: string): Promise<KubeObject | undefined> => waitForRefusal(env.kube, ref, reason);

/** Reconciles the operator's controller finished: "keycloak-realm", "keycloak-client". */
const reconciles = (controller: string): number => operator.reconciles.get(controller) ?? 0;
const clientReconciles = (): number => reconciles('keycloak-client');

/** Runs `wake` and waits until `controller` has finished `count` more reconciles. */
async function afterReconciles(wake: () => unknown, count = 1, controller = 'keycloak-client'): Promise<void> {
  const before = reconciles(controller);
  await wake();
  await waitFor(() => Promise.resolve(reconciles(controller) >= before + count ? true : undefined), { what: `${controller} to reconcile`, timeoutMs: WAIT_MS, intervalMs: 100 });
}

/** The Warning events about the object `name` in `namespace`, by reason. */
async function warnings(namespace: string, name: string): Promise<string[]> {
  const events = await env.kube.raw<{ items: { reason: string; type: string; regarding: { name: string } }[] }>({ method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, what: 'list events', verb: 'list', resource: 'events' });
  return events.items.filter((event) => event.regarding.name === name && event.type === 'Warning').map((event) => event.reason).sort();
}

/** Client creations Keycloak refused with 400, across every operator this file started. */
const refusedCreations = (): number => operators.flatMap((o) => o.requests).filter((r) => r.operation === 'create_client' && r.status === 400).length;

describe('a spec Keycloak refuses with 400', () => {
  // The codec and the schema take any rootUrl; Keycloak 26 refuses one with the javascript: scheme.
  const illegal = { clientId: unique('kcx-illegal'), realmRef: { name: 'shared', namespace: team }, rootUrl: 'javascript:alert(1)' };
  const ref = (): ObjectRef => clientRef(team, 'illegal');

  it('is sent once, and its generation recorded', async () => {
    await createClient(env.kube, team, 'illegal', illegal);
    const refused = await refusedWith(ref(), 'BadRequest');
    expect(conditionOf(refused, 'Ready')?.message).toContain('Root URL uses an illegal scheme');
    expect(statusOf(refused)['refusedGeneration']).toBe(refused?.metadata.generation);
    expect(refusedCreations()).toBe(1);
  });

  it('is not sent again when its realm changes, on a resync, or after a restart of the operator', async () => {
    // A change the client reads of its realm (its grants), so the client is woken by it.
    await afterReconciles(() => patchSpec(env.kube, realmRef(team, 'shared'), { displayName: 'Shared, changed', clientAuthorizationGrants: [team, other, 'kcx-later'] }));
    await afterReconciles(() => { operator.resync(); });
    await operator.stop();
    await start();
    await waitFor(() => Promise.resolve(clientReconciles() >= 1 ? true : undefined), { what: 'the restarted operator to reconcile the client', timeoutMs: WAIT_MS, intervalMs: 100 });
    expect(refusedCreations()).toBe(1);
    expect(await warnings(team, 'illegal')).toEqual(['BadRequest']);
  });

  it('is sent again once the spec changes, and the record goes when Keycloak takes it', async () => {
    await patchSpec(env.kube, ref(), { rootUrl: 'https://shop.example.com' });
    const ready = await waitForReady(env.kube, ref());
    expect(statusOf(ready)).not.toHaveProperty('refusedGeneration');
    expect(refusedCreations()).toBe(1);
  });
});

describe('a realm spec Keycloak refuses with 400', () => {
  // The codec and the schema take any providerId; Keycloak refuses one it has no provider for.
  const ref = (): ObjectRef => realmRef(team, 'refused');
  const creations = (): number => operators.flatMap((o) => o.requests).filter((r) => r.operation === 'create_identityProvider' && r.status === 400).length;

  it('is sent once across a resync and a change of its labels, and again once the spec changes', async () => {
    await createRealm(env.kube, team, 'refused', { realmName: refusedRealm, identityProviders: [{ alias: 'nowhere', providerId: 'no-such-provider' }] });
    const refused = await refusedWith(ref(), 'BadRequest');
    expect(statusOf(refused)['refusedGeneration']).toBe(refused?.metadata.generation);
    await afterReconciles(() => { operator.resync(); }, 2, 'keycloak-realm');
    await afterReconciles(() => env.kube.patch(ref(), { metadata: { labels: { woken: 'yes' } } }, ContentType.mergePatch), 1, 'keycloak-realm');
    expect(creations()).toBe(1);
    await patchSpec(env.kube, ref(), { identityProviders: null });
    const ready = await waitForReady(env.kube, ref());
    expect(statusOf(ready)).not.toHaveProperty('refusedGeneration');
    expect(creations()).toBe(1);
  });
});

describe('what the operator may not take over is told by one Warning event', () => {
  it('a hand-made realm (NotOwned), through a resync and a change of its labels', async () => {
    // A realm's creation may outlast the admin client's patience on a loaded machine; Keycloak finishes it anyway.
    await env.admin.send('POST', '/realms', { realm: handMade, enabled: true }).catch(() => undefined);
    await waitFor(async () => ((await env.admin.get(`/realms/${handMade}`)) === undefined ? undefined : true), { what: 'the hand-made realm', timeoutMs: WAIT_MS, intervalMs: 500 });
    await createRealm(env.kube, team, 'hand-made', { realmName: handMade });
    await refusedWith(realmRef(team, 'hand-made'), 'NotOwned');
    await afterReconciles(() => { operator.resync(); }, 2, 'keycloak-realm');
    await afterReconciles(() => env.kube.patch(realmRef(team, 'hand-made'), { metadata: { labels: { woken: 'yes' } } }, ContentType.mergePatch), 1, 'keycloak-realm');
    expect(await warnings(team, 'hand-made')).toEqual(['NotOwned']);
  });

  it('a realm another object owns (OwnedByAnother), and a client of a clientId another namespace holds', async () => {
    const clientId = unique('kcx-taken');
    await createClient(env.kube, other, 'first', { clientId, realmRef: { name: 'shared', namespace: team } });
    await waitForReady(env.kube, clientRef(other, 'first'));
    await createClient(env.kube, team, 'second', { clientId, realmRef: { name: 'shared', namespace: team } });
    await createRealm(env.kube, other, 'copy', { realmName: sharedRealm });
    await refusedWith(clientRef(team, 'second'), 'Conflict');
    await refusedWith(realmRef(other, 'copy'), 'OwnedByAnother');
    await afterReconciles(() => { operator.resync(); }, 2);
    await refusedWith(realmRef(other, 'copy'), 'OwnedByAnother');
    expect(await warnings(team, 'second')).toEqual(['Conflict']);
    expect(await warnings(other, 'copy')).toEqual(['OwnedByAnother']);
  });
});

describe('an outage of Keycloak', () => {
  it('is told by one Warning event per reason, not per retry', async () => {
    const namespace = await createTestNamespace('kcx-outage');
    const realm = unique('kcx-outage');
    const proxy = await startTcpProxy(env.url);
    const behind = await startOperator(env.kube, { name: 'refusals-outage', namespaces: [namespace], config: env.config(proxy.url), backoff: { baseMs: 100, maxMs: 1_000 } });
    try {
      await createRealm(env.kube, namespace, 'realm', { realmName: realm });
      await waitForReady(env.kube, realmRef(namespace, 'realm'));
      await proxy.close();
      // Woken with its spec as it is: each retry and wake-up meets the same outage.
      behind.resync();
      // Tried again and again (the breaker's refusals, its probes) while the realm says it is down.
      await waitFor(() => Promise.resolve(behind.requests.filter((r) => r.status === 0).length >= 6 ? true : undefined), { what: 'retries against the closed proxy', timeoutMs: WAIT_MS, intervalMs: 100 });
      behind.resync();
      await waitFor(async () => (conditionOf(await env.kube.get(realmRef(namespace, 'realm')), 'Ready')?.status === 'False' ? true : undefined), { what: 'the realm to report the outage', timeoutMs: WAIT_MS, intervalMs: 100 });
      const told = await warnings(namespace, 'realm');
      expect(told.length).toBeGreaterThanOrEqual(1);
      expect(new Set(told).size).toBe(told.length);
      await proxy.open();
      await waitForReady(env.kube, realmRef(namespace, 'realm'));
    } finally {
      await behind.stop();
      await proxy.close().catch(() => undefined);
      await env.admin.deleteRealm(realm);
    }
  });
});
