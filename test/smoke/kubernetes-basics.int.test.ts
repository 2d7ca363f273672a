import { describe, expect, it } from '@jest/globals';
import { CoreV1Api, Watch, type V1Secret } from '@kubernetes/client-node';
import { adminKubeConfig, createTestNamespace } from '@keyward/test-env';

describe('a real kube-apiserver through @kubernetes/client-node', () => {
  it('creates, reads, lists by label and watches Secrets', async () => {
    const kubeConfig = adminKubeConfig();
    const core = kubeConfig.makeApiClient(CoreV1Api);
    const namespace = await createTestNamespace('smoke-secrets');
    const labels = { 'smoke.keyward.dev/set': 'a' };

    await core.createNamespacedSecret({
      namespace,
      body: { metadata: { name: 'first', labels }, stringData: { token: 'one' } },
    });
    const read = await core.readNamespacedSecret({ namespace, name: 'first' });
    expect(Buffer.from(read.data?.['token'] ?? '', 'base64').toString()).toBe('one');

    await core.createNamespacedSecret({ namespace, body: { metadata: { name: 'unlabelled' }, stringData: { token: 'x' } } });
    const listed = await core.listNamespacedSecret({ namespace, labelSelector: 'smoke.keyward.dev/set=a' });
    expect(listed.items.map((s) => s.metadata?.name)).toEqual(['first']);

    // Watch from the list's resourceVersion: only what happens afterwards arrives.
    const seen: string[] = [];
    const secondAdded = new Promise<void>((resolve, reject) => {
      void new Watch(kubeConfig)
        .watch(
          `/api/v1/namespaces/${namespace}/secrets`,
          { labelSelector: 'smoke.keyward.dev/set=a', resourceVersion: listed.metadata?.resourceVersion },
          (phase: string, secret: V1Secret) => {
            seen.push(`${phase} ${secret.metadata?.name ?? ''}`);
            if (phase === 'ADDED' && secret.metadata?.name === 'second') resolve();
          },
          (error: unknown) => {
            if (error instanceof Error) reject(error);
          },
        )
        .then(async (request) => {
          await core.createNamespacedSecret({ namespace, body: { metadata: { name: 'second', labels }, stringData: { token: 'two' } } });
          await secondAdded;
          request.abort();
        }, reject);
    });
    await secondAdded;
    expect(seen).toEqual(['ADDED second']);
  });
});
