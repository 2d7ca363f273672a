// Drift against the real kube-apiserver and Keycloak 26: the operator's one resync loop (a 3 s period here)
// re-checks a converged realm and client without a write of any kind, then finds a client redirect URI and a
// realm display name changed through the admin API and sets both back by itself, each repair recorded once
// as a DriftRepaired Warning event (field names, no values) and in keyward_drift_repairs_total.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { KubeObject } from '@keyward/kernel';
import { createTestNamespace, waitFor } from '@keyward/test-env';
import {
  clientRef,
  controllerEnv,
  createClient,
  createRealm,
  realmRef,
  startOperator,
  unique,
  waitForReady,
  writesIn,
  WAIT_MS,
  type ControllerEnv,
  type Operator,
} from './harness.js';

/** Short, so that a test sees several rounds; the operator's default is 10 minutes. */
const PERIOD_MS = 3_000;
const REDIRECTS = ['https://shop.example/callback', 'https://shop.example/silent'];

let env: ControllerEnv;
let namespace: string;
let operator: Operator;
let realm: string;

interface DriftEvent {
  readonly reason: string;
  readonly type: string;
  readonly note: string;
  readonly regarding: { readonly kind: string; readonly name: string };
}

async function driftEvents(): Promise<DriftEvent[]> {
  const events = await env.kube.raw<{ items: DriftEvent[] }>({
    method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, what: 'list events', verb: 'list', resource: 'events',
  });
  return events.items.filter((event) => event.reason === 'DriftRepaired');
}

