// What converging CRs cost the API server in reads. The CR, its password Secret and the KeystoneAPI of its
// namespace are all watched, so once those watches have listed a CR converges without a single read: counted
// by the controller's own client (onRequest sees every request but the long-lived watches).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { adminKubeConfig, createTestNamespace, keystoneAdmin, rememberSecret, testEnvironment, waitFor } from '@keyward/test-env';
import { coreTypes, findCondition } from '@keyward/kernel';
import { ContentType, KubeClient, type KubeRequestInfo } from '@keyward/runtime/io';
import { appCredType, keystoneApiType } from '../src/api.js';
import { readStatus } from '../src/decode.js';
import { startController, type RunningController } from './running-controller.js';

const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
const READ_VERBS = new Set(['get', 'list']);

let setup: KubeClient;
let namespace: string;
let userName: string;
let endpoint: string;
/** Reads of the controller's client, "<verb> <resource>", since the last take(). */
let reads = new Map<string, number>();
let kube: KubeClient;
let controller: RunningController | undefined;

function counted(info: KubeRequestInfo): void {
  if (!READ_VERBS.has(info.verb)) return;
  const key = `${info.verb} ${info.resource}`;
  reads.set(key, (reads.get(key) ?? 0) + 1);
}

/** The reads counted since the last call, and a fresh count from now. */
function take(): Record<string, number> {
  const taken = Object.fromEntries(reads);
  reads = new Map();
  return taken;
}

const crRef = (name: string) => ({ type: appCredType, namespace, name });
const keystoneApiRef = () => ({ type: keystoneApiType, namespace, name: 'keystone' });

async function createCr(name: string): Promise<void> {
  await setup.create(crRef(name), {
    apiVersion: 'keystone.openstack.org/v1beta1',
    kind: 'KeystoneApplicationCredential',
    metadata: { name, namespace },
    spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] },
  });
}

async function condition(name: string, type: string): Promise<string | undefined> {
  return findCondition(readStatus((await setup.get(crRef(name)))?.['status']).conditions, type)?.status;
}

/** Every CR has the condition at that status, and the controller has nothing left to do (not even a check). */
async function settled(names: readonly string[], type: string, status: string): Promise<void> {
  await waitFor(async () => {
    const statuses = await Promise.all(names.map((name) => condition(name, type)));
    return statuses.every((s) => s === status) ? true : undefined;
  }, { what: `${names.join(', ')}: ${type}=${status}`, timeoutMs: 90_000, intervalMs: 200 });
  await waitFor(() => {
    const state = controller?.queueState();
    return Promise.resolve(state?.depth === 0 && state.inFlight === 0 ? true : undefined);
  }, { what: 'the controller to be idle', timeoutMs: 30_000, intervalMs: 50 });
}

async function setKeystoneApi(ready: boolean): Promise<void> {
  await setup.patch(keystoneApiRef(), {
    status: {
      apiEndpoints: { internal: endpoint.replace(/\/v3$/, '') },
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', reason: ready ? 'Ready' : 'Upgrading', message: ready ? 'ok' : 'upgrading', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }],
    },
  }, ContentType.mergePatch, 'status');
}

beforeAll(async () => {
  setup = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('appcred-reads');
  userName = `svc-${randomBytes(3).toString('hex')}`;
  endpoint = testEnvironment().keystone?.url ?? '';
  rememberSecret(PASSWORD);
  await (await keystoneAdmin()).ensureServiceUser({ userName, password: PASSWORD });
  await setup.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: PASSWORD } });
  await setup.create(keystoneApiRef(), { apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneAPI', metadata: { name: 'keystone' }, spec: {} });
  await setKeystoneApi(true);

  kube = new KubeClient(adminKubeConfig(), { onRequest: counted });
  // Without a Keystone URL: the endpoint comes from the namespace's KeystoneAPI, as by default.
  controller = await startController(kube, { config: { revokeOnDelete: false, keystoneRetryMs: 1_000 }, namespace, concurrency: 4 });
}, 120_000);

afterAll(async () => {
  await controller?.stop();
  kube.close();
  setup.close();
});

describe('reads of the API server while KeystoneApplicationCredentials converge', () => {
  it('the first CR: the lists that fill the caches, and a read or two while the watches of what it refers to list', async () => {
    await createCr('ac-first');
    await settled(['ac-first'], 'Ready', 'True');
    const first = take();
    // The informers of the CRs and of the credential Secrets, and the watch of the password Secret by name.
    expect(first['list keystoneapplicationcredentials']).toBe(1);
    expect(first['list secrets']).toBe(2);
    // Its first reconcile lists the KeystoneAPIs before their watch exists; the watch lists them once.
    expect(first['list keystoneapis']).toBeGreaterThanOrEqual(2);
    // The watches' first lists wake the CR: a reconcile that runs before they are in reads the password or the
    // KeystoneAPIs from the API server, and one that saw the CR before its finalizer was added reads the CR
    // when the resourceVersion refuses its write. At most once each, and never again for this namespace.
    const early = (first['list keystoneapis'] ?? 0) - 2 + (first['get secrets'] ?? 0) + (first['get keystoneapplicationcredentials'] ?? 0);
    expect(early).toBeLessThanOrEqual(3);
  });

  it('every further CR: no read at all (its KeystoneAPI, password Secret and itself come from watches)', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `ac-more-${String(i)}`);
    take();
    await Promise.all(names.map(createCr));
    await settled(names, 'Ready', 'True');
    expect(take()).toEqual({});
  });

  it('a change of the KeystoneAPI reaches the CRs of its namespace at once, still without reads', async () => {
    const names = ['ac-first', ...Array.from({ length: 8 }, (_, i) => `ac-more-${String(i)}`)];
    take();
    await setKeystoneApi(false);
    await settled(names, 'KeystoneAPIReady', 'False');
    await setKeystoneApi(true);
    await settled(names, 'Ready', 'True');
    expect(take()).toEqual({});
  });
});
