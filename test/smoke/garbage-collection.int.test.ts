import { describe, expect, it } from '@jest/globals';
import { ApiException, CoreV1Api } from '@kubernetes/client-node';
import { adminKubeConfig, createTestNamespace, waitFor } from '@keyward/test-env';

describe('kube-controller-manager garbage collection', () => {
  it('removes a Secret when its owner is deleted', async () => {
    const core = adminKubeConfig().makeApiClient(CoreV1Api);
    const namespace = await createTestNamespace('smoke-gc');
    const owner = await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'owner' } } });
    await core.createNamespacedSecret({
      namespace,
      body: {
        metadata: {
          name: 'owned',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid ?? '' }],
        },
        stringData: { token: 'x' },
      },
    });

    await core.deleteNamespacedConfigMap({ namespace, name: 'owner' });

    const gone = await waitFor(
      async () => {
        try {
          await core.readNamespacedSecret({ namespace, name: 'owned' });
          return undefined;
        } catch (error) {
          if (error instanceof ApiException && error.code === 404) return true;
          throw error;
        }
      },
      { what: 'the owned Secret to be collected', timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(gone).toBe(true);
  }, 90_000);
});
