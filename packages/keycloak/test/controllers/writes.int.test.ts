// What new KeycloakRealms and KeycloakClients cost the API server in writes, as the API server records them in
// its audit log: the controllers run as a ServiceAccount of their own (only ServiceAccounts are audited),
// against the real Keycloak.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WRITE_VERBS, createTestNamespace, kubeConfigFor, serviceAccountIdentity, settledAuditEventsOf, waitFor, type AuditEvent, type ServiceAccountIdentity } from '@keyward/test-env';
import { KubeClient } from '@keyward/runtime/io';
import { REALM_ANNOTATION } from '../../src/client/recorded-realm.js';
import { CLIENT_FINALIZER } from '../../src/types.js';
import { clientRef, controllerEnv, createClient, createRealm, credentialsSecretOf, realmRef, startOperator, statusOf, unique, waitForReady, WAIT_MS, type ControllerEnv, type Operator } from './harness.js';

const OBJECTS = 3;
const roleBinding = { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding', plural: 'rolebindings', namespaced: true } as const;

let env: ControllerEnv;
let namespace: string;
let identity: ServiceAccountIdentity;
let kube: KubeClient | undefined;
let operator: Operator | undefined;
const realms: string[] = [];

/** "<verb> <resource>[/<subresource>] <name> <code>", as the audit log records a request. */
function described(event: AuditEvent): string {
  const resource = [event.objectRef?.resource, event.objectRef?.subresource].filter(Boolean).join('/');
  return `${event.verb} ${resource} ${event.objectRef?.name ?? '?'} ${String(event.responseStatus?.code ?? 0)}`;
}

/** Everything in `at` for the operator's ServiceAccount. */
async function bindAdmin(at: string): Promise<void> {
  await env.kube.create({ type: roleBinding, namespace: at, name: 'operator' }, {
    metadata: { name: 'operator', namespace: at },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: 'operator', namespace }],
  });
}

/** The operator's writes in the test's namespace once the controllers are idle, in the order the API server completed them. */
async function writesOfOperator(): Promise<AuditEvent[]> {
  await waitFor(() => Promise.resolve(operator?.idle() === true ? true : undefined), { what: 'the controllers to be idle', timeoutMs: 30_000, intervalMs: 50 });
  return (await settledAuditEventsOf(identity, namespace)).filter((event) => WRITE_VERBS.has(event.verb) && event.objectRef?.namespace === namespace);
}

/** The accepted writes to `names`, in order; the refused ones must be stale views of the object itself (409). */
function acceptedWrites(writes: readonly AuditEvent[], object: string, names: readonly string[], resource: string): string[] {
  const of = writes.filter((event) => names.includes(event.objectRef?.name ?? ''));
  const refused = of.filter((event) => (event.responseStatus?.code ?? 0) >= 300).map(described);
  expect(refused.filter((request) => request !== `patch ${resource} ${object} 409`)).toEqual([]);
  return of.filter((event) => (event.responseStatus?.code ?? 0) < 300).map(described);
}

beforeAll(async () => {
  env = await controllerEnv('kcw');
  namespace = await createTestNamespace('kcw-ctl');
  identity = await serviceAccountIdentity(namespace, 'operator');
  // Its objects' namespace, and the operator namespace with Keycloak's admin credentials.
  await bindAdmin(namespace);
  await bindAdmin(env.operatorNamespace);
  kube = new KubeClient(kubeConfigFor({ kubeconfig: identity.kubeconfig }));
  operator = await startOperator(kube, { name: 'writes', namespaces: [namespace], config: env.config() });
}, 120_000);

afterAll(async () => {
  await operator?.stop();
  kube?.close();
  for (const realm of realms) await env.admin.deleteRealm(realm);
  env.close();
});

describe('writes to the API server for new Keycloak objects', () => {
  const names = Array.from({ length: OBJECTS }, (_, i) => `realm-${String(i)}`);
  const clients = Array.from({ length: OBJECTS }, (_, i) => `client-${String(i)}`);

  it('two per KeycloakRealm: the finalizer, then one status write that says Ready', async () => {
    await Promise.all(names.map((name) => {
      const realm = unique('kcw');
      realms.push(realm);
      // The last one with contents that a first reading must see before they are linked.
      const contents = name === names[OBJECTS - 1]
        ? { realmRoles: [{ name: 'viewer' }, { name: 'admin', composites: { realm: ['viewer'] } }], clientScopes: [{ name: 'shop-api' }], defaultClientScopes: ['shop-api'] }
        : {};
      return createRealm(env.kube, namespace, name, { realmName: realm, clientAuthorizationGrants: [namespace], ...contents });
    }));
    await Promise.all(names.map((name) => waitForReady(env.kube, realmRef(namespace, name))));

    const writes = await writesOfOperator();
    for (const name of names) {
      expect(acceptedWrites(writes, name, [name], 'keycloakrealms')).toEqual([`patch keycloakrealms ${name} 200`, `patch keycloakrealms/status ${name} 200`]);
    }
    expect(writes.filter((event) => !names.includes(event.objectRef?.name ?? '')).map(described)).toEqual([]);
  }, WAIT_MS * 2);

  // The Secret is made by server-side apply: a PATCH that creates, answered 201.
  it('three per confidential KeycloakClient: the finalizer with the realm, the credentials Secret, one status write', async () => {
    const before = (await writesOfOperator()).length;
    await Promise.all(clients.map((name, i) => createClient(env.kube, namespace, name, { clientId: unique('app'), realmRef: { name: names[i % OBJECTS] ?? '' } })));
    await Promise.all(clients.map((name) => waitForReady(env.kube, clientRef(namespace, name))));

    const writes = (await writesOfOperator()).slice(before);
    for (const [i, name] of clients.entries()) {
      const secret = `${name}-credentials`;
      expect(acceptedWrites(writes, name, [name, secret], 'keycloakclients')).toEqual([`patch keycloakclients ${name} 200`, `patch secrets ${secret} 201`, `patch keycloakclients/status ${name} 200`]);
      const client = await env.kube.get(clientRef(namespace, name));
      const realm = realms[i % OBJECTS];
      expect(client?.metadata.finalizers).toEqual([CLIENT_FINALIZER]);
      expect(client?.metadata.annotations?.[REALM_ANNOTATION]).toBe(realm);
      expect(statusOf(client)['realm']).toBe(realm);
      expect(await credentialsSecretOf(env.kube, namespace, name)).toBeDefined();
    }
    expect(writes.filter((event) => !clients.some((name) => event.objectRef?.name === name || event.objectRef?.name === `${name}-credentials`)).map(described)).toEqual([]);
  }, WAIT_MS * 2);
});
