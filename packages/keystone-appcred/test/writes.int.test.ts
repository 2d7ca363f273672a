// What a new KeystoneApplicationCredential costs the API server in writes, as the API server records them in
// its audit log: the controller runs as a ServiceAccount of its own (only ServiceAccounts are audited), against
// the real Keystone.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { WRITE_VERBS, adminKubeConfig, createTestNamespace, keystoneAdmin, kubeConfigFor, rememberSecret, serviceAccountIdentity, settledAuditEventsOf, testEnvironment, waitFor, type AuditEvent, type ServiceAccountIdentity } from '@keyward/test-env';
import { coreTypes, findCondition } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import { appCredType, credentialSecretName, serviceOf } from '../src/api.js';
import { readStatus } from '../src/decode.js';
import { startController, type RunningController } from './running-controller.js';

const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
const CRS = 4;
const roleBinding = { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding', plural: 'rolebindings', namespaced: true } as const;

let setup: KubeClient;
let namespace: string;
let userName: string;
let operator: ServiceAccountIdentity;
let kube: KubeClient | undefined;
let controller: RunningController | undefined;

const names = Array.from({ length: CRS }, (_, i) => `ac-writes-${String(i)}`);
const crRef = (name: string) => ({ type: appCredType, namespace, name });

/** "<verb> <resource>[/<subresource>] <name> <code>", as the audit log records a request. */
function described(event: AuditEvent): string {
  const resource = [event.objectRef?.resource, event.objectRef?.subresource].filter(Boolean).join('/');
  return `${event.verb} ${resource} ${event.objectRef?.name ?? '?'} ${String(event.responseStatus?.code ?? 0)}`;
}

/** The operator's writes in its namespace, in the order the API server completed them. */
async function writesOfOperator(): Promise<AuditEvent[]> {
  return (await settledAuditEventsOf(operator, namespace)).filter((event) => WRITE_VERBS.has(event.verb) && event.objectRef?.namespace === namespace);
}

async function ready(name: string): Promise<boolean> {
  const status = readStatus((await setup.get(crRef(name)))?.['status']);
  return findCondition(status.conditions, 'Ready')?.status === 'True';
}

beforeAll(async () => {
  setup = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('appcred-writes');
  operator = await serviceAccountIdentity(namespace, 'operator');
  // Everything in its namespace, which is all it watches.
  await setup.create({ type: roleBinding, namespace, name: 'operator' }, {
    metadata: { name: 'operator', namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: 'operator', namespace }],
  });
  userName = `svc-${randomBytes(3).toString('hex')}`;
  rememberSecret(PASSWORD);
  await (await keystoneAdmin()).ensureServiceUser({ userName, password: PASSWORD });
  await setup.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: PASSWORD } });

  kube = new KubeClient(kubeConfigFor({ kubeconfig: operator.kubeconfig }));
  const keystoneUrl = testEnvironment().keystone?.url ?? '';
  controller = await startController(kube, { config: { revokeOnDelete: false, keystoneRetryMs: 1_000, keystoneUrl }, namespace, concurrency: 4 });
}, 120_000);

afterAll(async () => {
  await controller?.stop();
  kube?.close();
  setup.close();
});

describe('writes to the API server for new KeystoneApplicationCredentials', () => {
  it('three per credential, in this order: the CR\'s metadata (finalizer and name), the Secret, the status', async () => {
    await Promise.all(names.map((name) => setup.create(crRef(name), {
      apiVersion: 'keystone.openstack.org/v1beta1',
      kind: 'KeystoneApplicationCredential',
      metadata: { name, namespace },
      spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] },
    })));
    await waitFor(async () => ((await Promise.all(names.map(ready))).every(Boolean) ? true : undefined), { what: 'every CR to be Ready', timeoutMs: 90_000, intervalMs: 200 });
    await waitFor(() => {
      const state = controller?.queueState();
      return Promise.resolve(state?.depth === 0 && state.inFlight === 0 ? true : undefined);
    }, { what: 'the controller to be idle', timeoutMs: 30_000, intervalMs: 50 });

    const writes = await writesOfOperator();
    for (const name of names) {
      const status = readStatus((await setup.get(crRef(name)))?.['status']);
      const secret = credentialSecretName(serviceOf(name), status.acID ?? '');
      const ofCr = writes.filter((event) => event.objectRef?.name === name || event.objectRef?.name === secret);
      const accepted = ofCr.filter((event) => (event.responseStatus?.code ?? 0) < 300).map(described);
      expect(accepted).toEqual([
        `patch keystoneapplicationcredentials ${name} 200`,
        `create secrets ${secret} 201`,
        `patch keystoneapplicationcredentials/status ${name} 200`,
      ]);
      // A reconcile woken by these writes may run before the cache holds the last of them: its first write
      // carries the resourceVersion it saw and is refused (409) before any Keystone call, changing nothing.
      const refused = ofCr.filter((event) => (event.responseStatus?.code ?? 0) >= 300).map(described);
      expect(refused.every((request) => request === `patch keystoneapplicationcredentials ${name} 409`)).toBe(true);
    }
    // Nothing else: no write to any other object of the namespace (events included).
    const others = writes.filter((event) => !names.includes(event.objectRef?.name ?? '') && event.objectRef?.resource !== 'secrets').map(described);
    expect(others).toEqual([]);
    expect(writes.filter((event) => event.verb === 'create' && event.objectRef?.resource === 'secrets')).toHaveLength(CRS);
  });
});
