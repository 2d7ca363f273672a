// What the APIKey benchmarks set up: approved APIKeys, each with its consumer Secret.
import { randomBytes } from 'node:crypto';
import { coreTypes } from '@keyward/kernel';
import { ContentType, type KubeClient } from '@keyward/runtime/io';
import { API_KEY_DATA_KEY, CONDITION_APPROVED, apiKeyType } from '@keyward/apikey-enforcement';
import { createNamespace } from '../support/environment.js';
import { inBatches } from '../support/pool.js';

/**
 * `count` APIKeys in a new namespace, each with its own consumer Secret, approved through the status
 * subresource as the devportal does, 50 at a time.
 */
export async function approvedApiKeys(kube: KubeClient, namespace: string, count: number): Promise<void> {
  await createNamespace(kube, namespace);
  await inBatches(count, 50, async (i) => {
    const name = `key-${String(i)}`;
    const ref = { type: apiKeyType, namespace, name };
    await kube.create({ type: coreTypes.secret, namespace, name }, { metadata: { name }, stringData: { [API_KEY_DATA_KEY]: randomBytes(16).toString('hex') } });
    await kube.create(ref, {
      apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name, namespace },
      spec: { apiProductRef: { name: 'weather' }, secretRef: { name }, planTier: 'gold', useCase: 'bench', requestedBy: { userId: `user-${String(i)}`, email: 'user@example.com' } },
    });
    await kube.patch(ref, {
      status: { conditions: [{ type: CONDITION_APPROVED, status: 'True', reason: 'Approved', message: 'by the benchmark', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    }, ContentType.mergePatch, 'status');
  });
}