/** keyward_drift_repairs_total of one kind in the test's namespace, 0 before the first. */
async function repairsCounted(kind: string): Promise<number> {
  const text = await operator.metrics.registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`keyward_drift_repairs_total{kind="${kind}",namespace="${namespace}"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

/** Waits until the loop has reconciled each controller's objects `rounds` more times. */
async function loopRounds(rounds: number): Promise<void> {
  const start = new Map(operator.reconciles);
  await waitFor(async () => Promise.resolve(['keycloak-realm', 'keycloak-client'].every((c) => (operator.reconciles.get(c) ?? 0) >= (start.get(c) ?? 0) + rounds) ? true : undefined), {
    what: `${String(rounds)} rounds of the resync loop`, timeoutMs: WAIT_MS, intervalMs: 100,
  });
}

const keycloakClient = async (): Promise<Record<string, unknown>> => {
  const found = await env.admin.client(realm, 'shop-web');
  if (found === undefined) throw new Error('client shop-web is not in Keycloak');
  return found;
};

beforeAll(async () => {
  env = await controllerEnv('kcd');
  namespace = await createTestNamespace('kcd-ctl');
  operator = await startOperator(env.kube, { name: 'drift', namespaces: [namespace], config: { ...env.config(), keycloakResyncPeriod: PERIOD_MS } });
  realm = unique('kcd');
  await createRealm(env.kube, namespace, 'shop', { realmName: realm, displayName: 'Shop', clientAuthorizationGrants: [namespace] });
  await waitForReady(env.kube, realmRef(namespace, 'shop'));
  await createClient(env.kube, namespace, 'web', { clientId: 'shop-web', realmRef: { name: 'shop', namespace }, redirectUris: REDIRECTS });
  await waitForReady(env.kube, clientRef(namespace, 'web'));
}, 180_000);

afterAll(async () => {
  await operator.stop();
  await env.admin.deleteRealm(realm);
  env.close();
});

describe('the resync loop', () => {
  it('re-checks a converged realm and client with no write at all: not in Keycloak, not in Kubernetes', async () => {
    // Let any reconcile the creation caused finish before counting.
    await loopRounds(1);
    const before = await Promise.all([env.kube.get(realmRef(namespace, 'shop')), env.kube.get(clientRef(namespace, 'web'))]);
    const mark = operator.requests.length;
    await loopRounds(2);
    expect(writesIn(operator.requests.slice(mark))).toEqual([]);
    // Reads did happen: the checks went to Keycloak.
    expect(operator.requests.slice(mark).map((r) => r.operation)).toEqual(expect.arrayContaining(['get_realm', 'find_client']));
    const after = await Promise.all([env.kube.get(realmRef(namespace, 'shop')), env.kube.get(clientRef(namespace, 'web'))]);
    expect(after.map((o: KubeObject | undefined) => o?.metadata.resourceVersion)).toEqual(before.map((o: KubeObject | undefined) => o?.metadata.resourceVersion));
    expect(await driftEvents()).toEqual([]);
    expect(await repairsCounted('KeycloakRealm')).toBe(0);
    expect(await repairsCounted('KeycloakClient')).toBe(0);
  });

  it('sets back a redirect URI removed in Keycloak, by itself, and records the repair once', async () => {
    const client = await keycloakClient();
    expect(await env.admin.send('PUT', `/realms/${realm}/clients/${String(client['id'])}`, { ...client, redirectUris: [REDIRECTS[0]] })).toBe(204);
    expect((await keycloakClient())['redirectUris']).toEqual([REDIRECTS[0]]);
    // Nothing changed in Kubernetes: only the loop's check can find this.
    await waitFor(async () => {
      const uris = (await keycloakClient())['redirectUris'] as string[];
      return [...uris].sort().join() === [...REDIRECTS].sort().join() ? true : undefined;
    }, { what: 'the resync loop to restore the redirect URI', timeoutMs: WAIT_MS, intervalMs: 250 });
    const event = await waitFor(async () => (await driftEvents()).find((e) => e.regarding.kind === 'KeycloakClient'), { what: 'the DriftRepaired event of the client', timeoutMs: WAIT_MS, intervalMs: 250 });
    expect(event).toMatchObject({ type: 'Warning', regarding: { kind: 'KeycloakClient', name: 'web' } });
    expect(event.note).toBe(`client shop-web in realm ${realm} was changed in Keycloak out of band; set back client shop-web in realm ${realm} (redirectUris)`);
    // The repair holds: later rounds find nothing to do, so it is counted once.
    await loopRounds(2);
    expect(await repairsCounted('KeycloakClient')).toBe(1);
    expect((await driftEvents()).filter((e) => e.regarding.kind === 'KeycloakClient')).toHaveLength(1);
  });

  it('sets back a realm display name changed in Keycloak, and records the repair once', async () => {
    expect(await env.admin.send('PUT', `/realms/${realm}`, { displayName: 'Changed by hand' })).toBe(204);
    expect((await env.admin.get(`/realms/${realm}`))?.['displayName']).toBe('Changed by hand');
    await waitFor(async () => ((await env.admin.get(`/realms/${realm}`))?.['displayName'] === 'Shop' ? true : undefined), {
      what: 'the resync loop to restore the display name', timeoutMs: WAIT_MS, intervalMs: 250,
    });
    const event = await waitFor(async () => (await driftEvents()).find((e) => e.regarding.kind === 'KeycloakRealm'), { what: 'the DriftRepaired event of the realm', timeoutMs: WAIT_MS, intervalMs: 250 });
    expect(event).toMatchObject({ type: 'Warning', regarding: { kind: 'KeycloakRealm', name: 'shop' } });
    expect(event.note).toBe(`realm ${realm} was changed in Keycloak out of band; set back realm ${realm} (displayName)`);
    expect(event.note).not.toContain('Changed by hand');
    await waitForReady(env.kube, realmRef(namespace, 'shop'));
    await loopRounds(2);
    expect(await repairsCounted('KeycloakRealm')).toBe(1);
    expect(await repairsCounted('KeycloakClient')).toBe(1);
    expect((await driftEvents()).filter((e) => e.regarding.kind === 'KeycloakRealm')).toHaveLength(1);
  });
});
