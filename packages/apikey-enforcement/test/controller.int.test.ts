import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { adminKubeConfig, createTestNamespace, rememberSecret, waitFor } from '@keyward/test-env';
import { coreTypes, findCondition, type Condition, type KubeObject } from '@keyward/kernel';
import { ContentType, KubeClient, kubernetesRuntime } from '@keyward/runtime/io';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { Controller } from '@keyward/runtime/controller';
import { apiKeyType, enforcementSecretName } from '../src/api.js';
import { apiKeyController } from '../src/controller.js';

const KEY = rememberSecret(`key-${randomBytes(16).toString('hex')}`);
let kube: KubeClient;
let consumerA: string;
let consumerB: string;
let enforcement: string;
let stop: (() => Promise<void>) | undefined;

/** The APIs the controller uses (Kubernetes alone, no Keystone), events reported as `instance`. */
function apisFor(kubeClient: KubeClient, instance: string) {
  return apiSet(kubernetesRuntime(kubeClient, { reportingController: 'keyward.dev/apikey-enforcement', reportingInstance: instance }), controlRuntime);
}

const enforcementRef = (namespace: string, name: string) => ({ type: coreTypes.secret, namespace: enforcement, name: enforcementSecretName(namespace, name) });

async function createApiKey(namespace: string, name: string, secretName: string): Promise<void> {
  await kube.create({ type: apiKeyType, namespace, name }, {
    apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name, namespace },
    spec: { apiProductRef: { name: 'weather' }, secretRef: { name: secretName }, planTier: 'gold', useCase: 'test', requestedBy: { userId: 'alice', email: 'alice@example.com' } },
  });
}

async function setCondition(namespace: string, name: string, type: string): Promise<void> {
  await kube.patch({ type: apiKeyType, namespace, name }, {
    status: { conditions: [{ type, status: 'True', reason: type, message: 'by the test', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  }, ContentType.mergePatch, 'status');
}

async function createConsumerSecret(namespace: string, name: string): Promise<KubeObject> {
  return kube.create({ type: coreTypes.secret, namespace, name }, { metadata: { name }, stringData: { api_key: KEY } });
}

function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  return waitFor(probe, { what, timeoutMs: 60_000, intervalMs: 200 });
}

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  consumerA = await createTestNamespace('consumer-a');
  consumerB = await createTestNamespace('consumer-b');
  enforcement = await createTestNamespace('enforcement');
  const controllers = [consumerA, consumerB].map((namespace) => new Controller(apiKeyController, {
    kube, namespace, config: { enforcementNamespace: enforcement },
    apis: apisFor(kube, 'test'),
    backoff: { baseMs: 100, maxMs: 2_000 },
  }));
  await Promise.all(controllers.map((c) => c.start()));
  stop = async () => { await Promise.all(controllers.map((c) => c.stop())); };
}, 120_000);

afterAll(async () => {
  await stop?.();
  kube.close();
});

