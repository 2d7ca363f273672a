import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { adminKubeConfig, createTestNamespace, rememberSecret, waitFor } from '@keyward/test-env';
import { coreTypes } from '@keyward/kernel';
import { type KubernetesAction, type KubernetesQuery } from '@keyward/kernel/plan';
import { ContentType, KubeClient, kubernetesRuntime } from '@keyward/runtime/io';
import { KeywardError, apiSet, controlRuntime, type ApiRuntime } from '@keyward/kernel/interpreter';
import { Controller } from '@keyward/runtime/controller';
import { apiKeyType, enforcementSecretName } from '../src/api.js';
import { apiKeyController } from '../src/controller.js';

// The API server drops the connection of the first delete of an enforcement Secret, as it does when it
// restarts right after an APIKey is deleted. The removal must be retried, not left to the next resync.
let kube: KubeClient;
let consumer: string;
let enforcement: string;
let droppedDeletes = 0;
let controller: { stop(): Promise<void> } | undefined;

function droppingFirstDelete(kubernetes: ApiRuntime<KubernetesAction, KubernetesQuery>): ApiRuntime<KubernetesAction, KubernetesQuery> {
  const { handlers } = kubernetes;
  return {
    ...kubernetes,
    handlers: {
      ...handlers,
      'k8s.delete': async (action, context) => {
        if (action.ref.namespace === enforcement && droppedDeletes === 0) {
          droppedDeletes++;
          throw new KeywardError({ api: 'kubernetes', code: 0, reason: 'Unavailable', message: `delete Secret ${enforcement}/${action.ref.name}: socket hang up`, retryable: true });
        }
        return handlers['k8s.delete'](action, context);
      },
    },
  };
}

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  consumer = await createTestNamespace('orphan-consumer');
  enforcement = await createTestNamespace('orphan-enforcement');
  const created = new Controller(apiKeyController, {
    kube, namespace: consumer, config: { enforcementNamespace: enforcement },
    apis: apiSet(droppingFirstDelete(kubernetesRuntime(kube, { reportingController: 'keyward.dev/apikey-enforcement', reportingInstance: 'test' })), controlRuntime),
    backoff: { baseMs: 100, maxMs: 2_000 },
  });
  await created.start();
  controller = created;
}, 120_000);

afterAll(async () => {
  await controller?.stop();
  kube.close();
});

describe('removing the enforcement Secret of a deleted APIKey', () => {
  it('retries a removal that failed, well before any resync', async () => {
    const key = rememberSecret(`key-${randomBytes(16).toString('hex')}`);
    await kube.create({ type: coreTypes.secret, namespace: consumer, name: 'key' }, { metadata: { name: 'key' }, stringData: { api_key: key } });
    const apiKey = { type: apiKeyType, namespace: consumer, name: 'revoked' };
    await kube.create(apiKey, {
      apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name: 'revoked', namespace: consumer },
      spec: { apiProductRef: { name: 'weather' }, secretRef: { name: 'key' }, planTier: 'gold', useCase: 'test', requestedBy: { userId: 'alice', email: 'alice@example.com' } },
    });
    await kube.patch(apiKey, { status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Approved', message: 'by the test', lastTransitionTime: '2026-01-01T00:00:00Z' }] } }, ContentType.mergePatch, 'status');
    const secretRef = { type: coreTypes.secret, namespace: enforcement, name: enforcementSecretName(consumer, 'revoked') };
    await waitFor(() => kube.get(secretRef), { what: 'the enforcement Secret', timeoutMs: 60_000, intervalMs: 200 });

    await kube.delete(apiKey);
    // The resync is 10 minutes away; only a retry removes the Secret within this wait.
    await waitFor(async () => ((await kube.get(secretRef)) === undefined ? true : undefined), { what: 'the enforcement Secret to be removed', timeoutMs: 60_000, intervalMs: 200 });
    expect(droppedDeletes).toBe(1);
  });
});
