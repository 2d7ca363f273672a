// A realm creation whose answer is lost while Keycloak goes on and makes the realm, against the real
// kube-apiserver and Keycloak 26 behind a proxy that loses that answer and then answers the next read 404 (as
// Keycloak does before the creating transaction commits): the second POST gets Keycloak's 409, the realm is read
// again at once, found ours, and goes Ready with no failure reported. A realm made by hand that the same 409
// path meets is still refused as not owned, and not adopted.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestNamespace, waitFor } from '@keyward/test-env';
import { conditionOf, controllerEnv, createRealm, realmRef, startOperator, unique, waitForReady, waitForRefusal, writesIn, WAIT_MS, type ControllerEnv, type Operator } from './harness.js';
import { startHttpFaultProxy, type HttpFaultProxy } from './http-fault-proxy.js';

let env: ControllerEnv;
let namespace: string;
let proxy: HttpFaultProxy;
let operator: Operator;
const realms: string[] = [];

beforeAll(async () => {
  env = await controllerEnv('kcdup');
  namespace = await createTestNamespace('kcdup-ctl');
  proxy = await startHttpFaultProxy(env.url);
  operator = await startOperator(env.kube, { name: 'create-conflict', namespaces: [namespace], config: env.config(proxy.url) });
}, 120_000);

afterAll(async () => {
  await operator.stop();
  await proxy.close();
  for (const realm of realms) await env.admin.deleteRealm(realm);
  env.close();
});

function newRealmName(prefix: string): string {
  const name = unique(prefix);
  realms.push(name);
  return name;
}

/**
 * A realm made as a person would, without our attributes. On a busy machine Keycloak may take longer than the
 * client waits to make a realm, and go on: the realm is waited for rather than its answer.
 */
async function makeByHand(realm: string): Promise<void> {
  await env.admin.send('POST', '/realms', { realm, enabled: true, displayName: 'By hand' }).catch(() => undefined);
  await waitFor(async () => ((await env.admin.get(`/realms/${realm}`).catch(() => undefined)) === undefined ? undefined : true), { what: `realm ${realm} made by hand`, timeoutMs: WAIT_MS, intervalMs: 500 });
}

/** The Warning events about the object `name`, by reason. */
async function warnings(name: string): Promise<string[]> {
  const events = await env.kube.raw<{ items: { reason: string; type: string; regarding: { name: string } }[] }>({ method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, what: 'list events', verb: 'list', resource: 'events' });
  return events.items.filter((event) => event.regarding.name === name && event.type === 'Warning').map((event) => event.reason).sort();
}

/** The operator's requests about `realm`'s creation from its first POST on: operation and status, in order. */
const creationRequests = (): string[] => {
  const first = operator.requests.findIndex((r) => r.operation === 'create_realm');
  return operator.requests.slice(first).filter((r) => ['create_realm', 'find_created', 'get_realm'].includes(r.operation)).map((r) => `${r.operation} ${String(r.status)}`);
};

describe('a realm creation Keycloak answers 409', () => {
  it('after a creation whose answer was lost: reads the realm again at once, finds it ours, and goes Ready without a reported failure', async () => {
    const realm = newRealmName('kcdup');
    proxy.arm('POST', '/admin/realms', { kind: 'loseAnswer' });
    proxy.arm('GET', `/admin/realms/${realm}`, { kind: 'notFound' });
    await createRealm(env.kube, namespace, 'lost-answer', { realmName: realm, displayName: 'Lost answer' });
    const ready = await waitForReady(env.kube, realmRef(namespace, 'lost-answer'));
    expect(proxy.pending()).toBe(0);
    // The lost answer (0), the read answered 404, then Keycloak's 409, the read right after it that finds the
    // realm, and the next reconcile's read.
    const sent = creationRequests();
    expect(sent.slice(0, 2)).toEqual(['create_realm 0', 'get_realm 404']);
    const conflict = sent.indexOf('create_realm 409');
    expect(sent.slice(conflict, conflict + 3)).toEqual(['create_realm 409', 'find_created 200', 'get_realm 200']);
    expect(sent.slice(conflict + 3)).not.toContain('create_realm 409');
    expect(conditionOf(ready, 'Ready')?.message).toContain(`realm ${realm} matches the spec`);
    // The 409 was never reported: no Conflict in status on the way, nor a Warning event for it.
    expect(await warnings('lost-answer')).not.toContain('Conflict');
    const attributes = (await env.admin.get<{ attributes?: Record<string, string> }>(`/realms/${realm}`))?.attributes;
    expect(attributes).toMatchObject({ 'io.kubernetes.cr-namespace': namespace, 'io.kubernetes.cr-name': 'lost-answer' });
    expect((await env.admin.get<{ displayName?: string }>(`/realms/${realm}`))?.displayName).toBe('Lost answer');
  });

  it('meeting a realm made by hand: read again at once, refused as not owned, and left as it is', async () => {
    const realm = newRealmName('kcdup-hand');
    await makeByHand(realm);
    // Hidden from the reconcile that adds the finalizer and from the one that plans the creation.
    proxy.arm('GET', `/admin/realms/${realm}`, { kind: 'notFound' });
    proxy.arm('GET', `/admin/realms/${realm}`, { kind: 'notFound' });
    const before = operator.requests.length;
    await createRealm(env.kube, namespace, 'by-hand', { realmName: realm, displayName: 'Taken over?' });
    const refused = await waitForRefusal(env.kube, realmRef(namespace, 'by-hand'), 'NotOwned');
    expect(proxy.pending()).toBe(0);
    const sent = operator.requests.slice(before).filter((r) => ['create_realm', 'find_created', 'get_realm'].includes(r.operation)).map((r) => `${r.operation} ${String(r.status)}`);
    expect(sent.slice(0, 5)).toEqual(['get_realm 404', 'get_realm 404', 'create_realm 409', 'find_created 200', 'get_realm 200']);
    expect(conditionOf(refused, 'Ready')?.message).toContain('no KeycloakRealm owns it');
    expect(writesIn(operator.requests.slice(before))).toEqual(['create_realm']);
    const held = await env.admin.get<{ displayName?: string; attributes?: Record<string, string> }>(`/realms/${realm}`);
    expect(held?.displayName).toBe('By hand');
    expect(held?.attributes?.['io.kubernetes.cr-name']).toBeUndefined();
  });
});