describe('the APIKey enforcement controller against the real API server', () => {
  it('creates the enforcement Secret on approval, leaves it alone afterwards, and deletes it on denial', async () => {
    const consumer = await createConsumerSecret(consumerA, 'key-1');
    await createApiKey(consumerA, 'one', 'key-1');
    await setCondition(consumerA, 'one', 'Approved');
    const created = await until('the enforcement Secret', () => kube.get(enforcementRef(consumerA, 'one')));
    expect(created.metadata.labels).toMatchObject({
      'devportal.kuadrant.io/apiproduct': 'weather', 'devportal.kuadrant.io/apikey': 'one', 'devportal.kuadrant.io/apikey-namespace': consumerA,
      'authorino.kuadrant.io/managed-by': 'authorino',
    });
    expect(created.metadata.annotations).toMatchObject({ 'secret.kuadrant.io/user-id': 'alice', 'secret.kuadrant.io/plan-id': 'gold' });
    expect(Buffer.from((created['data'] as Record<string, string>)['api_key'] ?? '', 'base64').toString()).toBe(KEY);

    // Pending again after approval: kept as it is (same uid and resourceVersion).
    await kube.patch({ type: apiKeyType, namespace: consumerA, name: 'one' }, { status: { conditions: null } }, ContentType.mergePatch, 'status');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const kept = await kube.get(enforcementRef(consumerA, 'one'));
    expect(kept?.metadata.uid).toBe(created.metadata.uid);
    expect(kept?.metadata.resourceVersion).toBe(created.metadata.resourceVersion);

    await setCondition(consumerA, 'one', 'Denied');
    await until('the enforcement Secret to be deleted', async () => ((await kube.get(enforcementRef(consumerA, 'one'))) === undefined ? true : undefined));
    const consumerAfter = await kube.get({ type: coreTypes.secret, namespace: consumerA, name: 'key-1' });
    expect(consumerAfter?.metadata.resourceVersion).toBe(consumer.metadata.resourceVersion);
  });

  it('gives the same APIKey name in two namespaces two Secrets, and deletes one with its APIKey', async () => {
    for (const namespace of [consumerA, consumerB]) {
      await createConsumerSecret(namespace, 'shared-key');
      await createApiKey(namespace, 'shared', 'shared-key');
      await setCondition(namespace, 'shared', 'Approved');
    }
    const a = await until('Secret for A', () => kube.get(enforcementRef(consumerA, 'shared')));
    const b = await until('Secret for B', () => kube.get(enforcementRef(consumerB, 'shared')));
    expect(a.metadata.name).not.toBe(b.metadata.name);

    await kube.delete({ type: apiKeyType, namespace: consumerA, name: 'shared' });
    await until('A\'s Secret to go with its APIKey', async () => ((await kube.get(enforcementRef(consumerA, 'shared'))) === undefined ? true : undefined));
    expect(await kube.get(enforcementRef(consumerB, 'shared'))).toBeDefined();
  });

  it('a controller of one namespace, started or resynced, leaves the enforcement Secrets of another namespace alone', async () => {
    await createConsumerSecret(consumerB, 'other-key');
    await createApiKey(consumerB, 'other', 'other-key');
    await setCondition(consumerB, 'other', 'Approved');
    const before = await until('Secret for B', () => kube.get(enforcementRef(consumerB, 'other')));

    // A second controller for A, as after a restart: its start and its resync look for orphans.
    const restarted = new Controller(apiKeyController, {
      kube, namespace: consumerA, config: { enforcementNamespace: enforcement },
      apis: apisFor(kube, 'test-restarted'),
    });
    await restarted.start();
    restarted.resync();
    await until('the restarted controller to go idle', () => {
      const state = restarted.queueState();
      return Promise.resolve(state.depth + state.inFlight + state.scheduled === 0 ? true : undefined);
    });
    await restarted.stop();
    expect((await kube.get(enforcementRef(consumerB, 'other')))?.metadata.uid).toBe(before.metadata.uid);
  });

  it('reports a missing consumer Secret and recovers when it appears', async () => {
    await createApiKey(consumerB, 'late', 'late-key');
    await setCondition(consumerB, 'late', 'Approved');
    const failed = await until('Failed=SecretNotFound', async () => {
      const object = await kube.get({ type: apiKeyType, namespace: consumerB, name: 'late' });
      const condition = findCondition((object?.['status'] as { conditions?: Condition[] } | undefined)?.conditions, 'Failed');
      return condition?.reason === 'SecretNotFound' ? condition : undefined;
    });
    expect(failed.message).toBe(`Secret ${consumerB}/late-key not found`);
    // Nothing polls: the failure is a plain plan (no error, no requeue) and the resync is 10 minutes away, so
    // within the wait only the watch on the referenced Secret can wake the APIKey.
    await createConsumerSecret(consumerB, 'late-key');
    await until('the enforcement Secret after recovery', () => kube.get(enforcementRef(consumerB, 'late')));
    // The status write that clears Failed follows the Secret's creation in the same plan.
    const conditions = await until('Failed to be cleared', async () => {
      const object = await kube.get({ type: apiKeyType, namespace: consumerB, name: 'late' });
      const list = (object?.['status'] as { conditions?: Condition[] } | undefined)?.conditions;
      return findCondition(list, 'Failed') === undefined ? list : undefined;
    });
    expect(findCondition(conditions, 'Approved')?.status).toBe('True');
  });

  it('reads the consumer Secrets of a bulk approval through a watch of their namespace, each key still its own', async () => {
    const namespace = await createTestNamespace('consumer-bulk');
    const bulk = 40;
    const keys = Array.from({ length: bulk }, () => rememberSecret(`key-${randomBytes(16).toString('hex')}`));
    for (const [i, key] of keys.entries()) {
      const name = `bulk-${String(i)}`;
      await kube.create({ type: coreTypes.secret, namespace, name }, { metadata: { name }, stringData: { api_key: key } });
      await createApiKey(namespace, name, name);
      await setCondition(namespace, name, 'Approved');
    }
    let consumerReads = 0;
    const counted = new KubeClient(adminKubeConfig(), { onRequest: (info) => { if (info.verb === 'get' && info.resource === 'secrets') consumerReads += 1; } });
    const controller = new Controller(apiKeyController, {
      kube: counted, namespace, config: { enforcementNamespace: enforcement },
      apis: apisFor(counted, 'test'),
      burstWatches: { threshold: 8 },
    });
    try {
      await controller.start();
      for (const [i, key] of keys.entries()) {
        const secret = await until(`enforcement Secret ${String(i)}`, () => kube.get(enforcementRef(namespace, `bulk-${String(i)}`)));
        expect(Buffer.from((secret['data'] as Record<string, string>)['api_key'] ?? '', 'base64').toString()).toBe(key);
      }
      // The first reads are GETs; once the namespace is watched, the rest come from memory.
      expect(consumerReads).toBeGreaterThanOrEqual(8);
      expect(consumerReads).toBeLessThan(bulk);
    } finally {
      await controller.stop();
      counted.close();
    }
  });
});
